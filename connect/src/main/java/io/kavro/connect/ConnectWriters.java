package io.kavro.connect;

import static io.kavro.connect.ConnectProps.AVRO_TYPE_ENUM;
import static io.kavro.connect.ConnectProps.CONNECT_AVRO_FIXED_SIZE_PROP;
import static io.kavro.connect.ConnectProps.GENERALIZED_TYPE_ENUM;

import io.kavro.serde.DatumEncoder;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.io.Encoder;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Compiles the writer of the values of one Connect schema straight into Avro's encoder, as the Avro schema
 * {@link ConnectToAvro#schema} gave for it: byte for byte what {@link ConnectToAvro#mapper} then the serializer
 * write, without the intermediate {@code GenericRecord}, and with Connect's logical values (decimals, dates,
 * times, timestamps) converted on the way. Every decision that depends on the schemas alone (union branches, field
 * order, enum symbols, fixed sizes, decimal scales, which getter reads a field) is taken here, once; the errors
 * for bad values are the mapper's {@link DataException}s, with its messages.
 *
 * <p>Not covered, so {@link #compile} gives {@code null} and the converter keeps the mapping for the schema: union
 * structs (Connect's generalized sum types and Confluent's {@code io.confluent.connect.avro.Union}), a Connect
 * logical type on another type than its own, a decimal whose scale does not parse, and any pair of schemas the
 * mapper itself would refuse for each value (a union that is not an optional's, a field the record lacks). One
 * difference in what is written, not in what it means: a string-keyed map whose values are converted is written
 * in its own order, where the mapping wrote the order of a {@code HashMap} copy (the same for a {@code HashMap}).
 */
final class ConnectWriters {
  private static final long MILLIS_PER_DAY = 24 * 60 * 60 * 1000;

  private final ConverterConfig settings;

  ConnectWriters(ConverterConfig settings) {
    this.settings = settings;
  }

  /** A schema pair the writers do not cover: the mapping writes its values instead. */
  private static final class Unsupported extends Exception {
    Unsupported() {
      super(null, null, false, false);
    }
  }

  /** Writes one value, already checked for null and converted from its logical type, as its Avro body. */
  @FunctionalInterface
  private interface Body {
    void write(Object value, Encoder out) throws IOException;
  }

  /**
   * The writer of the values of {@code connect} as {@code avro}, or {@code null} when it is not covered (see the
   * class comment).
   */
  DatumEncoder compile(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    if (connect == null) {
      return null;
    }
    try {
      Slot slot = slot(connect, avro);
      return slot::write;
    } catch (Unsupported e) {
      return null;
    }
  }

  /**
   * One place that holds a value of a Connect schema (the top, a field, an element, a map key or value): null
   * checked, union branch chosen, logical value converted and the body written, with the mapper's messages.
   */
  private static final class Slot {
    private final int nullIndex;
    private final int valueIndex;
    private final Body body;
    private final String nullMessage;
    private final String invalid;

    Slot(int nullIndex, int valueIndex, Body body, String nullMessage, String invalid) {
      this.nullIndex = nullIndex;
      this.valueIndex = valueIndex;
      this.body = body;
      this.nullMessage = nullMessage;
      this.invalid = invalid;
    }

    void write(Object value, Encoder out) throws IOException {
      if (value == null) {
        if (nullIndex < 0) {
          throw new DataException(nullMessage);
        }
        out.writeIndex(nullIndex);
        return;
      }
      if (valueIndex >= 0) {
        out.writeIndex(valueIndex);
      }
      try {
        body.write(value, out);
      } catch (ClassCastException e) {
        throw new DataException(invalid + value.getClass().getName());
      }
    }
  }

  private Slot slot(org.apache.kafka.connect.data.Schema connect, Schema avro) throws Unsupported {
    if (ConnectToAvro.isUnion(connect)) {
      throw new Unsupported(); // a union struct: its branch follows the datum's Avro type; left to the mapping
    }
    int nullIndex = -1;
    int valueIndex = -1;
    Schema value = avro;
    if (connect.isOptional()) {
      // The optional's union, as ConnectToAvro made it: null first, or last behind a default. Its order is read
      // from the Avro schema, not decided again.
      if (avro.getType() != Schema.Type.UNION || avro.getTypes().size() != 2) {
        throw new Unsupported();
      }
      List<Schema> branches = avro.getTypes();
      nullIndex = branches.get(0).getType() == Schema.Type.NULL ? 0
          : branches.get(1).getType() == Schema.Type.NULL ? 1 : -1;
      if (nullIndex < 0) {
        throw new Unsupported();
      }
      valueIndex = 1 - nullIndex;
      value = branches.get(valueIndex);
    }
    if (value.getType() == Schema.Type.UNION) {
      throw new Unsupported();
    }
    String named = connect.name() == null ? "" : " (" + connect.name() + ")";
    return new Slot(nullIndex, valueIndex, logicalOrBody(connect, value),
        "Found null value for non-optional schema" + named, "Invalid type for " + connect.type() + named + ": ");
  }

  /** The body of a value, with Connect's logical conversion (by its exact name, as the mapper matches it) first. */
  private Body logicalOrBody(org.apache.kafka.connect.data.Schema connect, Schema avro) throws Unsupported {
    String name = connect.name();
    org.apache.kafka.connect.data.Schema.Type type = connect.type();
    if (name == null) {
      return body(connect, avro);
    }
    switch (name) {
      case Decimal.LOGICAL_NAME -> {
        require(type == org.apache.kafka.connect.data.Schema.Type.BYTES);
        int scale;
        try {
          scale = Integer.parseInt(connect.parameters().get(Decimal.SCALE_FIELD));
        } catch (RuntimeException e) {
          throw new Unsupported(); // the mapper gives Kafka's error for each value
        }
        if (ConnectToAvro.isFixed(connect)) {
          Fixed fixed = fixed(connect, avro, true);
          return (value, out) -> fixed.write(unscaled(connect, scale, value), out);
        }
        require(avro.getType() == Schema.Type.BYTES);
        return (value, out) -> {
          byte[] bytes = unscaled(connect, scale, value);
          out.writeBytes(bytes, 0, bytes.length);
        };
      }
      case Date.LOGICAL_NAME -> {
        require(type == org.apache.kafka.connect.data.Schema.Type.INT32 && avro.getType() == Schema.Type.INT);
        return (value, out) -> {
          java.util.Date date = date(Date.LOGICAL_NAME, value);
          long millis = date.getTime();
          out.writeInt(Math.floorMod(millis, MILLIS_PER_DAY) == 0 ? (int) (millis / MILLIS_PER_DAY)
              : Date.fromLogical(connect, date)); // Kafka's error for a date with a time of day
        };
      }
      case Time.LOGICAL_NAME -> {
        require(type == org.apache.kafka.connect.data.Schema.Type.INT32 && avro.getType() == Schema.Type.INT);
        return (value, out) -> {
          java.util.Date time = date(Time.LOGICAL_NAME, value);
          long millis = time.getTime();
          out.writeInt(millis >= 0 && millis <= MILLIS_PER_DAY ? (int) millis : Time.fromLogical(connect, time));
        };
      }
      case Timestamp.LOGICAL_NAME -> {
        require(type == org.apache.kafka.connect.data.Schema.Type.INT64 && avro.getType() == Schema.Type.LONG);
        return (value, out) -> out.writeLong(date(Timestamp.LOGICAL_NAME, value).getTime());
      }
      default -> {
        return body(connect, avro);
      }
    }
  }

  private static java.util.Date date(String logicalName, Object value) {
    if (value instanceof java.util.Date date) {
      return date;
    }
    throw new DataException("Invalid type for " + logicalName + ": " + value.getClass().getName());
  }

  /** A decimal as its unscaled two's-complement bytes, of the schema's scale, as the mapper converts it. */
  private static byte[] unscaled(org.apache.kafka.connect.data.Schema connect, int scale, Object value) {
    if (!(value instanceof BigDecimal decimal)) {
      throw new DataException("Invalid type for " + Decimal.LOGICAL_NAME + ": " + value.getClass().getName());
    }
    return decimal.scale() == scale ? decimal.unscaledValue().toByteArray() : Decimal.fromLogical(connect, decimal);
  }

  private static void require(boolean covered) throws Unsupported {
    if (!covered) {
      throw new Unsupported();
    }
  }

  private Body body(org.apache.kafka.connect.data.Schema connect, Schema avro) throws Unsupported {
    Schema.Type avroType = avro.getType();
    switch (connect.type()) {
      case INT8 -> {
        require(avroType == Schema.Type.INT);
        return (value, out) -> out.writeInt((Byte) value);
      }
      case INT16 -> {
        require(avroType == Schema.Type.INT);
        return (value, out) -> out.writeInt((Short) value);
      }
      case INT32 -> {
        require(avroType == Schema.Type.INT);
        return (value, out) -> out.writeInt((Integer) value);
      }
      case INT64 -> {
        require(avroType == Schema.Type.LONG);
        return (value, out) -> out.writeLong((Long) value);
      }
      case FLOAT32 -> {
        require(avroType == Schema.Type.FLOAT);
        return (value, out) -> out.writeFloat((Float) value);
      }
      case FLOAT64 -> {
        require(avroType == Schema.Type.DOUBLE);
        return (value, out) -> out.writeDouble((Double) value);
      }
      case BOOLEAN -> {
        require(avroType == Schema.Type.BOOLEAN);
        return (value, out) -> out.writeBoolean((Boolean) value);
      }
      case STRING -> {
        return string(connect, avro);
      }
      case BYTES -> {
        if (ConnectToAvro.isFixed(connect)) {
          Fixed fixed = fixed(connect, avro, false);
          return (value, out) -> fixed.write(value instanceof byte[] array ? array : toBytes((ByteBuffer) value), out);
        }
        require(avroType == Schema.Type.BYTES);
        return (value, out) -> {
          if (value instanceof byte[] bytes) {
            out.writeBytes(bytes, 0, bytes.length);
          } else {
            out.writeBytes((ByteBuffer) value);
          }
        };
      }
      case ARRAY -> {
        require(avroType == Schema.Type.ARRAY);
        return array(slot(connect.valueSchema(), avro.getElementType()));
      }
      case MAP -> {
        return map(connect, avro);
      }
      case STRUCT -> {
        return struct(connect, avro);
      }
      default -> throw new Unsupported();
    }
  }

  private Body string(org.apache.kafka.connect.data.Schema connect, Schema avro) throws Unsupported {
    Map<String, String> params = connect.parameters();
    String enumName = params == null ? null : settings.generalizedSumTypeSupport()
        ? params.get(GENERALIZED_TYPE_ENUM) : settings.enhancedAvroSchemaSupport() ? params.get(AVRO_TYPE_ENUM) : null;
    if (enumName == null) {
      require(avro.getType() == Schema.Type.STRING);
      return (value, out) -> out.writeString((String) value);
    }
    require(avro.getType() == Schema.Type.ENUM && avro.getFullName().equals(enumName));
    return (value, out) -> {
      String symbol = (String) value;
      if (!avro.hasEnumSymbol(symbol)) {
        throw new DataException("'" + symbol + "' is not a symbol of enum " + avro.getFullName() + " "
            + avro.getEnumSymbols());
      }
      out.writeEnum(avro.getEnumOrdinal(symbol));
    };
  }

  /** A fixed of one size: a decimal's unscaled bytes sign-extended to it, other bytes of exactly that size. */
  private record Fixed(String fullName, int size, boolean decimal) {
    void write(byte[] bytes, Encoder out) throws IOException {
      if (decimal && bytes.length < size) {
        byte[] padded = new byte[size];
        java.util.Arrays.fill(padded, 0, size - bytes.length, bytes.length > 0 && bytes[0] < 0 ? (byte) 0xff : 0);
        System.arraycopy(bytes, 0, padded, size - bytes.length, bytes.length);
        bytes = padded;
      }
      if (bytes.length != size) {
        throw new DataException("A value of " + bytes.length + " bytes does not fit fixed " + fullName + " of size "
            + size);
      }
      out.writeFixed(bytes, 0, size);
    }
  }

  private Fixed fixed(org.apache.kafka.connect.data.Schema connect, Schema avro, boolean decimal)
      throws Unsupported {
    int size;
    try {
      size = Integer.parseInt(connect.parameters().get(CONNECT_AVRO_FIXED_SIZE_PROP));
    } catch (RuntimeException e) {
      throw new Unsupported();
    }
    String name = connect.parameters().getOrDefault(ConnectProps.KAVRO_FIXED_NAME, connect.name());
    require(avro.getType() == Schema.Type.FIXED && avro.getFixedSize() == size
        && (!connect.isOptional() || avro.getFullName().equals(AvroNames.scrubFullName(name,
            settings.scrubInvalidNames()))));
    return new Fixed(avro.getFullName(), size, decimal);
  }

  private static byte[] toBytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  private static Body array(Slot element) {
    return (value, out) -> {
      Collection<?> items = (Collection<?>) value;
      out.writeArrayStart();
      out.setItemCount(items.size());
      for (Object item : items) {
        out.startItem();
        element.write(item, out);
      }
      out.writeArrayEnd();
    };
  }

  private Body map(org.apache.kafka.connect.data.Schema connect, Schema avro) throws Unsupported {
    org.apache.kafka.connect.data.Schema keySchema = connect.keySchema();
    boolean stringKeys = keySchema.type() == org.apache.kafka.connect.data.Schema.Type.STRING
        && (!keySchema.isOptional() || settings.allowOptionalMapKeys());
    if (stringKeys) {
      require(avro.getType() == Schema.Type.MAP);
      Slot values = slot(connect.valueSchema(), avro.getValueType());
      return (value, out) -> {
        Map<?, ?> map = (Map<?, ?>) value;
        out.writeMapStart();
        out.setItemCount(map.size());
        for (Map.Entry<?, ?> entry : map.entrySet()) {
          out.startItem();
          String key = (String) entry.getKey();
          if (key == null) {
            throw new DataException("A map of " + connect.type() + " has a null key: Avro's map keys are strings");
          }
          out.writeString(key);
          values.write(entry.getValue(), out);
        }
        out.writeMapEnd();
      };
    }
    // Non-string keys: an array of MapEntry records, each its key and value in the record's field order.
    require(avro.getType() == Schema.Type.ARRAY && avro.getElementType().getType() == Schema.Type.RECORD
        && avro.getElementType().getFields().size() == 2);
    MapEntryFields fields = MapEntryFields.of(avro.getElementType());
    Slot keys = slot(keySchema, fields.keySchema());
    Slot values = slot(connect.valueSchema(), fields.valueSchema());
    boolean keyFirst = fields.keyPos() == 0;
    return (value, out) -> {
      Map<?, ?> map = (Map<?, ?>) value;
      out.writeArrayStart();
      out.setItemCount(map.size());
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        out.startItem();
        if (keyFirst) {
          keys.write(entry.getKey(), out);
          values.write(entry.getValue(), out);
        } else {
          values.write(entry.getValue(), out);
          keys.write(entry.getKey(), out);
        }
      }
      out.writeArrayEnd();
    };
  }

  private Body struct(org.apache.kafka.connect.data.Schema connect, Schema avro) throws Unsupported {
    require(avro.getType() == Schema.Type.RECORD && avro.getFields().size() == connect.fields().size());
    List<Field> fields = connect.fields();
    int count = fields.size();
    // In the Avro record's field order: the Connect field each position holds, and how to read it.
    Field[] byPosition = new Field[count];
    Slot[] slots = new Slot[count];
    boolean[] withoutDefault = new boolean[count];
    for (Field field : fields) {
      Schema.Field avroField = avro.getField(AvroNames.scrub(field.name(), settings.scrubInvalidNames()));
      if (avroField == null || byPosition[avroField.pos()] != null) {
        throw new Unsupported(); // the mapper refuses each value, or two fields write one: left to it
      }
      int pos = avroField.pos();
      byPosition[pos] = field;
      slots[pos] = slot(field.schema(), avroField.schema());
      // Struct.get(Field) gives the field's default for a null: the same as getWithoutDefault but for a default.
      withoutDefault[pos] = settings.ignoreDefaultForNullables() && field.schema().defaultValue() != null;
    }
    String mismatch = "Mismatching struct schema" + (connect.name() == null ? "" : " (" + connect.name() + ")");
    return (value, out) -> {
      Struct struct = (Struct) value;
      org.apache.kafka.connect.data.Schema schema = struct.schema();
      if (schema != connect && !schema.equals(connect)) {
        throw new DataException(mismatch);
      }
      for (int i = 0; i < count; i++) {
        Field field = byPosition[i];
        slots[i].write(withoutDefault[i] ? struct.getWithoutDefault(field.name()) : struct.get(field), out);
      }
    };
  }
}
