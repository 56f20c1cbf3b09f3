package io.kavro.connect;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;

/**
 * Avro schemas and raw generic values to Connect. Enums, fixed, general unions and the field docs that
 * Connect has no place for travel in schema parameters (see {@link ConnectProps}), so that
 * {@link ConnectToAvro} gives the same Avro schema back.
 */
final class AvroToConnect {
  private static final long MILLIS_PER_DAY = 86_400_000L;
  private static final GenericData RAW = new GenericData();

  private final Set<String> inProgress = new HashSet<>();
  private final Map<String, org.apache.kafka.connect.data.Schema> done = new HashMap<>();

  private AvroToConnect() {}

  /** The Connect schema of an Avro schema. */
  static org.apache.kafka.connect.data.Schema schema(Schema avro) {
    return new AvroToConnect().convert(avro, false, null, null);
  }

  private org.apache.kafka.connect.data.Schema convert(Schema avro, boolean optional, Schema.Field field,
      Object defaultValue) {
    if (avro.getType() == Schema.Type.RECORD && field == null && !optional) {
      org.apache.kafka.connect.data.Schema known = done.get(avro.getFullName());
      if (known != null) {
        return known;
      }
    }
    SchemaBuilder builder = builder(avro, optional);
    if (field != null && field.doc() != null) {
      builder.parameter(ConnectProps.FIELD_DOC, field.doc());
    }
    if (defaultValue != null) {
      builder.defaultValue(defaultValue);
    }
    org.apache.kafka.connect.data.Schema schema = builder.build();
    if (avro.getType() == Schema.Type.RECORD && field == null && !optional) {
      done.put(avro.getFullName(), schema);
    }
    return schema;
  }

  private SchemaBuilder builder(Schema avro, boolean optional) {
    SchemaBuilder builder;
    if (avro.getType() == Schema.Type.UNION) {
      Schema single = optionalBranch(avro);
      if (single != null) {
        return builder(single, true);
      }
      builder = SchemaBuilder.struct().parameter(ConnectProps.AVRO_TYPE, "union");
      for (Schema branch : avro.getTypes()) {
        if (branch.getType() != Schema.Type.NULL) {
          builder.field(branchName(branch), builder(branch, true).build());
        }
      }
      if (avro.getTypes().stream().anyMatch(b -> b.getType() == Schema.Type.NULL)) {
        optional = true;
      }
    } else {
      builder = nonUnion(avro);
    }
    applyConnectProps(builder, avro);
    return optional ? builder.optional() : builder;
  }

  private SchemaBuilder nonUnion(Schema avro) {
    LogicalType logical = avro.getLogicalType();
    return switch (avro.getType()) {
      case RECORD -> record(avro);
      case ENUM -> {
        SchemaBuilder b = SchemaBuilder.string().name(avro.getFullName())
            .parameter(ConnectProps.AVRO_TYPE, "enum")
            .parameter(ConnectProps.ENUM_SYMBOLS, String.join(",", avro.getEnumSymbols()));
        yield avro.getDoc() == null ? b : b.doc(avro.getDoc());
      }
      case FIXED -> {
        SchemaBuilder b = logical instanceof LogicalTypes.Decimal decimal ? decimal(decimal)
            : SchemaBuilder.bytes().name(avro.getFullName());
        b.parameter(ConnectProps.AVRO_TYPE, "fixed")
            .parameter(ConnectProps.FIXED_SIZE, Integer.toString(avro.getFixedSize()))
            .parameter(ConnectProps.FIXED_NAME, avro.getFullName());
        yield avro.getDoc() == null ? b : b.doc(avro.getDoc());
      }
      case ARRAY -> {
        Schema items = avro.getElementType();
        if (items.getType() == Schema.Type.RECORD && items.getObjectProp(ConnectProps.MAP_ENTRY) != null) {
          yield SchemaBuilder.map(convert(items.getField("key").schema(), false, null, null),
              convert(items.getField("value").schema(), false, null, null));
        }
        yield SchemaBuilder.array(convert(items, false, null, null));
      }
      case MAP -> SchemaBuilder.map(org.apache.kafka.connect.data.Schema.STRING_SCHEMA,
          convert(avro.getValueType(), false, null, null));
      case STRING -> SchemaBuilder.string();
      case BYTES -> logical instanceof LogicalTypes.Decimal decimal ? decimal(decimal) : SchemaBuilder.bytes();
      case INT -> {
        if (logical instanceof LogicalTypes.Date) {
          yield Date.builder();
        }
        if (logical instanceof LogicalTypes.TimeMillis) {
          yield Time.builder();
        }
        String connectType = avro.getProp(ConnectProps.CONNECT_TYPE);
        yield "int8".equals(connectType) ? SchemaBuilder.int8()
            : "int16".equals(connectType) ? SchemaBuilder.int16() : SchemaBuilder.int32();
      }
      case LONG -> logical instanceof LogicalTypes.TimestampMillis ? Timestamp.builder() : SchemaBuilder.int64();
      case FLOAT -> SchemaBuilder.float32();
      case DOUBLE -> SchemaBuilder.float64();
      case BOOLEAN -> SchemaBuilder.bool();
      case NULL -> throw new DataException("Connect has no type for a lone Avro null");
      case UNION -> throw new IllegalStateException("unions are handled by the caller");
    };
  }

