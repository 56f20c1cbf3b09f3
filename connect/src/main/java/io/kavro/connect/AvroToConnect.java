package io.kavro.connect;

import static io.kavro.connect.ConnectProps.AVRO_ENUM_DEFAULT_PREFIX_PROP;
import static io.kavro.connect.ConnectProps.AVRO_ENUM_DOC_PREFIX_PROP;
import static io.kavro.connect.ConnectProps.AVRO_FIELD_DEFAULT_FLAG_PROP;
import static io.kavro.connect.ConnectProps.AVRO_FIELD_DOC_PREFIX_PROP;
import static io.kavro.connect.ConnectProps.AVRO_PROP;
import static io.kavro.connect.ConnectProps.AVRO_RECORD_DOC_PROP;
import static io.kavro.connect.ConnectProps.AVRO_TYPE_ENUM;
import static io.kavro.connect.ConnectProps.AVRO_TYPE_UNION;
import static io.kavro.connect.ConnectProps.CONNECT_AVRO_DECIMAL_PRECISION_DEFAULT;
import static io.kavro.connect.ConnectProps.CONNECT_AVRO_DECIMAL_PRECISION_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_AVRO_FIXED_SIZE_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_DEFAULT_VALUE_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_DOC_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_ENUM_DOC_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_INTERNAL_TYPE_NAME;
import static io.kavro.connect.ConnectProps.CONNECT_NAME_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_PARAMETERS_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_RECORD_DOC_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_TYPE_PROP;
import static io.kavro.connect.ConnectProps.CONNECT_VERSION_PROP;
import static io.kavro.connect.ConnectProps.DEFAULT_SCHEMA_FULL_NAME;
import static io.kavro.connect.ConnectProps.GENERALIZED_TYPE_ENUM;
import static io.kavro.connect.ConnectProps.GENERALIZED_TYPE_UNION;
import static io.kavro.connect.ConnectProps.GENERALIZED_TYPE_UNION_FIELD_PREFIX;
import static io.kavro.connect.ConnectProps.GENERALIZED_TYPE_UNION_PREFIX;
import static io.kavro.connect.ConnectProps.KAVRO_LOGICAL_TYPE;
import static io.kavro.connect.ConnectProps.KEY_FIELD;
import static io.kavro.connect.ConnectProps.MAP_ENTRY_TYPE_NAME;
import static io.kavro.connect.ConnectProps.NAMESPACE;
import static io.kavro.connect.ConnectProps.VALUE_FIELD;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.util.internal.JacksonUtils;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Avro schemas and raw generic values to Connect, as Confluent's {@code AvroData.toConnectSchema} and
 * {@code toConnectData} make them: a topic written by Confluent's converter is read as the same Connect
 * schemas. Thread-safe.
 */
final class AvroToConnect {
  private static final Logger log = LoggerFactory.getLogger(AvroToConnect.class);
  private static final GenericData RAW = new GenericData();

  private final ConverterConfig settings;
  /** Numbers the unions of generalized.sum.type.support, as Confluent's converter does, per converter. */
  private final AtomicInteger unionIndex = new AtomicInteger();

  AvroToConnect(ConverterConfig settings) {
    this.settings = settings;
  }

  /**
   * The Connect schema of an Avro schema; Confluent's {@code Anything} is schemaless ({@code null}).
   *
   * @param version the schema's version, unless it has a {@code connect.version}; Confluent's converter gives
   *     the registry's version of the writer schema under its subject; or {@code null}
   */
  org.apache.kafka.connect.data.Schema schema(Schema avro, Integer version) {
    if (avro.equals(Schemaless.ANYTHING)) {
      return null;
    }
    return schema(avro, false, null, null, version, new HashSet<>());
  }

  private org.apache.kafka.connect.data.Schema schema(Schema avro, boolean forceOptional, Object fieldDefault,
      String fieldDoc, Set<String> inProgress) {
    return schema(avro, forceOptional, fieldDefault, fieldDoc, null, inProgress);
  }

