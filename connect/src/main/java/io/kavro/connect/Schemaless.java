package io.kavro.connect;

import static io.kavro.connect.ConnectProps.AVRO_TYPE_ANYTHING;
import static io.kavro.connect.ConnectProps.KEY_FIELD;
import static io.kavro.connect.ConnectProps.MAP_ENTRY_TYPE_NAME;
import static io.kavro.connect.ConnectProps.NAMESPACE;
import static io.kavro.connect.ConnectProps.VALUE_FIELD;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.connect.errors.DataException;

/**
 * Connect data without a schema, as Confluent's converter writes it: a record
 * {@code io.confluent.connect.avro.Anything} with one optional field per type, of which at most one is set;
 * lists are arrays of it, and maps arrays of {@code MapEntry} records of two of it.
 */
final class Schemaless {
  private Schemaless() {}

  static final Schema ANYTHING = SchemaBuilder.record(AVRO_TYPE_ANYTHING).namespace(NAMESPACE).fields()
      .optionalBoolean("boolean")
      .optionalBytes("bytes")
      .optionalDouble("double")
      .optionalFloat("float")
      .optionalInt("int")
      .optionalLong("long")
      .optionalString("string")
      .name("array").type().optional().array().items().type(AVRO_TYPE_ANYTHING)
      .name("map").type().optional().array().items().record(MAP_ENTRY_TYPE_NAME).namespace(NAMESPACE).fields()
          .name(KEY_FIELD).type(AVRO_TYPE_ANYTHING).noDefault()
          .name(VALUE_FIELD).type(AVRO_TYPE_ANYTHING).noDefault()
          .endRecord()
      .endRecord();

  private static final Schema MAP_ENTRY = ANYTHING.getField("map").schema().getTypes().get(1).getElementType();

  /**
   * How deep schemaless values may nest, both ways: deeper data (a payload of a few kilobytes can nest
   * thousands of levels) is a DataException that errors.tolerance can skip, not a stack overflow that kills the
   * task.
   */
  static final int MAX_DEPTH = 500;

  /** A schemaless Connect value (null, a primitive, a list, a map) as an {@code Anything} record. */
  static GenericRecord toAvro(Object value) {
    return toAvro(value, 0);
  }

  private static GenericRecord toAvro(Object value, int depth) {
    checkDepth(depth);
    GenericRecord record = new GenericData.Record(ANYTHING);
    if (value == null) {
      return record;
    }
    if (value instanceof Byte b) {
      record.put("int", b.intValue());
    } else if (value instanceof Short s) {
      record.put("int", s.intValue());
    } else if (value instanceof Integer) {
      record.put("int", value);
    } else if (value instanceof Long) {
      record.put("long", value);
    } else if (value instanceof Float) {
      record.put("float", value);
    } else if (value instanceof Double) {
      record.put("double", value);
    } else if (value instanceof Boolean) {
      record.put("boolean", value);
    } else if (value instanceof String) {
      record.put("string", value);
    } else if (value instanceof byte[] bytes) {
      record.put("bytes", java.nio.ByteBuffer.wrap(bytes));
    } else if (value instanceof java.nio.ByteBuffer) {
      record.put("bytes", value);
    } else if (value instanceof Collection<?> items) {
      List<Object> array = new ArrayList<>(items.size());
      items.forEach(item -> array.add(toAvro(item, depth + 1)));
      record.put("array", array);
    } else if (value instanceof Map<?, ?> map) {
      List<Object> entries = new ArrayList<>(map.size());
      map.forEach((k, v) -> {
        GenericRecord entry = new GenericData.Record(MAP_ENTRY);
        entry.put(KEY_FIELD, toAvro(k, depth + 1));
        entry.put(VALUE_FIELD, toAvro(v, depth + 1));
        entries.add(entry);
      });
      record.put("map", entries);
    } else {
      throw new DataException("Unknown Java type for schemaless data: " + value.getClass().getName());
    }
    return record;
  }

  /** The Connect value of an {@code Anything} record: its first field that is set, or null. */
  static Object toConnect(Object value) {
    return toConnect(value, 0);
  }

  private static Object toConnect(Object value, int depth) {
    checkDepth(depth);
    if (!(value instanceof IndexedRecord record)) {
      throw new DataException("Invalid Avro data for schemaless Connect data: " + describe(value));
    }
    for (String field : List.of("boolean", "bytes", "double", "float", "int", "long", "string")) {
      Object set = record.get(ANYTHING.getField(field).pos());
      if (set != null) {
        return set instanceof CharSequence text ? text.toString() : set;
      }
    }
    Object array = record.get(ANYTHING.getField("array").pos());
    if (array instanceof Collection<?> items) {
      List<Object> list = new ArrayList<>(items.size());
      items.forEach(item -> list.add(toConnect(item, depth + 1)));
      return list;
    }
    Object map = record.get(ANYTHING.getField("map").pos());
    if (map instanceof Collection<?> entries) {
      Map<Object, Object> result = new HashMap<>(entries.size());
      for (Object entry : entries) {
        IndexedRecord pair = (IndexedRecord) entry;
        result.put(toConnect(pair.get(0), depth + 1), toConnect(pair.get(1), depth + 1));
      }
      return result;
    }
    return null;
  }

  private static void checkDepth(int depth) {
    if (depth > MAX_DEPTH) {
      throw new DataException("Schemaless data nested deeper than " + MAX_DEPTH + " levels");
    }
  }

  private static String describe(Object value) {
    return value == null ? "null" : value.getClass().getName();
  }
}
