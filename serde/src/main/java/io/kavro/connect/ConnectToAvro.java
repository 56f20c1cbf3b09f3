package io.kavro.connect;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Connect schemas and values to Avro: schemas once per Connect schema (the caller caches them), values per
 * record, as Avro's raw generic representation (decimals as bytes, dates as ints), which any writer accepts.
 *
 * <p>A schema conversion is stateful (it names unnamed structs and keeps named ones unique), so each one uses
 * a new instance; value conversion is static.
 */
final class ConnectToAvro {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final Set<String> OUR_PARAMETERS = Set.of(ConnectProps.AVRO_TYPE, ConnectProps.ENUM_SYMBOLS,
      ConnectProps.FIXED_SIZE, ConnectProps.FIXED_NAME, ConnectProps.FIELD_DOC, ConnectProps.DECIMAL_PRECISION, Decimal.SCALE_FIELD,
      ConnectProps.LOGICAL_TYPE);

  private final Map<String, Schema> named = new HashMap<>();
  private final Map<String, org.apache.kafka.connect.data.Schema> namedSources = new HashMap<>();
  private int unnamed;

  private ConnectToAvro() {}

  /** The Avro schema of a Connect schema. */
  static Schema schema(org.apache.kafka.connect.data.Schema connect) {
    return new ConnectToAvro().convert(connect);
  }

  private Schema convert(org.apache.kafka.connect.data.Schema connect) {
    Schema base = nonOptional(connect);
    if (!connect.isOptional()) {
      return base;
    }
    Schema nullSchema = Schema.create(Schema.Type.NULL);
    if (base.getType() == Schema.Type.UNION) {
      List<Schema> branches = new ArrayList<>();
      branches.add(nullSchema);
      branches.addAll(base.getTypes());
      return Schema.createUnion(branches);
    }
    // Avro takes a field's default from the union's first branch: null first unless the default is not null.
    return connect.defaultValue() == null ? Schema.createUnion(nullSchema, base) : Schema.createUnion(base, nullSchema);
  }