  private org.apache.kafka.connect.data.Schema schema(Schema avro, boolean forceOptional, Object fieldDefault,
      String fieldDoc, Integer version, Set<String> inProgress) {
    String connectType = avro.getProp(CONNECT_TYPE_PROP);
    String logicalType = avro.getProp("logicalType");
    SchemaBuilder builder;
    switch (avro.getType()) {
      case BOOLEAN -> builder = SchemaBuilder.bool();
      case BYTES, FIXED -> builder = bytes(avro, logicalType);
      case DOUBLE -> builder = SchemaBuilder.float64();
      case FLOAT -> builder = SchemaBuilder.float32();
      case INT -> builder = integer(avro, connectType, logicalType);
      case LONG -> builder = "timestamp-millis".equalsIgnoreCase(logicalType) ? Timestamp.builder() : SchemaBuilder.int64();
      case STRING -> builder = SchemaBuilder.string();
      case ARRAY -> builder = array(avro, inProgress);
      case MAP -> builder = SchemaBuilder.map(org.apache.kafka.connect.data.Schema.STRING_SCHEMA,
          schema(avro.getValueType(), false, null, null, inProgress));
      case RECORD -> builder = record(avro, inProgress);
      case ENUM -> builder = enumeration(avro);
      case UNION -> {
        List<Schema> types = avro.getTypes();
        if (types.size() == 1 && settings.flattenSingletonUnions()) {
          return schema(types.get(0), false, null, fieldDoc, inProgress);
        }
        if (types.size() == 2 && types.contains(Schema.create(Schema.Type.NULL))) {
          Schema other = types.get(0).getType() == Schema.Type.NULL ? types.get(1) : types.get(0);
          return schema(other, true, null, fieldDoc, inProgress);
        }
        builder = union(avro, inProgress);
      }
      case NULL -> throw new DataException("Standalone null schemas are not supported by this converter");
      default -> throw new DataException("Couldn't translate unsupported schema type " + avro.getType().getName());
    }
    if (settings.enhancedAvroSchemaSupport() && logicalType != null && builder.name() == null
        && avro.getLogicalType() != null) {
      builder.parameter(KAVRO_LOGICAL_TYPE, logicalType); // Kavro: uuid, timestamp-micros... come back
    }
    docAndVersion(avro, builder, fieldDoc, version);
    parameters(avro, builder);
    defaultValue(avro, builder, fieldDefault, inProgress);
    name(avro, builder);
    if (forceOptional) {
      builder.optional();
    }
    return builder.build();
  }

  private SchemaBuilder bytes(Schema avro, String logicalType) {
    SchemaBuilder builder;
    if ("decimal".equalsIgnoreCase(logicalType)) {
      Object scale = avro.getObjectProp("scale");
      builder = Decimal.builder(scale instanceof Number n ? n.intValue() : 0);
      Object precision = avro.getObjectProp("precision");
      if (precision != null) {
        if (!(precision instanceof Number)) {
          throw new DataException("precision property must be a JSON Integer");
        }
        int value = ((Number) precision).intValue();
        if (value != CONNECT_AVRO_DECIMAL_PRECISION_DEFAULT) {
          builder.parameter(CONNECT_AVRO_DECIMAL_PRECISION_PROP, String.valueOf(value));
        }
      }
    } else {
      builder = SchemaBuilder.bytes();
    }
    if (avro.getType() == Schema.Type.FIXED) {
      builder.parameter(CONNECT_AVRO_FIXED_SIZE_PROP, String.valueOf(avro.getFixedSize()));
      if (settings.enhancedAvroSchemaSupport() && builder.name() != null) {
        builder.parameter(ConnectProps.KAVRO_FIXED_NAME, avro.getFullName()); // Kavro: the decimal's fixed name
      }
    }
    return builder;
  }

  private static SchemaBuilder integer(Schema avro, String connectType, String logicalType) {
    if (logicalType != null) {
      return "date".equalsIgnoreCase(logicalType) ? Date.builder()
          : "time-millis".equalsIgnoreCase(logicalType) ? Time.builder() : SchemaBuilder.int32();
    }
    if (connectType == null) {
      return SchemaBuilder.int32();
    }
    return switch (connectType) {
      case ConnectProps.CONNECT_TYPE_INT8 -> SchemaBuilder.int8();
      case ConnectProps.CONNECT_TYPE_INT16 -> SchemaBuilder.int16();
      default -> throw new DataException("Unknown connect.type " + connectType + " on Avro int " + avro);
    };
  }

