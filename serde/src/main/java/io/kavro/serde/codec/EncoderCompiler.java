package io.kavro.serde.codec;

import io.kavro.serde.avro.ByteSink;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.Utf8;

/**
 * Compiles a writer schema into a {@link DatumEncoder}: the schema is walked once, and each step knows its
 * type, its union branches and its logical-type conversion in advance.
 *
 * <p>The output equals Avro's {@code GenericDatumWriter} (and {@code SpecificDatumWriter} for generated
 * classes) byte for byte. Recursive schemas are not compiled: {@link #compile} returns {@code null} and the
 * caller keeps Avro's writer.
 */
public final class EncoderCompiler {
  private final GenericData model;
  private final IdentityHashMap<Schema, Boolean> inProgress = new IdentityHashMap<>();

  private EncoderCompiler(GenericData model) {
    this.model = model;
  }

  /**
   * An encoder for {@code schema}, with the logical-type conversions of {@code model} (the generic model, or
   * a generated class's {@code SpecificData}), or {@code null} if the schema cannot be compiled.
   */
  public static DatumEncoder compile(Schema schema, GenericData model) {
    try {
      return new EncoderCompiler(model).encoder(schema);
    } catch (Unsupported e) {
      return null;
    }
  }

  private DatumEncoder encoder(Schema schema) {
    DatumEncoder raw = rawEncoder(schema);
    LogicalType logical = schema.getLogicalType();
    Conversion<?> conversion = logical == null ? null : model.getConversionFor(logical);
    if (conversion == null) {
      return raw;
    }
    Class<?> converted = conversion.getConvertedType();
    @SuppressWarnings("unchecked")
    Conversion<Object> c = (Conversion<Object>) conversion;
    // As Avro's writer: a value of the converted type is converted, a raw value is written as it is.
    return (value, out) -> raw.encode(converted.isInstance(value)
        ? Conversions.convertToRawType(value, schema, logical, c) : value, out);
  }

  private DatumEncoder rawEncoder(Schema schema) {
    return switch (schema.getType()) {
      case NULL -> (value, out) -> {
        if (value != null) {
          throw new AvroRuntimeException("not null: " + value);
        }
      };
      case BOOLEAN -> (value, out) -> out.writeBoolean((Boolean) value);
      case INT -> (value, out) -> out.writeInt(((Number) value).intValue());
      case LONG -> (value, out) -> out.writeLong(((Number) value).longValue());
      case FLOAT -> (value, out) -> out.writeFloat(((Number) value).floatValue());
      case DOUBLE -> (value, out) -> out.writeDouble(((Number) value).doubleValue());
      case STRING -> EncoderCompiler::writeString;
      case BYTES -> (value, out) -> out.writeBytes((ByteBuffer) value);
      case FIXED -> {
        int size = schema.getFixedSize();
        yield (value, out) -> {
          byte[] bytes = ((GenericFixed) value).bytes();
          out.write(bytes, 0, size);
        };
      }
      case ENUM -> enumEncoder(schema);
      case ARRAY -> arrayEncoder(schema);
      case MAP -> mapEncoder(schema);
      case UNION -> unionEncoder(schema);
      case RECORD -> recordEncoder(schema);
    };
  }

  private static void writeString(Object value, ByteSink out) {
    if (value instanceof String s) {
      out.writeString(s);
    } else if (value instanceof Utf8 utf8) {
      out.writeBytes(utf8.getBytes(), 0, utf8.getByteLength());
    } else {
      out.writeString(value.toString());
    }
  }

  private DatumEncoder enumEncoder(Schema schema) {
    Map<String, Integer> ordinals = new HashMap<>();
    List<String> symbols = schema.getEnumSymbols();
    for (int i = 0; i < symbols.size(); i++) {
      ordinals.put(symbols.get(i), i);
    }
    return (value, out) -> {
      if (value instanceof Enum<?> e) {
        out.writeInt(e.ordinal());
        return;
      }
      Integer ordinal = ordinals.get(value.toString());
      if (ordinal == null) {
        throw new AvroRuntimeException("Not an enum symbol of " + schema.getFullName() + ": " + value);
      }
      out.writeInt(ordinal);
    };
  }

  private DatumEncoder arrayEncoder(Schema schema) {
    DatumEncoder item = encoder(schema.getElementType());
    return (value, out) -> {
      Collection<?> items = (Collection<?>) value;
      int size = items.size();
      if (size > 0) {
        out.writeLong(size);
        if (items instanceof List<?> list && items instanceof RandomAccess) {
          for (int i = 0; i < size; i++) {
            item.encode(list.get(i), out);
          }
        } else {
          int written = 0;
          for (Object element : items) {
            item.encode(element, out);
            written++;
          }
          if (written != size) {
            throw new java.util.ConcurrentModificationException("array changed size while written");
          }
        }
      }
      out.writeLong(0);
    };
  }

  private DatumEncoder mapEncoder(Schema schema) {
    DatumEncoder valueEncoder = encoder(schema.getValueType());
    return (value, out) -> {
      Map<?, ?> map = (Map<?, ?>) value;
      int size = map.size();
      if (size > 0) {
        out.writeLong(size);
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          writeString(entry.getKey(), out);
          valueEncoder.encode(entry.getValue(), out);
        }
      }
      out.writeLong(0);
    };
  }

  private DatumEncoder unionEncoder(Schema schema) {
    List<Schema> branches = schema.getTypes();
    DatumEncoder[] encoders = new DatumEncoder[branches.size()];
    for (int i = 0; i < encoders.length; i++) {
      encoders[i] = encoder(branches.get(i));
    }
    int nullIndex = -1;
    for (int i = 0; i < branches.size(); i++) {
      if (branches.get(i).getType() == Schema.Type.NULL) {
        nullIndex = i;
      }
    }
    if (branches.size() == 2 && nullIndex >= 0) {
      // ["null", X] or [X, "null"]: the value decides, without asking the model.
      int nullBranch = nullIndex;
      int other = 1 - nullIndex;
      DatumEncoder otherEncoder = encoders[other];
      return (value, out) -> {
        if (value == null) {
          out.writeInt(nullBranch);
        } else {
          out.writeInt(other);
          otherEncoder.encode(value, out);
        }
      };
    }
    return (value, out) -> {
      int index = model.resolveUnion(schema, value);
      out.writeInt(index);
      encoders[index].encode(value, out);
    };
  }

  private DatumEncoder recordEncoder(Schema schema) {
    if (inProgress.put(schema, Boolean.TRUE) != null) {
      throw new Unsupported("recursive record " + schema.getFullName());
    }
    try {
      List<Schema.Field> fields = schema.getFields();
      int[] positions = new int[fields.size()];
      boolean[] nullable = new boolean[fields.size()];
      DatumEncoder[] encoders = new DatumEncoder[fields.size()];
      for (int i = 0; i < encoders.length; i++) {
        Schema fieldSchema = fields.get(i).schema();
        positions[i] = fields.get(i).pos();
        nullable[i] = fieldSchema.isNullable();
        encoders[i] = encoder(fieldSchema);
      }
      return (value, out) -> {
        IndexedRecord record = (IndexedRecord) value;
        for (int i = 0; i < encoders.length; i++) {
          Object fieldValue = record.get(positions[i]);
          if (fieldValue == null && !nullable[i]) {
            throw new NullPointerException("null value for (non-nullable) field " + schema.getName() + "."
                + fields.get(i).name());
          }
          encoders[i].encode(fieldValue, out);
        }
      };
    } finally {
      inProgress.remove(schema);
    }
  }
}
