package io.kavro.rules.cel;

import dev.cel.common.values.CelByteString;
import dev.cel.common.values.NullValue;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.RuleException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * Avro generic values to CEL values and back, as Confluent's {@code CelUtils} and {@code AvroResultWriter} do.
 * Stateless.
 */
final class CelValues {
  private CelValues() {}

  /**
   * The CEL value of an Avro generic value: a record is a map of field name to value, strings and enums are
   * strings, every integer a CEL int ({@code long}), a float a double, bytes and fixed CEL bytes, null CEL null.
   */
  static Object toCel(Object value) {
    if (value == null) {
      return NullValue.NULL_VALUE;
    } else if (value instanceof CharSequence || value instanceof GenericEnumSymbol<?>) {
      return value.toString();
    } else if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    } else if (value instanceof Float f) {
      return f.doubleValue();
    } else if (value instanceof ByteBuffer buffer) {
      byte[] bytes = new byte[buffer.remaining()];
      buffer.duplicate().get(bytes);
      return CelByteString.of(bytes);
    } else if (value instanceof byte[] bytes) {
      return CelByteString.of(bytes);
    } else if (value instanceof GenericFixed fixed) {
      return CelByteString.of(fixed.bytes());
    } else if (value instanceof IndexedRecord record) {
      List<Schema.Field> fields = record.getSchema().getFields();
      Map<String, Object> map = new LinkedHashMap<>(fields.size() * 4 / 3 + 1);
      for (Schema.Field field : fields) {
        map.put(field.name(), toCel(record.get(field.pos())));
      }
      return map;
    } else if (value instanceof Collection<?> elements) {
      List<Object> list = new ArrayList<>(elements.size());
      for (Object element : elements) {
        list.add(toCel(element));
      }
      return list;
    } else if (value instanceof Map<?, ?> entries) {
      Map<String, Object> map = new LinkedHashMap<>(entries.size() * 4 / 3 + 1);
      entries.forEach((key, element) -> map.put(String.valueOf(key), toCel(element)));
      return map;
    }
    return value;
  }

  /**
   * Whether {@code schema} is an Avro {@code variant} record, as Confluent's {@code VariantLogicalType} takes it:
   * {@code "logicalType": "variant"} on a record of exactly the two fields {@code metadata} and {@code value}, both
   * {@code bytes}.
   */
  static boolean isVariantRecord(Schema schema) {
    return schema.getType() == Schema.Type.RECORD && "variant".equals(schema.getProp("logicalType"))
        && schema.getFields().size() == 2 && isBytes(schema.getField("metadata")) && isBytes(schema.getField("value"));
  }

  private static boolean isBytes(Schema.Field field) {
    return field != null && field.schema().getType() == Schema.Type.BYTES;
  }

  /** Whether a CEL result is null. */
  static boolean isNull(Object result) {
    return result == null || result instanceof NullValue || result instanceof com.google.protobuf.NullValue;
  }

  /** The bytes of a CEL bytes result, or null when it is not bytes. */
  static byte[] bytes(Object result) {
    if (result instanceof CelByteString bytes) {
      return bytes.toByteArray();
    } else if (result instanceof com.google.protobuf.ByteString bytes) {
      return bytes.toByteArray();
    } else if (result instanceof byte[] bytes) {
      return bytes;
    }
    return null;
  }

  /**
   * A CEL result as a generic datum of {@code schema}: a map becomes a record of the schema (fields by name), a
   * variant a {@code variant} record (its metadata and value bytes, as Confluent's {@code VariantConversion} writes
   * them), an integer is narrowed to an int when the schema says so, strings are {@code String}, bytes
   * {@code ByteBuffer}.
   *
   * @param path the field the value is for ({@code com.acme.User.age}), or the record's full name
   * @throws RuleException when the result does not fit the schema, naming the rule and the field
   */
  static Object toAvro(Rule rule, Object result, Schema schema, String path) {
    if (isNull(result)) {
      if (schema.getType() == Schema.Type.NULL || schema.getType() == Schema.Type.UNION && schema.isNullable()) {
        return null;
      }
      throw misfit(rule, path, "null", schema);
    }
    switch (schema.getType()) {
      case UNION:
        return toUnion(rule, result, schema, path);
      case RECORD:
        if (result instanceof Map<?, ?> map) {
          return toRecord(rule, map, schema);
        }
        if (result instanceof Variant variant && isVariantRecord(schema)) {
          GenericData.Record record = new GenericData.Record(schema);
          record.put("metadata", ByteBuffer.wrap(variant.metadataBytes()));
          record.put("value", ByteBuffer.wrap(variant.valueBytes()));
          return record;
        }
        break;
      case MAP:
        if (result instanceof Map<?, ?> map) {
          Map<String, Object> out = new LinkedHashMap<>(map.size() * 4 / 3 + 1);
          map.forEach((key, value) ->
              out.put(String.valueOf(key), toAvro(rule, value, schema.getValueType(), path)));
          return out;
        }
        break;
      case ARRAY:
        if (result instanceof Collection<?> elements) {
          GenericData.Array<Object> out = new GenericData.Array<>(elements.size(), schema);
          for (Object element : elements) {
            out.add(toAvro(rule, element, schema.getElementType(), path));
          }
          return out;
        }
        break;
      case ENUM:
        if (result instanceof CharSequence symbol) {
          if (!schema.hasEnumSymbol(symbol.toString())) {
            throw new RuleException(rule + ": field '" + path + "': the CEL result is not a symbol of enum "
                + schema.getFullName());
          }
          return new GenericData.EnumSymbol(schema, symbol.toString());
        }
        break;
      case FIXED:
        byte[] fixed = bytes(result);
        if (fixed != null) {
          if (fixed.length != schema.getFixedSize()) {
            throw new RuleException(rule + ": field '" + path + "': " + fixed.length + " bytes do not fit fixed "
                + schema.getFullName() + " of size " + schema.getFixedSize());
          }
          return new GenericData.Fixed(schema, fixed);
        }
        break;
      case STRING:
        if (result instanceof CharSequence chars) {
          return chars.toString();
        }
        break;
      case BYTES:
        byte[] bytes = bytes(result);
        if (bytes != null) {
          return ByteBuffer.wrap(bytes);
        }
        break;
      case INT:
        if (isInteger(result)) {
          long value = ((Number) result).longValue();
          if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw new RuleException(rule + ": field '" + path + "': the CEL result overflows an int");
          }
          return (int) value;
        }
        break;
      case LONG:
        if (isInteger(result)) {
          return ((Number) result).longValue();
        }
        break;
      case FLOAT:
        if (result instanceof Number number) {
          return number.floatValue();
        }
        break;
      case DOUBLE:
        if (result instanceof Number number) {
          return number.doubleValue();
        }
        break;
      case BOOLEAN:
        if (result instanceof Boolean) {
          return result;
        }
        break;
      default:
        break;
    }
    throw misfit(rule, path, result.getClass().getSimpleName(), schema);
  }

  private static Object toUnion(Rule rule, Object result, Schema union, String path) {
    for (Schema branch : union.getTypes()) {
      if (isExactly(result, branch)) {
        return toAvro(rule, result, branch, path);
      }
    }
    for (Schema branch : union.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        try {
          return toAvro(rule, result, branch, path);
        } catch (RuleException e) {
          // not this branch
        }
      }
    }
    throw misfit(rule, path, result.getClass().getSimpleName(), union);
  }

  private static boolean isExactly(Object result, Schema branch) {
    return switch (branch.getType()) {
      case STRING -> result instanceof CharSequence;
      case LONG -> result instanceof Long;
      case DOUBLE -> result instanceof Double;
      case BOOLEAN -> result instanceof Boolean;
      case BYTES -> bytes(result) != null;
      case ARRAY -> result instanceof Collection;
      default -> false;
    };
  }

  private static IndexedRecord toRecord(Rule rule, Map<?, ?> map, Schema schema) {
    GenericData.Record record = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      String path = schema.getFullName() + "." + field.name();
      if (map.containsKey(field.name())) {
        record.put(field.pos(), toAvro(rule, map.get(field.name()), field.schema(), path));
      } else if (field.hasDefaultValue()) {
        record.put(field.pos(), GenericData.get().deepCopy(field.schema(), GenericData.get().getDefaultValue(field)));
      } else if (field.schema().getType() == Schema.Type.NULL || field.schema().isNullable()) {
        record.put(field.pos(), null);
      } else {
        throw new RuleException(rule + ": the CEL result has no field '" + path + "', which is not nullable");
      }
    }
    return record;
  }

  private static boolean isInteger(Object result) {
    return result instanceof Long || result instanceof Integer || result instanceof Short || result instanceof Byte;
  }

  private static RuleException misfit(Rule rule, String path, String what, Schema schema) {
    String expected = switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> schema.getFullName();
      case UNION -> schema.toString();
      default -> schema.getType().getName();
    };
    return new RuleException(rule + ": field '" + path + "': a CEL result of type " + what + " does not fit "
        + expected);
  }
}