  private SchemaBuilder array(Schema avro, Set<String> inProgress) {
    Schema element = avro.getElementType();
    if (isMapEntry(element)) {
      if (element.getFields().size() != 2 || element.getField(KEY_FIELD) == null
          || element.getField(VALUE_FIELD) == null) {
        throw new DataException("Found map encoded as array of key-value pairs, but array elements do not match "
            + "the expected format.");
      }
      return SchemaBuilder.map(schema(element.getField(KEY_FIELD).schema(), false, null, null, inProgress),
          schema(element.getField(VALUE_FIELD).schema(), false, null, null, inProgress));
    }
    return SchemaBuilder.array(schema(element, false, null, null, inProgress));
  }

  private SchemaBuilder record(Schema avro, Set<String> inProgress) {
    if (!inProgress.add(avro.getFullName())) {
      throw new DataException("Recursive Avro schema " + avro.getFullName() + " cannot be a Connect schema");
    }
    SchemaBuilder builder = SchemaBuilder.struct();
    boolean docs = !settings.discardTypeDocDefault() && settings.connectMetaData();
    if (docs && avro.getDoc() != null) {
      builder.parameter(AVRO_RECORD_DOC_PROP, avro.getDoc());
    }
    for (Schema.Field field : avro.getFields()) {
      if (docs && field.doc() != null) {
        builder.parameter(AVRO_FIELD_DOC_PREFIX_PROP + field.name(), field.doc());
      }
      Object defaultValue = null;
      try {
        defaultValue = field.defaultVal();
      } catch (RuntimeException e) {
        log.warn("Ignoring invalid default for field {}: {}", field.name(), e.getMessage());
      }
      org.apache.kafka.connect.data.Schema fieldSchema = schema(field.schema(), false, defaultValue, field.doc(),
          inProgress);
      if (settings.connectMetaData() && field.getObjectProp(CONNECT_PARAMETERS_PROP) instanceof Map<?, ?> params) {
        fieldSchema = withParameters(fieldSchema, params);
      }
      builder.field(field.name(), fieldSchema);
    }
    inProgress.remove(avro.getFullName());
    return builder;
  }

  private SchemaBuilder enumeration(Schema avro) {
    SchemaBuilder builder = SchemaBuilder.string();
    if (settings.connectMetaData()) {
      if (avro.getDoc() != null) {
        builder.parameter(settings.discardTypeDocDefault() ? CONNECT_ENUM_DOC_PROP
            : AVRO_ENUM_DOC_PREFIX_PROP + avro.getName(), avro.getDoc());
      }
      if (!settings.discardTypeDocDefault() && avro.getEnumDefault() != null) {
        builder.parameter(AVRO_ENUM_DEFAULT_PREFIX_PROP + avro.getName(), avro.getEnumDefault());
      }
    }
    String param = settings.generalizedSumTypeSupport() ? GENERALIZED_TYPE_ENUM : AVRO_TYPE_ENUM;
    builder.parameter(param, avro.getFullName());
    List<String> symbols = avro.getEnumSymbols();
    for (int i = 0; i < symbols.size(); i++) {
      builder.parameter(param + "." + symbols.get(i),
          settings.generalizedSumTypeSupport() ? String.valueOf(i) : symbols.get(i));
    }
    return builder;
  }

  private SchemaBuilder union(Schema avro, Set<String> inProgress) {
    String name = settings.generalizedSumTypeSupport()
        ? GENERALIZED_TYPE_UNION_PREFIX + unionIndex.getAndIncrement() : AVRO_TYPE_UNION;
    SchemaBuilder builder = SchemaBuilder.struct().name(name);
    if (settings.generalizedSumTypeSupport()) {
      builder.parameter(GENERALIZED_TYPE_UNION, name);
    }
    Set<String> fieldNames = new HashSet<>();
    List<Schema> types = avro.getTypes();
    for (int i = 0; i < types.size(); i++) {
      Schema branch = types.get(i);
      if (branch.getType() == Schema.Type.NULL) {
        builder.optional();
        continue;
      }
      String fieldName = unionFieldName(branch, i);
      if (!fieldNames.add(fieldName)) {
        throw new DataException("Multiple union schemas map to the Connect union field name " + fieldName);
      }
      builder.field(fieldName, schema(branch, true, null, null, inProgress));
    }
    return builder;
  }