  private static SchemaBuilder decimal(LogicalTypes.Decimal decimal) {
    SchemaBuilder builder = Decimal.builder(decimal.getScale());
    // The default precision stays implicit, so that a Connect Decimal without one comes back the same.
    if (decimal.getPrecision() != Math.max(decimal.getScale(), ConnectProps.DEFAULT_DECIMAL_PRECISION)) {
      builder.parameter(ConnectProps.DECIMAL_PRECISION, Integer.toString(decimal.getPrecision()));
    }
    return builder;
  }

  private SchemaBuilder record(Schema avro) {
    String name = avro.getFullName();
    if (!inProgress.add(name)) {
      throw new DataException("the Avro record " + name + " contains itself; Connect cannot represent "
          + "recursive schemas");
    }
    try {
      SchemaBuilder builder = SchemaBuilder.struct().name(name);
      if (avro.getDoc() != null) {
        builder.doc(avro.getDoc());
      }
      for (Schema.Field field : avro.getFields()) {
        boolean optional = field.schema().getType() == Schema.Type.UNION && optionalBranch(field.schema()) != null;
        Object defaultValue = null;
        if (field.hasDefaultValue()) {
          Object raw = RAW.getDefaultValue(field);
          if (raw != null) {
            defaultValue = value(builder(field.schema(), false).build(), field.schema(), raw);
          }
        }
        builder.field(field.name(), convert(field.schema(), optional, field, defaultValue));
      }
      return builder;
    } finally {
      inProgress.remove(name);
    }
  }

  private static void applyConnectProps(SchemaBuilder builder, Schema avro) {
    String name = avro.getProp(ConnectProps.CONNECT_NAME);
    if (name != null && builder.name() == null) {
      builder.name(name);
    }
    Object version = avro.getObjectProp(ConnectProps.CONNECT_VERSION);
    if (version != null && builder.version() == null) {
      builder.version(Integer.parseInt(version.toString()));
    }
    LogicalType logical = avro.getLogicalType();
    String logicalName = logical != null ? logical.getName() : avro.getProp(LogicalType.LOGICAL_TYPE_PROP);
    boolean mapped = logical instanceof LogicalTypes.Decimal || logical instanceof LogicalTypes.Date
        || logical instanceof LogicalTypes.TimeMillis || logical instanceof LogicalTypes.TimestampMillis;
    if (logicalName != null && !mapped) {
      builder.parameter(ConnectProps.LOGICAL_TYPE, logicalName);
    }
    if (avro.getObjectProp(ConnectProps.CONNECT_PARAMETERS) instanceof Map<?, ?> params) {
      params.forEach((k, v) -> builder.parameter(k.toString(), String.valueOf(v)));
    }
  }