  private Schema nonOptional(org.apache.kafka.connect.data.Schema connect) {
    String name = connect.name();
    Map<String, String> params = connect.parameters() == null ? Map.of() : connect.parameters();
    String avroType = params.get(ConnectProps.AVRO_TYPE);
    Schema schema = switch (connect.type()) {
      case INT8, INT16 -> {
        Schema s = Schema.create(Schema.Type.INT);
        s.addProp(ConnectProps.CONNECT_TYPE, connect.type().getName());
        yield s;
      }
      case INT32 -> Date.LOGICAL_NAME.equals(name) ? LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT))
          : Time.LOGICAL_NAME.equals(name) ? LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT))
          : Schema.create(Schema.Type.INT);
      case INT64 -> Timestamp.LOGICAL_NAME.equals(name)
          ? LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG))
          : Schema.create(Schema.Type.LONG);
      case FLOAT32 -> Schema.create(Schema.Type.FLOAT);
      case FLOAT64 -> Schema.create(Schema.Type.DOUBLE);
      case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
      case STRING -> "enum".equals(avroType)
          ? define(connect, () -> Schema.createEnum(simpleName(name), connect.doc(), namespace(name),
              Arrays.asList(params.getOrDefault(ConnectProps.ENUM_SYMBOLS, "").split(","))))
          : Schema.create(Schema.Type.STRING);
      case BYTES -> bytes(connect, params, avroType);
      case ARRAY -> Schema.createArray(convert(connect.valueSchema()));
      case MAP -> map(connect);
      case STRUCT -> "union".equals(avroType) ? union(connect) : record(connect);
    };
    return withConnectProps(schema, connect, params);
  }

  private Schema bytes(org.apache.kafka.connect.data.Schema connect, Map<String, String> params, String avroType) {
    boolean decimal = Decimal.LOGICAL_NAME.equals(connect.name());
    Schema schema;
    if ("fixed".equals(avroType)) {
      String name = params.getOrDefault(ConnectProps.FIXED_NAME, connect.name());
      schema = define(connect, name, () -> Schema.createFixed(simpleName(name), connect.doc(), namespace(name),
          Integer.parseInt(params.get(ConnectProps.FIXED_SIZE))));
    } else {
      schema = Schema.create(Schema.Type.BYTES);
    }
    if (decimal) {
      int scale = Integer.parseInt(params.getOrDefault(Decimal.SCALE_FIELD, "0"));
      int precision = Integer.parseInt(params.getOrDefault(ConnectProps.DECIMAL_PRECISION,
          Integer.toString(Math.max(scale, ConnectProps.DEFAULT_DECIMAL_PRECISION))));
      LogicalTypes.decimal(precision, scale).addToSchema(schema);
    }
    return schema;
  }

  private Schema map(org.apache.kafka.connect.data.Schema connect) {
    org.apache.kafka.connect.data.Schema key = connect.keySchema();
    if (key.type() == org.apache.kafka.connect.data.Schema.Type.STRING && !key.isOptional() && key.name() == null) {
      return Schema.createMap(convert(connect.valueSchema()));
    }
    Schema entry = Schema.createRecord(ConnectProps.DEFAULT_NAME + "MapEntry" + (++unnamed), null,
        ConnectProps.DEFAULT_NAMESPACE, false);
    entry.addProp(ConnectProps.MAP_ENTRY, true);
    entry.setFields(List.of(new Schema.Field("key", convert(key)), new Schema.Field("value", convert(connect.valueSchema()))));
    return Schema.createArray(entry);
  }

  private Schema union(org.apache.kafka.connect.data.Schema connect) {
    List<Schema> branches = new ArrayList<>();
    for (Field field : connect.fields()) {
      branches.add(nonOptional(field.schema()));
    }
    return Schema.createUnion(branches);
  }

  private Schema record(org.apache.kafka.connect.data.Schema connect) {
    String name = connect.name() != null ? connect.name()
        : ConnectProps.DEFAULT_NAMESPACE + "." + ConnectProps.DEFAULT_NAME + (unnamed++ == 0 ? "" : unnamed - 1);
    return define(connect, name, () -> {
      Schema record = Schema.createRecord(simpleName(name), connect.doc(), namespace(name), false);
      named.put(name, record);
      List<Schema.Field> fields = new ArrayList<>();
      for (Field field : connect.fields()) {
        org.apache.kafka.connect.data.Schema fieldSchema = field.schema();
        Schema avro = convert(fieldSchema);
        String doc = fieldSchema.parameters() == null ? null : fieldSchema.parameters().get(ConnectProps.FIELD_DOC);
        fields.add(new Schema.Field(field.name(), avro, doc, defaultOf(fieldSchema, avro)));
      }
      record.setFields(fields);
      return record;
    });
  }

  private Schema define(org.apache.kafka.connect.data.Schema connect, java.util.function.Supplier<Schema> create) {
    return define(connect, connect.name(), create);
  }

  /** One Avro schema per full name: a second Connect schema of that name must be the same. */
  private Schema define(org.apache.kafka.connect.data.Schema connect, String name,
      java.util.function.Supplier<Schema> create) {
    if (name == null) {
      throw new DataException("a Connect " + connect.type() + " schema that stands for an Avro enum or fixed "
          + "needs a name");
    }
    Schema existing = named.get(name);
    if (existing != null) {
      org.apache.kafka.connect.data.Schema first = namedSources.get(name);
      if (first != null && !sameIgnoringOptional(first, connect)) {
        throw new DataException("two different Connect schemas are named '" + name + "'; Avro needs unique names");
      }
      return existing;
    }
    namedSources.put(name, connect);
    Schema created = create.get();
    named.put(name, created);
    return created;
  }

  private static boolean sameIgnoringOptional(org.apache.kafka.connect.data.Schema a,
      org.apache.kafka.connect.data.Schema b) {
    return a.type() == b.type() && java.util.Objects.equals(a.name(), b.name())
        && (a.type() != org.apache.kafka.connect.data.Schema.Type.STRUCT || a.fields().equals(b.fields()));
  }

  private static Schema withConnectProps(Schema schema, org.apache.kafka.connect.data.Schema connect,
      Map<String, String> params) {
    boolean namedInAvro = schema.getType() == Schema.Type.RECORD || schema.getType() == Schema.Type.ENUM
        || schema.getType() == Schema.Type.FIXED;
    boolean logical = Decimal.LOGICAL_NAME.equals(connect.name()) || Date.LOGICAL_NAME.equals(connect.name())
        || Time.LOGICAL_NAME.equals(connect.name()) || Timestamp.LOGICAL_NAME.equals(connect.name());
    if (schema.getType() == Schema.Type.UNION) {
      return schema;
    }
    if (connect.name() != null && !namedInAvro && !logical) {
      schema.addProp(ConnectProps.CONNECT_NAME, connect.name());
    }
    if (connect.version() != null && !logical && schema.getObjectProp(ConnectProps.CONNECT_VERSION) == null) {
      schema.addProp(ConnectProps.CONNECT_VERSION, connect.version());
    }
    String logicalType = params.get(ConnectProps.LOGICAL_TYPE);
    if (logicalType != null && schema.getLogicalType() == null) {
      schema.addProp(org.apache.avro.LogicalType.LOGICAL_TYPE_PROP, logicalType);
    }
    Map<String, String> others = new LinkedHashMap<>();
    params.forEach((k, v) -> {
      if (!OUR_PARAMETERS.contains(k)) {
        others.put(k, v);
      }
    });
    if (!others.isEmpty() && schema.getObjectProp(ConnectProps.CONNECT_PARAMETERS) == null) {
      schema.addProp(ConnectProps.CONNECT_PARAMETERS, others);
    }
    return schema;
  }

  /** The Avro field default for a Connect field schema, as the Java form Avro's Field constructor takes. */
  private static Object defaultOf(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    Object value = connect.defaultValue();
    if (value == null) {
      return connect.isOptional() ? JsonProperties.NULL_VALUE : null;
    }
    return jsonForm(value(connect, avro, value));
  }

  private static Object jsonForm(Object datum) {
    if (datum instanceof GenericRecord record) {
      Map<String, Object> fields = new LinkedHashMap<>();
      for (Schema.Field field : record.getSchema().getFields()) {
        Object value = jsonForm(record.get(field.pos()));
        fields.put(field.name(), value == null ? JsonProperties.NULL_VALUE : value);
      }
      return fields;
    }
    if (datum instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return bytes;
    }
    if (datum instanceof GenericFixed fixed) {
      return fixed.bytes();
    }
    if (datum instanceof GenericEnumSymbol<?> || datum instanceof CharSequence) {
      return datum.toString();
    }
    if (datum instanceof Collection<?> items) {
      return items.stream().map(ConnectToAvro::jsonForm).toList();
    }
    if (datum instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(k.toString(), jsonForm(v)));
      return copy;
    }
    return datum;
  }

  /** A Connect value as Avro's raw generic datum for {@code avro}. */
  static Object value(org.apache.kafka.connect.data.Schema connect, Schema avro, Object value) {
    if (value == null) {
      return null;
    }
    Map<String, String> params = connect.parameters() == null ? Map.of() : connect.parameters();
    if (avro.getType() == Schema.Type.UNION && !"union".equals(params.get(ConnectProps.AVRO_TYPE))) {
      avro = nonNullBranch(avro);
    }
    String name = connect.name();
    return switch (connect.type()) {
      case INT8 -> ((Byte) value).intValue();
      case INT16 -> ((Short) value).intValue();
      case INT32 -> Date.LOGICAL_NAME.equals(name)
          ? (int) Math.floorDiv(((java.util.Date) value).getTime(), MILLIS_PER_DAY)
          : Time.LOGICAL_NAME.equals(name) ? (int) ((java.util.Date) value).getTime() : value;
      case INT64 -> Timestamp.LOGICAL_NAME.equals(name) ? ((java.util.Date) value).getTime() : value;
      case FLOAT32, FLOAT64, BOOLEAN -> value;
      case STRING -> avro.getType() == Schema.Type.ENUM ? new GenericData.EnumSymbol(avro, value) : value;
      case BYTES -> {
        byte[] bytes = Decimal.LOGICAL_NAME.equals(name) ? Decimal.fromLogical(connect, (BigDecimal) value)
            : value instanceof ByteBuffer buffer ? toBytes(buffer) : (byte[]) value;
        if (avro.getType() == Schema.Type.FIXED && Decimal.LOGICAL_NAME.equals(name)) {
          bytes = signExtend(bytes, avro.getFixedSize());
        }
        if (avro.getType() == Schema.Type.FIXED) {
          if (bytes.length != avro.getFixedSize()) {
            throw new DataException("value of " + bytes.length + " bytes for the fixed " + avro.getFullName()
                + " of size " + avro.getFixedSize());
          }
          yield new GenericData.Fixed(avro, bytes);
        }
        yield ByteBuffer.wrap(bytes);
      }
      case ARRAY -> {
        List<?> items = (List<?>) value;
        GenericData.Array<Object> array = new GenericData.Array<>(items.size(), avro);
        for (Object item : items) {
          array.add(value(connect.valueSchema(), avro.getElementType(), item));
        }
        yield array;
      }
      case MAP -> map(connect, avro, (Map<?, ?>) value);
      case STRUCT -> {
        Struct struct = (Struct) value;
        if ("union".equals(params.get(ConnectProps.AVRO_TYPE))) {
          yield unionBranch(connect, avro, struct);
        }
        GenericData.Record record = new GenericData.Record(avro);
        for (Field field : connect.fields()) {
          Schema.Field avroField = avro.getField(field.name());
          record.put(avroField.pos(), value(field.schema(), avroField.schema(), struct.get(field)));
        }
        yield record;
      }
    };
  }

  private static Object map(org.apache.kafka.connect.data.Schema connect, Schema avro, Map<?, ?> map) {
    if (avro.getType() == Schema.Type.MAP) {
      Map<String, Object> result = new HashMap<>();
      map.forEach((k, v) -> result.put((String) k, value(connect.valueSchema(), avro.getValueType(), v)));
      return result;
    }
    Schema entry = avro.getElementType();
    GenericData.Array<Object> entries = new GenericData.Array<>(map.size(), avro);
    map.forEach((k, v) -> {
      GenericData.Record record = new GenericData.Record(entry);
      record.put(0, value(connect.keySchema(), entry.getField("key").schema(), k));
      record.put(1, value(connect.valueSchema(), entry.getField("value").schema(), v));
      entries.add(record);
    });
    return entries;
  }

  private static Object unionBranch(org.apache.kafka.connect.data.Schema connect, Schema union, Struct struct) {
    List<Schema> branches = union.getTypes();
    int offset = branches.size() - connect.fields().size();
    for (Field field : connect.fields()) {
      Object value = struct.get(field);
      if (value != null) {
        return value(field.schema(), branches.get(field.index() + offset), value);
      }
    }
    // A null here would become a null record value: a tombstone, which deletes the key on a compacted topic.
    throw new DataException("the union struct " + connect.name() + " has no branch set: set one of its fields "
        + connect.fields().stream().map(Field::name).toList() + ", or write a null struct for a null value");
  }

  private static Schema nonNullBranch(Schema union) {
    for (Schema branch : union.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        return branch;
      }
    }
    throw new DataException("union " + union + " has no non-null branch");
  }

  /** A two's complement number widened to {@code size} bytes, as a fixed decimal needs. */
  private static byte[] signExtend(byte[] bytes, int size) {
    if (bytes.length >= size) {
      return bytes;
    }
    byte[] wide = new byte[size];
    byte pad = bytes.length > 0 && bytes[0] < 0 ? (byte) 0xff : 0;
    java.util.Arrays.fill(wide, 0, size - bytes.length, pad);
    System.arraycopy(bytes, 0, wide, size - bytes.length, bytes.length);
    return wide;
  }

  private static byte[] toBytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  static String simpleName(String fullName) {
    int dot = fullName.lastIndexOf('.');
    return dot < 0 ? fullName : fullName.substring(dot + 1);
  }

  static String namespace(String fullName) {
    int dot = fullName.lastIndexOf('.');
    return dot < 0 ? null : fullName.substring(0, dot);
  }
}