  private void docAndVersion(Schema avro, SchemaBuilder builder, String fieldDoc, Integer version) {
    if (settings.discardTypeDocDefault()) {
      String doc = fieldDoc != null ? fieldDoc : avro.getDoc() != null ? avro.getDoc() : avro.getProp(CONNECT_DOC_PROP);
      if (doc != null) {
        builder.doc(doc);
      }
      if (settings.connectMetaData() && avro.getDoc() != null) {
        builder.parameter(CONNECT_RECORD_DOC_PROP, avro.getDoc());
      }
    } else if (settings.connectMetaData() && avro.getProp(CONNECT_DOC_PROP) != null) {
      builder.doc(avro.getProp(CONNECT_DOC_PROP));
    }
    Object connectVersion = avro.getObjectProp(CONNECT_VERSION_PROP);
    if (connectVersion != null) {
      if (!(connectVersion instanceof Number number)) {
        throw new DataException("Invalid Connect version found: " + connectVersion);
      }
      builder.version(number.intValue());
    } else if (version != null && version >= 0) {
      builder.version(version);
    }
  }

  private void parameters(Schema avro, SchemaBuilder builder) {
    Object parameters = avro.getObjectProp(CONNECT_PARAMETERS_PROP);
    if (settings.connectMetaData() && parameters != null) {
      if (!(parameters instanceof Map<?, ?> map)) {
        throw new DataException("Expected JSON object for schema parameters but found: " + parameters);
      }
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getValue() instanceof String text)) {
          throw new DataException("Expected schema parameter values to be strings but found: " + entry.getValue());
        }
        builder.parameter(entry.getKey().toString(), text);
      }
    }
    avro.getObjectProps().forEach((key, value) -> {
      if (key.startsWith(AVRO_PROP)) {
        builder.parameter(key, value.toString());
      }
    });
  }

  private void defaultValue(Schema avro, SchemaBuilder builder, Object fieldDefault, Set<String> inProgress) {
    Object connectDefault = avro.getObjectProp(CONNECT_DEFAULT_VALUE_PROP);
    Object value = fieldDefault;
    if (value == null) {
      value = connectDefault == null ? null : JacksonUtils.toJsonNode(connectDefault);
    } else if (!settings.discardTypeDocDefault() && settings.connectMetaData() && connectDefault == null) {
      builder.parameter(AVRO_FIELD_DEFAULT_FLAG_PROP, "true");
    }
    if (value == null || value == JsonProperties.NULL_VALUE) {
      return;
    }
    try {
      builder.defaultValue(toConnectLogical(builder, defaultValue(builder, avro, value, inProgress)));
    } catch (RuntimeException e) {
      log.warn("Ignoring invalid default for schema {}: {}", avro.getName(), e.getMessage());
    }
  }

  private static void name(Schema avro, SchemaBuilder builder) {
    Object connectName = avro.getObjectProp(CONNECT_NAME_PROP);
    String name = null;
    if (connectName != null) {
      if (!(connectName instanceof String text)) {
        throw new DataException("Invalid schema name: " + connectName);
      }
      name = text;
    } else if (avro.getType() == Schema.Type.RECORD || avro.getType() == Schema.Type.ENUM) {
      name = avro.getFullName();
    } else if (avro.getType() == Schema.Type.FIXED && !Decimal.LOGICAL_NAME.equals(builder.name())) {
      name = avro.getFullName();
    }
    if (name == null || name.startsWith(DEFAULT_SCHEMA_FULL_NAME)) {
      return;
    }
    if (builder.name() == null) {
      builder.name(name);
    } else if (!name.equals(builder.name())) {
      throw new DataException("Mismatched names: name already added to SchemaBuilder (" + builder.name()
          + ") differs from name in source schema (" + name + ")");
    }
  }

  /** A field's {@code connect.parameters}, for a named type written once and referred to by name after. */
  private static org.apache.kafka.connect.data.Schema withParameters(org.apache.kafka.connect.data.Schema original,
      Map<?, ?> fieldParams) {
    Map<String, String> originalParams = original.parameters() == null ? Map.of() : original.parameters();
    boolean same = fieldParams.entrySet().stream()
        .allMatch(e -> e.getValue().toString().equals(originalParams.get(e.getKey().toString())));
    if (same) {
      return original;
    }
    SchemaBuilder builder = new SchemaBuilder(original.type());
    if (original.name() != null) {
      builder.name(original.name());
    }
    if (original.version() != null) {
      builder.version(original.version());
    }
    if (original.doc() != null) {
      builder.doc(original.doc());
    }
    if (original.isOptional()) {
      builder.optional();
    }
    if (original.defaultValue() != null) {
      builder.defaultValue(original.defaultValue());
    }
    originalParams.forEach(builder::parameter);
    fieldParams.forEach((k, v) -> builder.parameter(k.toString(), v.toString()));
    if (original.type() == org.apache.kafka.connect.data.Schema.Type.STRUCT) {
      original.fields().forEach(f -> builder.field(f.name(), f.schema()));
    }
    return builder.build();
  }

  /** A default, from an Avro field (a Java value) or a {@code connect.default} property (JSON). */
  private Object defaultValue(org.apache.kafka.connect.data.Schema connect, Schema avro, Object value,
      Set<String> inProgress) {
    if (value == null || value == JsonProperties.NULL_VALUE) {
      return null;
    }
    if (!(value instanceof JsonNode json)) {
      return mapper(connect, avro, false).map(value);
    }
    switch (avro.getType()) {
      case INT:
        return switch (connect.type()) {
          case INT8 -> (byte) json.intValue();
          case INT16 -> json.shortValue();
          default -> json.intValue();
        };
      case LONG:
        return json.longValue();
      case FLOAT:
        return (float) json.doubleValue();
      case DOUBLE:
        return json.doubleValue();
      case BOOLEAN:
        return json.asBoolean();
      case STRING, ENUM:
        return json.asText();
      case BYTES, FIXED:
        try {
          byte[] bytes = json.isTextual() ? json.textValue().getBytes(StandardCharsets.ISO_8859_1) : json.binaryValue();
          return bytes == null ? null : ByteBuffer.wrap(bytes);
        } catch (IOException e) {
          throw new DataException("Invalid binary data in default value", e);
        }
      case ARRAY: {
        if (!json.isArray()) {
          throw new DataException("Invalid JSON for array default value");
        }
        List<Object> list = new ArrayList<>();
        for (JsonNode item : json) {
          list.add(toConnectLogical(connect.valueSchema(), defaultValue(connect.valueSchema(), avro.getElementType(), item,
              inProgress)));
        }
        return list;
      }
      case MAP: {
        if (!json.isObject()) {
          throw new DataException("Invalid JSON for map default value");
        }
        Map<String, Object> map = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> entry = it.next();
          map.put(entry.getKey(), toConnectLogical(connect.valueSchema(),
              defaultValue(connect.valueSchema(), avro.getValueType(), entry.getValue(), inProgress)));
        }
        return map;
      }
      case RECORD: {
        if (!json.isObject()) {
          throw new DataException("Invalid JSON for record default value");
        }
        Struct struct = new Struct(connect);
        for (Schema.Field field : avro.getFields()) {
          org.apache.kafka.connect.data.Field target = connect.field(field.name());
          struct.put(field.name(), toConnectLogical(target.schema(),
              defaultValue(target.schema(), field.schema(), json.get(field.name()), inProgress)));
        }
        return struct;
      }
      case UNION: {
        Schema first = avro.getTypes().get(0);
        if (first.getType() == Schema.Type.NULL) {
          return null;
        }
        org.apache.kafka.connect.data.Schema branch = connect.field(unionFieldName(first, 0)).schema();
        return toConnectLogical(branch, defaultValue(branch, first, value, inProgress));
      }
      default:
        return null;
    }
  }

  // ---- values ------------------------------------------------------------------------------------------

  /**
   * The mapper of Avro raw generic values of {@code avro} to Connect values of {@code connect} (the schema
   * {@link #schema} gave for it); {@code connect} null means schemaless, an {@code Anything} record. Field
   * positions, union branches and logical types are resolved here, once; a schema pair that cannot hold any value
   * gives a mapper that says so for each.
   */
  ValueMapper mapper(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    return mapper(connect, avro, true);
  }

  /** @param logical whether the top value becomes its Connect logical type (a default stays its underlying value) */
  private ValueMapper mapper(org.apache.kafka.connect.data.Schema connect, Schema avro, boolean logical) {
    if (connect == null) {
      return Schemaless::toConnect;
    }
    ValueMapper body;
    if (avro.getType() == Schema.Type.UNION && !ConnectToAvro.isUnion(connect)) {
      body = nullable(connect, avro); // [null, X], or any union Connect sees as its one type
    } else {
      body = guarded(connect, avro);
    }
    ValueMapper toLogical = logical ? toConnectLogical(connect) : null;
    boolean optional = connect.isOptional();
    ValueMapper mapped = body;
    return value -> {
      if (value == null || value == JsonProperties.NULL_VALUE) {
        if (!optional) {
          throw new DataException("Found null value for non-optional schema");
        }
        return null;
      }
      Object converted = mapped.map(value);
      return toLogical == null ? converted : toLogical.map(converted);
    };
  }

  /** A union that Connect sees as one type: the value's branch, found as Avro's generic model finds it. */
  private ValueMapper nullable(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    List<Schema> branches = avro.getTypes();
    ValueMapper[] mappers = new ValueMapper[branches.size()];
    for (int i = 0; i < mappers.length; i++) {
      mappers[i] = guarded(connect, branches.get(i));
    }
    return value -> mappers[RAW.resolveUnion(avro, value)].map(value);
  }

  /** The body, with a value of the wrong Java type a DataException that names it. */
  private ValueMapper guarded(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    ValueMapper body;
    try {
      body = body(connect, avro);
    } catch (RuntimeException e) {
      String message = "Cannot read Avro " + avro.getType() + " as Connect " + connect.type() + ": " + e.getMessage();
      body = value -> {
        throw new DataException(message);
      };
    }
    String invalid = "Invalid type for " + connect.type() + ": ";
    ValueMapper checked = body;
    return value -> {
      try {
        return checked.map(value);
      } catch (ClassCastException e) {
        throw new DataException(invalid + value.getClass().getName());
      }
    };
  }

  private ValueMapper body(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    return switch (connect.type()) {
      case INT32 -> value -> (Integer) value;
      case INT64 -> value -> (Long) value;
      case FLOAT32 -> value -> (Float) value;
      case FLOAT64 -> value -> (Double) value;
      case BOOLEAN -> value -> (Boolean) value;
      case INT8 -> value -> ((Integer) value).byteValue();
      case INT16 -> value -> ((Integer) value).shortValue();
      case STRING -> value -> {
        if (!(value instanceof CharSequence || value instanceof GenericData.EnumSymbol || value instanceof Enum)) {
          throw new DataException("Invalid class for string type, expecting String or CharSequence but found "
              + value.getClass().getName());
        }
        return value.toString();
      };
      case BYTES -> AvroToConnect::bytes;
      case ARRAY -> {
        ValueMapper element = mapper(connect.valueSchema(), avro.getElementType());
        yield value -> {
          java.util.Collection<?> items = (java.util.Collection<?>) value;
          List<Object> list = new ArrayList<>(items.size());
          for (Object item : items) {
            list.add(element.map(item));
          }
          return list;
        };
      }
      case MAP -> map(connect, avro);
      case STRUCT -> ConnectToAvro.isUnion(connect) ? union(connect, avro) : struct(connect, avro);
    };
  }

  private ValueMapper map(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    if (avro.getType() == Schema.Type.MAP) {
      ValueMapper values = mapper(connect.valueSchema(), avro.getValueType());
      return value -> {
        Map<Object, Object> map = new HashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> map.put(k.toString(), values.map(v)));
        return map;
      };
    }
    Schema entry = avro.getElementType();
    MapEntryFields fields = MapEntryFields.of(entry);
    ValueMapper keys = mapper(connect.keySchema(), fields.keySchema());
    ValueMapper values = mapper(connect.valueSchema(), fields.valueSchema());
    int keyPos = fields.keyPos();
    int valuePos = fields.valuePos();
    return value -> {
      Map<Object, Object> map = new HashMap<>();
      for (Object item : (java.util.Collection<?>) value) {
        IndexedRecord pair = (IndexedRecord) item;
        map.put(keys.map(pair.get(keyPos)), values.map(pair.get(valuePos)));
      }
      return map;
    };
  }

  /** A Connect union struct: the field of the value's branch set. */
  private ValueMapper union(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    List<Schema> branches = avro.getTypes();
    org.apache.kafka.connect.data.Field[] fields = new org.apache.kafka.connect.data.Field[branches.size()];
    ValueMapper[] mappers = new ValueMapper[branches.size()];
    for (int i = 0; i < mappers.length; i++) {
      fields[i] = connect.field(unionFieldName(branches.get(i), i));
      mappers[i] = fields[i] == null ? null : mapper(fields[i].schema(), branches.get(i));
    }
    return value -> {
      int index = RAW.resolveUnion(avro, value);
      if (fields[index] == null) {
        throw new DataException("Did not find matching union field for data of " + branches.get(index).getFullName());
      }
      return new Struct(connect).put(fields[index], mappers[index].map(value));
    };
  }

  private ValueMapper struct(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    List<org.apache.kafka.connect.data.Field> fields = connect.fields();
    Schema.Field[] avroFields = new Schema.Field[fields.size()];
    ValueMapper[] mappers = new ValueMapper[fields.size()];
    for (int i = 0; i < mappers.length; i++) {
      avroFields[i] = avro.getField(AvroNames.scrub(fields.get(i).name(), settings.scrubInvalidNames()));
      mappers[i] = mapper(fields.get(i).schema(), avroFields[i].schema());
    }
    return value -> {
      Struct struct = new Struct(connect);
      if (value instanceof Map<?, ?> defaults) { // a record default, in Avro's Java form
        for (int i = 0; i < mappers.length; i++) {
          String name = avroFields[i].name();
          Object fieldValue = defaults.containsKey(name) ? defaults.get(name) : fields.get(i).schema().defaultValue();
          struct.put(fields.get(i), mappers[i].map(fieldValue));
        }
        return struct;
      }
      IndexedRecord record = (IndexedRecord) value;
      for (int i = 0; i < mappers.length; i++) {
        struct.put(fields.get(i), mappers[i].map(record.get(avroFields[i].pos())));
      }
      return struct;
    };
  }

  // ---- shared ------------------------------------------------------------------------------------------

  private String unionFieldName(Schema branch, int index) {
    if (settings.generalizedSumTypeSupport()) {
      return GENERALIZED_TYPE_UNION_FIELD_PREFIX + index;
    }
    return switch (branch.getType()) {
      case RECORD, ENUM, FIXED -> settings.enhancedAvroSchemaSupport() ? branch.getFullName()
          : AvroNames.split(branch.getName(), settings.scrubInvalidNames())[1];
      default -> branch.getType().getName();
    };
  }

  private static boolean isMapEntry(Schema element) {
    return element.getType() == Schema.Type.RECORD
        && (NAMESPACE.equals(element.getNamespace()) && MAP_ENTRY_TYPE_NAME.equals(element.getName())
            || MAP_ENTRY_TYPE_NAME.equals(element.getProp(CONNECT_INTERNAL_TYPE_NAME)));
  }

  private static ByteBuffer bytes(Object value) {
    if (value instanceof byte[] bytes) {
      return ByteBuffer.wrap(bytes);
    }
    if (value instanceof ByteBuffer buffer) {
      return buffer;
    }
    if (value instanceof GenericFixed fixed) {
      return ByteBuffer.wrap(fixed.bytes());
    }
    throw new DataException("Invalid class for bytes type, expecting byte[] or ByteBuffer but found "
        + value.getClass().getName());
  }

  /** An underlying value (bytes, int, long) as the Connect logical value of {@code connect}, if it is one. */
  private static Object toConnectLogical(org.apache.kafka.connect.data.Schema connect, Object value) {
    ValueMapper logical = value == null ? null : toConnectLogical(connect);
    return logical == null ? value : logical.map(value);
  }

  /**
   * The mapper of an underlying value (bytes, int, long) to the Connect logical value of {@code connect}, or
   * {@code null} when it is none. A decimal's scale is parsed once, not per value.
   */
  private static ValueMapper toConnectLogical(org.apache.kafka.connect.data.Schema connect) {
    String name = connect.name();
    if (name == null) {
      return null;
    }
    ValueMapper convert = switch (name) {
      case Decimal.LOGICAL_NAME -> decimal(connect);
      case Date.LOGICAL_NAME -> value -> Date.toLogical(connect, (Integer) value);
      case Time.LOGICAL_NAME -> value -> Time.toLogical(connect, (Integer) value);
      case Timestamp.LOGICAL_NAME -> value -> Timestamp.toLogical(connect, (Long) value);
      default -> null;
    };
    return convert == null ? null : ValueMapper.logical(name, convert);
  }

  private static ValueMapper decimal(org.apache.kafka.connect.data.Schema connect) {
    Integer scale;
    try {
      scale = Integer.parseInt(connect.parameters().get(Decimal.SCALE_FIELD));
    } catch (RuntimeException e) {
      scale = null; // Kafka's own conversion, for its error
    }
    Integer parsed = scale;
    return value -> {
      ByteBuffer buffer = ((ByteBuffer) value).duplicate();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      return parsed == null ? Decimal.toLogical(connect, bytes)
          : new java.math.BigDecimal(new java.math.BigInteger(bytes), parsed);
    };
  }
}