  /** The non-null branch of {@code ["null", T]} or {@code [T, "null"]}, else {@code null}. */
  static Schema optionalBranch(Schema union) {
    List<Schema> types = union.getTypes();
    if (types.size() != 2) {
      return null;
    }
    if (types.get(0).getType() == Schema.Type.NULL) {
      return types.get(1);
    }
    return types.get(1).getType() == Schema.Type.NULL ? types.get(0) : null;
  }

  static String branchName(Schema branch) {
    return switch (branch.getType()) {
      case RECORD, ENUM, FIXED -> branch.getFullName();
      default -> branch.getType().getName();
    };
  }

  /** An Avro raw generic value (no logical conversions) as a Connect value of {@code connect}. */
  static Object value(org.apache.kafka.connect.data.Schema connect, Schema avro, Object value) {
    if (value == null) {
      return null;
    }
    LogicalType logical = avro.getLogicalType();
    return switch (avro.getType()) {
      case UNION -> {
        Schema single = optionalBranch(avro);
        if (single != null) {
          yield value(connect, single, value);
        }
        Schema branch = avro.getTypes().get(RAW.resolveUnion(avro, value));
        if (branch.getType() == Schema.Type.NULL) {
          yield null;
        }
        Struct struct = new Struct(connect);
        String name = branchName(branch);
        struct.put(name, value(connect.field(name).schema(), branch, value));
        yield struct;
      }
      case RECORD -> {
        IndexedRecord record = (IndexedRecord) value;
        Struct struct = new Struct(connect);
        for (Schema.Field field : avro.getFields()) {
          org.apache.kafka.connect.data.Field target = connect.field(field.name());
          struct.put(target, value(target.schema(), field.schema(), record.get(field.pos())));
        }
        yield struct;
      }
      case ENUM, STRING -> value.toString();
      case FIXED -> {
        byte[] bytes = ((GenericFixed) value).bytes().clone();
        yield logical instanceof LogicalTypes.Decimal d ? new BigDecimal(new BigInteger(bytes), d.getScale()) : bytes;
      }
      case BYTES -> {
        byte[] bytes = bytes(value);
        yield logical instanceof LogicalTypes.Decimal d ? new BigDecimal(new BigInteger(bytes), d.getScale()) : bytes;
      }
      case INT -> {
        int i = (Integer) value;
        if (logical instanceof LogicalTypes.Date) {
          yield new java.util.Date(i * MILLIS_PER_DAY);
        }
        if (logical instanceof LogicalTypes.TimeMillis) {
          yield new java.util.Date(i);
        }
        yield switch (connect.type()) {
          case INT8 -> (byte) i;
          case INT16 -> (short) i;
          default -> i;
        };
      }
      case LONG -> logical instanceof LogicalTypes.TimestampMillis ? new java.util.Date((Long) value) : value;
      case FLOAT, DOUBLE, BOOLEAN -> value;
      case ARRAY -> {
        List<?> items = (List<?>) value;
        Schema element = avro.getElementType();
        if (connect.type() == org.apache.kafka.connect.data.Schema.Type.MAP) {
          Map<Object, Object> map = new LinkedHashMap<>();
          for (Object item : items) {
            IndexedRecord entry = (IndexedRecord) item;
            map.put(value(connect.keySchema(), element.getField("key").schema(), entry.get(0)),
                value(connect.valueSchema(), element.getField("value").schema(), entry.get(1)));
          }
          yield map;
        }
        List<Object> list = new ArrayList<>(items.size());
        for (Object item : items) {
          list.add(value(connect.valueSchema(), element, item));
        }
        yield list;
      }
      case MAP -> {
        Map<String, Object> map = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> map.put(k.toString(), value(connect.valueSchema(), avro.getValueType(), v)));
        yield map;
      }
      case NULL -> null;
    };
  }

  private static byte[] bytes(Object value) {
    if (value instanceof byte[] bytes) {
      return bytes.clone();
    }
    ByteBuffer buffer = (ByteBuffer) value;
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
