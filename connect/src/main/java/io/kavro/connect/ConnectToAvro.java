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
import static io.kavro.connect.ConnectProps.DEFAULT_SCHEMA_NAME;
import static io.kavro.connect.ConnectProps.GENERALIZED_TYPE_ENUM;
import static io.kavro.connect.ConnectProps.GENERALIZED_TYPE_UNION;
import static io.kavro.connect.ConnectProps.KAVRO_LOGICAL_TYPE;
import static io.kavro.connect.ConnectProps.KEY_FIELD;
import static io.kavro.connect.ConnectProps.MAP_ENTRY_TYPE_NAME;
import static io.kavro.connect.ConnectProps.NAMESPACE;
import static io.kavro.connect.ConnectProps.VALUE_FIELD;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.AvroTypeException;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.internal.JacksonUtils;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connect schemas and values to Avro, as Confluent's {@code AvroData.fromConnectSchema} and
 * {@code fromConnectData} make them, so that both converters register the same schema text for the same
 * Connect schema. Values come out as Avro's raw generic representation (decimals as bytes, dates as ints).
 * Immutable and thread-safe; a schema conversion keeps its state in a {@link Context} of its own.
 */
final class ConnectToAvro {
  private static final Logger log = LoggerFactory.getLogger(ConnectToAvro.class);
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private final ConverterConfig settings;

  ConnectToAvro(ConverterConfig settings) {
    this.settings = settings;
  }

  /** The state of one schema conversion: types already converted, and the names given so far. */
  private static final class Context {
    final Map<org.apache.kafka.connect.data.Schema, Schema> converted = new HashMap<>();
    final Map<String, Schema> recordsByName = new HashMap<>();
    final Set<String> seenNamedTypes = new HashSet<>();
    int defaultNames;
  }

  /** The Avro schema of a Connect schema; {@code null} (schemaless data) is Confluent's {@code Anything}. */
  Schema schema(org.apache.kafka.connect.data.Schema connect) {
    return connect == null ? Schemaless.ANYTHING : schema(connect, new Context(), false);
  }

  private Schema schemaOrReference(org.apache.kafka.connect.data.Schema connect, Context ctx,
      boolean ignoreOptional) {
    Schema known = connect.name() == null ? null : ctx.recordsByName.get(connect.name());
    if (known != null) {
      return ignoreOptional ? known : optional(connect, known);
    }
    return schema(connect, ctx, ignoreOptional);
  }

  private Schema schema(org.apache.kafka.connect.data.Schema connect, Context ctx, boolean ignoreOptional) {
    if (!isUnion(connect) && !connect.isOptional()) {
      Schema known = ctx.converted.get(connect);
      if (known != null) {
        return known;
      }
    }
    Map<String, String> params = connect.parameters() == null ? Map.of() : connect.parameters();
    String connectType = null;
    Schema base;
    switch (connect.type()) {
      case INT8 -> {
        connectType = ConnectProps.CONNECT_TYPE_INT8;
        base = Schema.create(Schema.Type.INT);
      }
      case INT16 -> {
        connectType = ConnectProps.CONNECT_TYPE_INT16;
        base = Schema.create(Schema.Type.INT);
      }
      case INT32 -> base = Schema.create(Schema.Type.INT);
      case INT64 -> base = Schema.create(Schema.Type.LONG);
      case FLOAT32 -> base = Schema.create(Schema.Type.FLOAT);
      case FLOAT64 -> base = Schema.create(Schema.Type.DOUBLE);
      case BOOLEAN -> base = Schema.create(Schema.Type.BOOLEAN);
      case STRING -> base = enumOrString(connect, params, ctx);
      case BYTES -> base = bytes(connect, params, ctx);
      case ARRAY -> base = Schema.createArray(schemaOrReference(connect.valueSchema(), ctx, false));
      case MAP -> base = map(connect, ctx);
      case STRUCT -> base = struct(connect, params, ctx);
      default -> throw new DataException("Unknown Connect schema type: " + connect.type());
    }
    Schema result = base;
    if (base.getType() != Schema.Type.UNION) {
      addConnectProps(connect, params, connectType, base);
      addLogicalType(connect, params, base);
      if (!ignoreOptional) {
        result = optional(connect, base);
      }
    }
    if (!connect.isOptional()) {
      ctx.converted.put(connect, result);
    }
    return result;
  }

  private Schema enumOrString(org.apache.kafka.connect.data.Schema connect, Map<String, String> params,
      Context ctx) {
    boolean enumParams = params.containsKey(GENERALIZED_TYPE_ENUM) || params.containsKey(AVRO_TYPE_ENUM);
    if (!(settings.generalizedSumTypeSupport() || settings.enhancedAvroSchemaSupport()) || !enumParams) {
      return Schema.create(Schema.Type.STRING);
    }
    String param = settings.generalizedSumTypeSupport() ? GENERALIZED_TYPE_ENUM : AVRO_TYPE_ENUM;
    List<String> symbols = new ArrayList<>();
    params.forEach((key, value) -> {
      if (key.startsWith(param + ".")) {
        symbols.add(key.substring(param.length() + 1));
      }
    });
    String name = names(ctx, connect.name())[1];
    String enumName = params.get(param);
    SchemaBuilder.EnumBuilder<Schema> builder = SchemaBuilder.builder().enumeration(enumName);
    if (settings.discardTypeDocDefault()) {
      return builder.doc(params.get(CONNECT_ENUM_DOC_PROP)).symbols(symbols.toArray(String[]::new));
    }
    return builder.doc(params.get(AVRO_ENUM_DOC_PREFIX_PROP + name))
        .defaultSymbol(params.get(AVRO_ENUM_DEFAULT_PREFIX_PROP + name)).symbols(symbols.toArray(String[]::new));
  }

  private Schema bytes(org.apache.kafka.connect.data.Schema connect, Map<String, String> params, Context ctx) {
    Schema base;
    if (isFixed(connect)) {
      String[] names = names(ctx, params.getOrDefault(ConnectProps.KAVRO_FIXED_NAME, connect.name()));
      base = Schema.createFixed(names[1], null, names[0], Integer.parseInt(params.get(CONNECT_AVRO_FIXED_SIZE_PROP)));
    } else {
      base = Schema.create(Schema.Type.BYTES);
    }
    if (Decimal.LOGICAL_NAME.equalsIgnoreCase(connect.name())) {
      base.addProp("scale", JSON.numberNode(Integer.parseInt(params.get(Decimal.SCALE_FIELD))));
      String precision = params.get(CONNECT_AVRO_DECIMAL_PRECISION_PROP);
      base.addProp("precision", JSON.numberNode(precision != null ? Integer.parseInt(precision)
          : CONNECT_AVRO_DECIMAL_PRECISION_DEFAULT));
    }
    return base;
  }

  private Schema map(org.apache.kafka.connect.data.Schema connect, Context ctx) {
    if (stringKeys(connect)) {
      return Schema.createMap(schemaOrReference(connect.valueSchema(), ctx, false));
    }
    Schema entry;
    if (connect.name() == null) {
      entry = Schema.createRecord(MAP_ENTRY_TYPE_NAME, null, NAMESPACE, false);
    } else {
      String[] names = names(ctx, connect.name());
      entry = Schema.createRecord(names[1], null, names[0], false);
      entry.addProp(CONNECT_INTERNAL_TYPE_NAME, MAP_ENTRY_TYPE_NAME);
    }
    List<Schema.Field> fields = new ArrayList<>();
    addField(fields, KEY_FIELD, connect.keySchema(), null, ctx);
    addField(fields, VALUE_FIELD, connect.valueSchema(), null, ctx);
    entry.setFields(fields);
    return Schema.createArray(entry);
  }

  private Schema struct(org.apache.kafka.connect.data.Schema connect, Map<String, String> params, Context ctx) {
    if (isUnion(connect)) {
      List<Schema> branches = new ArrayList<>();
      if (connect.isOptional()) {
        branches.add(Schema.create(Schema.Type.NULL));
      }
      for (Field field : connect.fields()) {
        branches.add(schemaOrReference(nonOptional(field.schema()), ctx, true));
      }
      return Schema.createUnion(branches);
    }
    if (connect.isOptional()) {
      return Schema.createUnion(Schema.create(Schema.Type.NULL),
          schemaOrReference(nonOptional(connect), ctx, false));
    }
    String[] names = names(ctx, connect.name());
    String doc = params.get(settings.discardTypeDocDefault() ? CONNECT_RECORD_DOC_PROP : AVRO_RECORD_DOC_PROP);
    Schema record = Schema.createRecord(names[1], doc, names[0], false);
    if (connect.name() != null) {
      ctx.recordsByName.put(connect.name(), record);
    }
    List<Schema.Field> fields = new ArrayList<>();
    for (Field field : connect.fields()) {
      String fieldDoc = settings.discardTypeDocDefault() ? null : params.get(AVRO_FIELD_DOC_PREFIX_PROP + field.name());
      addField(fields, AvroNames.scrub(field.name(), settings.scrubInvalidNames()), field.schema(), fieldDoc, ctx);
    }
    record.setFields(fields);
    return record;
  }

  private void addField(List<Schema.Field> fields, String name, org.apache.kafka.connect.data.Schema connect,
      String doc, Context ctx) {
    Object defaultValue = null;
    if (connect.defaultValue() != null) {
      defaultValue = JacksonUtils.toObject(defaultJson(connect, connect.defaultValue()));
    } else if (connect.isOptional()) {
      defaultValue = JsonProperties.NULL_VALUE;
    }
    String scrubbedName = AvroNames.scrubFullName(connect.name(), settings.scrubInvalidNames());
    boolean alreadySeen = scrubbedName != null && !ctx.seenNamedTypes.add(scrubbedName);
    Schema schema = schemaOrReference(connect, ctx, false);
    String fieldDoc = settings.discardTypeDocDefault() ? connect.doc() : doc;
    Schema.Field field;
    try {
      field = new Schema.Field(name, schema, fieldDoc, defaultValue);
    } catch (AvroTypeException e) {
      log.warn("Ignoring invalid default for field {}: {}", name, e.getMessage());
      field = new Schema.Field(name, schema, fieldDoc);
    }
    if (settings.connectMetaData() && alreadySeen && connect.parameters() != null
        && !connect.parameters().isEmpty() && isNamed(schema)) {
      ObjectNode parameters = parameters(connect.parameters());
      if (!parameters.isEmpty()) {
        field.addProp(CONNECT_PARAMETERS_PROP, parameters);
      }
    }
    fields.add(field);
  }

  private void addConnectProps(org.apache.kafka.connect.data.Schema connect, Map<String, String> params,
      String connectType, Schema base) {
    if (!settings.connectMetaData()) {
      return;
    }
    if (connect.doc() != null) {
      base.addProp(CONNECT_DOC_PROP, connect.doc());
    }
    if (connect.version() != null) {
      base.addProp(CONNECT_VERSION_PROP, JSON.numberNode(connect.version()));
    }
    if (!params.isEmpty()) {
      ObjectNode parameters = parameters(params);
      if (!parameters.isEmpty()) {
        base.addProp(CONNECT_PARAMETERS_PROP, parameters);
      }
    }
    if (connect.defaultValue() != null
        && (settings.discardTypeDocDefault() || !params.containsKey(AVRO_FIELD_DEFAULT_FLAG_PROP))) {
      base.addProp(CONNECT_DEFAULT_VALUE_PROP, defaultJson(connect, connect.defaultValue()));
    }
    if (connect.name() != null) {
      base.addProp(CONNECT_NAME_PROP, connect.name());
    }
    if (connectType != null) {
      base.addProp(CONNECT_TYPE_PROP, connectType);
    }
  }

  /** Connect's logical types as Avro's, and the "avro*" parameters as properties. */
  private static void addLogicalType(org.apache.kafka.connect.data.Schema connect, Map<String, String> params,
      Schema base) {
    String name = connect.name();
    if (Decimal.LOGICAL_NAME.equalsIgnoreCase(name)) {
      String precisionText = params.get(CONNECT_AVRO_DECIMAL_PRECISION_PROP);
      String scaleText = params.get(Decimal.SCALE_FIELD);
      int precision = precisionText == null ? CONNECT_AVRO_DECIMAL_PRECISION_DEFAULT : Integer.parseInt(precisionText);
      int scale = scaleText == null ? 0 : Integer.parseInt(scaleText);
      if (scale >= 0 && scale <= precision) {
        LogicalTypes.decimal(precision, scale).addToSchema(base);
      } else {
        // Avro's decimal refuses such a scale; Confluent's converter then writes only the property.
        base.addProp(LogicalType.LOGICAL_TYPE_PROP, "decimal");
      }
    } else if (Time.LOGICAL_NAME.equalsIgnoreCase(name)) {
      LogicalTypes.timeMillis().addToSchema(base);
    } else if (Timestamp.LOGICAL_NAME.equalsIgnoreCase(name)) {
      LogicalTypes.timestampMillis().addToSchema(base);
    } else if (Date.LOGICAL_NAME.equalsIgnoreCase(name)) {
      LogicalTypes.date().addToSchema(base);
    } else if (params.containsKey(KAVRO_LOGICAL_TYPE) && base.getProp(LogicalType.LOGICAL_TYPE_PROP) == null) {
      base.addProp(LogicalType.LOGICAL_TYPE_PROP, params.get(KAVRO_LOGICAL_TYPE));
      LogicalType kept = LogicalTypes.fromSchemaIgnoreInvalid(base);
      if (kept != null) {
        kept.addToSchema(base);
      }
    }
    params.forEach((key, value) -> {
      if (key.startsWith(AVRO_PROP) && base.getObjectProp(key) == null) {
        base.addProp(key, value);
      }
    });
  }

  /** Optional: a union with null, null first unless the schema has a default (which must match the first). */
  private static Schema optional(org.apache.kafka.connect.data.Schema connect, Schema base) {
    if (!connect.isOptional()) {
      return base;
    }
    Schema nullSchema = Schema.create(Schema.Type.NULL);
    return connect.defaultValue() != null ? Schema.createUnion(base, nullSchema)
        : Schema.createUnion(nullSchema, base);
  }

  private String[] names(Context ctx, String name) {
    if (name != null) {
      return AvroNames.split(name, settings.scrubInvalidNames());
    }
    int index = ++ctx.defaultNames;
    return new String[] {NAMESPACE, DEFAULT_SCHEMA_NAME + (index > 1 ? index : "")};
  }

  private ObjectNode parameters(Map<String, String> params) {
    ObjectNode result = JSON.objectNode();
    params.forEach((key, value) -> {
      if (settings.discardTypeDocDefault() || !key.equals(AVRO_FIELD_DEFAULT_FLAG_PROP)) {
        result.put(key, value);
      }
    });
    return result;
  }

  /** A Connect default as Avro's JSON form of a default. */
  private JsonNode defaultJson(org.apache.kafka.connect.data.Schema connect, Object value) {
    if (value == null) {
      return NullNode.getInstance();
    }
    Object raw = toAvroLogical(connect, value);
    try {
      switch (connect.type()) {
        case INT8:
          return JSON.numberNode(((Byte) raw).intValue());
        case INT16:
          return JSON.numberNode(((Short) raw).intValue());
        case INT32:
          return JSON.numberNode((Integer) raw);
        case INT64:
          return JSON.numberNode((Long) raw);
        case FLOAT32:
          return JSON.numberNode((Float) raw);
        case FLOAT64:
          return JSON.numberNode((Double) raw);
        case BOOLEAN:
          return JSON.booleanNode((Boolean) raw);
        case STRING:
          return JSON.textNode((String) raw);
        case BYTES:
          return JSON.textNode(new String(raw instanceof byte[] bytes ? bytes : toBytes((ByteBuffer) raw),
              StandardCharsets.ISO_8859_1));
        case ARRAY: {
          ArrayNode array = JSON.arrayNode();
          for (Object item : (Collection<?>) raw) {
            array.add(defaultJson(connect.valueSchema(), item));
          }
          return array;
        }
        case MAP:
          if (stringKeys(connect)) {
            ObjectNode object = JSON.objectNode();
            ((Map<?, ?>) raw).forEach((k, v) -> object.set((String) k, defaultJson(connect.valueSchema(), v)));
            return object;
          } else {
            ArrayNode array = JSON.arrayNode();
            ((Map<?, ?>) raw).forEach((k, v) -> array.add(JSON.arrayNode()
                .add(defaultJson(connect.keySchema(), k)).add(defaultJson(connect.valueSchema(), v))));
            return array;
          }
        case STRUCT: {
          ObjectNode object = JSON.objectNode();
          Struct struct = (Struct) raw;
          for (Field field : connect.fields()) {
            JsonNode fieldDefault = defaultJson(field.schema(), struct.get(field));
            if (isUnion(connect)) {
              return fieldDefault;
            }
            object.set(AvroNames.scrub(field.name(), settings.scrubInvalidNames()), fieldDefault);
          }
          return object;
        }
        default:
          throw new DataException("Unknown schema type: " + connect.type());
      }
    } catch (ClassCastException e) {
      throw new DataException("Invalid type used for default value of " + connect.type() + " field: "
          + value.getClass().getName());
    }
  }

  // ---- values ------------------------------------------------------------------------------------------

  /**
   * The mapper of the values of {@code connect} to Avro's raw generic values of {@code avro} (the schema
   * {@link #schema} gave for it); schemaless values ({@code connect} null) as {@code Anything} records. Every
   * decision that depends on the schemas alone (union branches, enum and fixed types, field positions, logical
   * types) is taken here, once; a schema pair that cannot hold any value gives a mapper that says so for each.
   */
  ValueMapper mapper(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    if (connect == null) {
      return Schemaless::toAvro;
    }
    ValueMapper body;
    try {
      body = body(connect, avro);
    } catch (DataException e) {
      String message = e.getMessage();
      body = raw -> {
        throw new DataException(message);
      };
    }
    ValueMapper logical = logical(connect);
    boolean optional = connect.isOptional();
    String nullMessage = "Found null value for non-optional schema" + named(connect);
    String invalid = "Invalid type for " + connect.type() + named(connect) + ": ";
    ValueMapper mapped = body;
    return value -> {
      if (value == null) {
        if (!optional) {
          throw new DataException(nullMessage);
        }
        return null;
      }
      try {
        return mapped.map(logical == null ? value : logical.map(value));
      } catch (ClassCastException e) {
        throw new DataException(invalid + value.getClass().getName());
      }
    };
  }

  /** A value of the Connect schema's type, its logical type already mapped, as Avro's. */
  private ValueMapper body(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    return switch (connect.type()) {
      case INT8 -> raw -> ((Byte) raw).intValue();
      case INT16 -> raw -> ((Short) raw).intValue();
      case INT32 -> raw -> (Integer) raw;
      case INT64 -> raw -> (Long) raw;
      case FLOAT32 -> raw -> (Float) raw;
      case FLOAT64 -> raw -> (Double) raw;
      case BOOLEAN -> raw -> (Boolean) raw;
      case STRING -> string(connect, avro);
      case BYTES -> bytes(connect, avro);
      case ARRAY -> {
        Schema array = underlying(connect, avro, Schema.Type.ARRAY);
        ValueMapper element = mapper(connect.valueSchema(), array.getElementType());
        if (passesThrough(connect.valueSchema())) {
          yield raw -> { // each item checked, none changed: the list itself, not a copy
            Collection<?> items = (Collection<?>) raw;
            for (Object item : items) {
              element.map(item);
            }
            return items;
          };
        }
        yield raw -> {
          Collection<?> items = (Collection<?>) raw;
          List<Object> result = new ArrayList<>(items.size());
          for (Object item : items) {
            result.add(element.map(item));
          }
          return result;
        };
      }
      case MAP -> map(connect, avro);
      case STRUCT -> struct(connect, avro);
    };
  }

  private ValueMapper string(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    Map<String, String> params = connect.parameters();
    String enumName = params == null ? null : settings.generalizedSumTypeSupport()
        ? params.get(GENERALIZED_TYPE_ENUM) : settings.enhancedAvroSchemaSupport() ? params.get(AVRO_TYPE_ENUM) : null;
    if (enumName == null) {
      return raw -> (String) raw;
    }
    Integer branch = avro.getType() == Schema.Type.UNION ? avro.getIndexNamed(enumName) : null;
    if (avro.getType() == Schema.Type.UNION && branch == null) {
      throw new DataException("No enum " + enumName + " in union " + avro);
    }
    Schema enumSchema = branch == null ? avro : avro.getTypes().get(branch);
    return raw -> {
      String symbol = (String) raw;
      if (!enumSchema.hasEnumSymbol(symbol)) {
        throw new DataException("'" + symbol + "' is not a symbol of enum " + enumSchema.getFullName() + " "
            + enumSchema.getEnumSymbols());
      }
      return new GenericData.EnumSymbol(enumSchema, symbol);
    };
  }

  private ValueMapper bytes(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    if (!isFixed(connect)) {
      return raw -> raw instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : (ByteBuffer) raw;
    }
    int size = Integer.parseInt(connect.parameters().get(CONNECT_AVRO_FIXED_SIZE_PROP));
    Schema fixed = avro;
    if (avro.getType() == Schema.Type.UNION) {
      fixed = null;
      for (Schema branch : avro.getTypes()) {
        String name = connect.parameters().getOrDefault(ConnectProps.KAVRO_FIXED_NAME, connect.name());
        if (branch.getType() == Schema.Type.FIXED && branch.getFixedSize() == size
            && branch.getFullName().equals(AvroNames.scrubFullName(name, settings.scrubInvalidNames()))) {
          fixed = branch;
        }
      }
      if (fixed == null) {
        throw new DataException("Fixed size " + size + " not in union " + avro);
      }
    }
    boolean decimal = Decimal.LOGICAL_NAME.equalsIgnoreCase(connect.name());
    Schema fixedSchema = fixed;
    return raw -> {
      byte[] bytes = raw instanceof byte[] array ? array.clone() : toBytes((ByteBuffer) raw);
      if (decimal) {
        bytes = signExtend(bytes, size);
      }
      if (bytes.length != size) {
        throw new DataException("A value of " + bytes.length + " bytes does not fit fixed "
            + fixedSchema.getFullName() + " of size " + size);
      }
      return new GenericData.Fixed(fixedSchema, bytes);
    };
  }

  private ValueMapper map(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    if (stringKeys(connect)) {
      Schema avroMap = underlying(connect, avro, Schema.Type.MAP);
      ValueMapper values = mapper(connect.valueSchema(), avroMap.getValueType());
      if (passesThrough(connect.valueSchema())) {
        return raw -> { // each entry checked, none changed: the map itself, not a copy
          ((Map<?, ?>) raw).forEach((k, v) -> {
            String.class.cast(k);
            values.map(v);
          });
          return raw;
        };
      }
      return raw -> {
        Map<String, Object> converted = new HashMap<>();
        ((Map<?, ?>) raw).forEach((k, v) -> converted.put((String) k, values.map(v)));
        return converted;
      };
    }
    Schema entry = underlying(connect, avro, Schema.Type.ARRAY).getElementType();
    MapEntryFields fields = MapEntryFields.of(entry);
    ValueMapper keys = mapper(connect.keySchema(), fields.keySchema());
    ValueMapper values = mapper(connect.valueSchema(), fields.valueSchema());
    int keyPos = fields.keyPos();
    int valuePos = fields.valuePos();
    return raw -> {
      Map<?, ?> map = (Map<?, ?>) raw;
      List<Object> entries = new ArrayList<>(map.size());
      map.forEach((k, v) -> {
        GenericRecord record = new GenericData.Record(entry);
        record.put(keyPos, keys.map(k));
        record.put(valuePos, values.map(v));
        entries.add(record);
      });
      return entries;
    };
  }

  private ValueMapper struct(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    String mismatch = "Mismatching struct schema" + named(connect);
    List<Field> fields = connect.fields();
    String[] names = fields.stream().map(Field::name).toArray(String[]::new);
    boolean withoutDefault = settings.ignoreDefaultForNullables();
    ValueMapper[] mappers = new ValueMapper[fields.size()];
    if (isUnion(connect)) {
      for (int i = 0; i < mappers.length; i++) {
        mappers[i] = mapper(fields.get(i).schema(), avro);
      }
      String noBranch = "A union struct " + connect.name() + " with no branch set: set one of its fields, or use a "
          + "null value for an optional union";
      return raw -> {
        Struct struct = (Struct) raw;
        if (!struct.schema().equals(connect)) {
          throw new DataException(mismatch);
        }
        for (int i = 0; i < mappers.length; i++) {
          Object branch = withoutDefault ? struct.getWithoutDefault(names[i]) : struct.get(fields.get(i));
          if (branch != null) {
            return mappers[i].map(branch);
          }
        }
        // A union struct is one of its branches; a struct with none set is no value of the union. Only a null
        // value (not an empty struct) is the null of an optional union, so that nothing becomes a tombstone.
        throw new DataException(noBranch);
      };
    }
    Schema record = underlyingRecord(connect, avro);
    int[] positions = new int[mappers.length];
    for (int i = 0; i < mappers.length; i++) {
      Schema.Field avroField = record.getField(AvroNames.scrub(names[i], settings.scrubInvalidNames()));
      if (avroField == null) {
        throw new DataException("No field " + names[i] + " in " + record.getFullName());
      }
      positions[i] = avroField.pos();
      mappers[i] = mapper(fields.get(i).schema(), avroField.schema());
    }
    return raw -> {
      Struct struct = (Struct) raw;
      if (!struct.schema().equals(connect)) {
        throw new DataException(mismatch);
      }
      GenericRecord result = new GenericData.Record(record);
      for (int i = 0; i < mappers.length; i++) {
        Object fieldValue = withoutDefault ? struct.getWithoutDefault(names[i]) : struct.get(fields.get(i));
        result.put(positions[i], mappers[i].map(fieldValue));
      }
      return result;
    };
  }

  /**
   * Whether the mapper of {@code connect} returns every value it accepts as it is (a cast, no conversion): a plain
   * int, long, float, double, boolean or string that is no enum, without a logical type.
   */
  private boolean passesThrough(org.apache.kafka.connect.data.Schema connect) {
    if (connect == null || logical(connect) != null) {
      return false;
    }
    return switch (connect.type()) {
      case INT32, INT64, FLOAT32, FLOAT64, BOOLEAN -> true;
      case STRING -> connect.parameters() == null || !connect.parameters().containsKey(GENERALIZED_TYPE_ENUM)
          && !connect.parameters().containsKey(AVRO_TYPE_ENUM);
      default -> false;
    };
  }

  /** The branch of an optional's union that holds the value: of {@code type}. */
  private static Schema underlying(org.apache.kafka.connect.data.Schema connect, Schema avro, Schema.Type type) {
    if (!connect.isOptional()) {
      return avro;
    }
    if (avro.getType() != Schema.Type.UNION) {
      throw new DataException("An optional schema should have an Avro union type, not " + avro.getType());
    }
    for (Schema branch : avro.getTypes()) {
      if (branch.getType() == type) {
        return branch;
      }
    }
    throw new DataException("No " + type + " branch in " + avro);
  }

  private Schema underlyingRecord(org.apache.kafka.connect.data.Schema connect, Schema avro) {
    if (!connect.isOptional()) {
      return avro;
    }
    if (avro.getType() != Schema.Type.UNION) {
      throw new DataException("An optional schema should have an Avro union type, not " + avro.getType());
    }
    String fullName = AvroNames.scrubFullName(connect.name(), settings.scrubInvalidNames());
    for (Schema branch : avro.getTypes()) {
      if (branch.getType() == Schema.Type.RECORD && (branch.getFullName().equals(fullName)
          || connect.name() == null && branch.getFullName().startsWith(DEFAULT_SCHEMA_FULL_NAME))) {
        return branch;
      }
    }
    throw new DataException("No record branch for " + named(connect) + " in " + avro);
  }

  // ---- shared ------------------------------------------------------------------------------------------

  private boolean stringKeys(org.apache.kafka.connect.data.Schema map) {
    return map.keySchema().type() == org.apache.kafka.connect.data.Schema.Type.STRING
        && (!map.keySchema().isOptional() || settings.allowOptionalMapKeys());
  }

  static boolean isUnion(org.apache.kafka.connect.data.Schema connect) {
    return AVRO_TYPE_UNION.equals(connect.name())
        || connect.parameters() != null && connect.parameters().containsKey(GENERALIZED_TYPE_UNION);
  }

  static boolean isFixed(org.apache.kafka.connect.data.Schema connect) {
    return connect.type() == org.apache.kafka.connect.data.Schema.Type.BYTES && connect.name() != null
        && connect.parameters() != null && connect.parameters().containsKey(CONNECT_AVRO_FIXED_SIZE_PROP);
  }

  private static boolean isNamed(Schema schema) {
    return switch (schema.getType()) {
      case RECORD, ENUM, FIXED -> true;
      case UNION -> schema.getTypes().stream().anyMatch(ConnectToAvro::isNamed);
      default -> false;
    };
  }

  static org.apache.kafka.connect.data.Schema nonOptional(org.apache.kafka.connect.data.Schema connect) {
    return new org.apache.kafka.connect.data.ConnectSchema(connect.type(), false, connect.defaultValue(),
        connect.name(), connect.version(), connect.doc(), connect.parameters(),
        connect.type() == org.apache.kafka.connect.data.Schema.Type.STRUCT ? connect.fields() : null,
        connect.type() == org.apache.kafka.connect.data.Schema.Type.MAP ? connect.keySchema() : null,
        connect.type() == org.apache.kafka.connect.data.Schema.Type.MAP
            || connect.type() == org.apache.kafka.connect.data.Schema.Type.ARRAY ? connect.valueSchema() : null);
  }

  /** A Connect logical value (BigDecimal, Date) as its underlying value (bytes, int, long). */
  private static Object toAvroLogical(org.apache.kafka.connect.data.Schema connect, Object value) {
    ValueMapper logical = value == null ? null : logical(connect);
    return logical == null ? value : logical.map(value);
  }

  private static final long MILLIS_PER_DAY = 24 * 60 * 60 * 1000;

  /** A decimal as its unscaled two's-complement bytes, of the schema's scale. */
  private static ValueMapper decimal(org.apache.kafka.connect.data.Schema connect) {
    int scale;
    try {
      scale = Integer.parseInt(connect.parameters().get(Decimal.SCALE_FIELD));
    } catch (RuntimeException e) {
      return value -> Decimal.fromLogical(connect, (BigDecimal) value); // Kafka's error, for each value
    }
    return value -> {
      BigDecimal decimal = (BigDecimal) value;
      return decimal.scale() == scale ? decimal.unscaledValue().toByteArray() : Decimal.fromLogical(connect, decimal);
    };
  }

  /** The mapper of a Connect logical value (BigDecimal, Date) to its underlying value, or {@code null}. */
  private static ValueMapper logical(org.apache.kafka.connect.data.Schema connect) {
    String name = connect.name();
    if (name == null) {
      return null;
    }
    // Kafka's own conversions build a Calendar per date and parse the scale per decimal: the checks are made
    // here on the millis and a scale parsed once, and a value that fails them goes to Kafka's, for its message.
    ValueMapper convert = switch (name) {
      case Decimal.LOGICAL_NAME -> decimal(connect);
      case Date.LOGICAL_NAME -> value -> {
        long millis = ((java.util.Date) value).getTime();
        return Math.floorMod(millis, MILLIS_PER_DAY) == 0 ? (Object) (int) (millis / MILLIS_PER_DAY)
            : (Object) Date.fromLogical(connect, (java.util.Date) value);
      };
      case Time.LOGICAL_NAME -> value -> {
        long millis = ((java.util.Date) value).getTime();
        return millis >= 0 && millis <= MILLIS_PER_DAY ? (Object) (int) millis
            : (Object) Time.fromLogical(connect, (java.util.Date) value);
      };
      case Timestamp.LOGICAL_NAME -> value -> ((java.util.Date) value).getTime();
      default -> null;
    };
    return convert == null ? null : ValueMapper.logical(name, convert);
  }

  private static String named(org.apache.kafka.connect.data.Schema connect) {
    return connect.name() == null ? "" : " (" + connect.name() + ")";
  }

  private static byte[] toBytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  /** A two's-complement unscaled value, sign-extended to a fixed's size. */
  private static byte[] signExtend(byte[] bytes, int size) {
    if (bytes.length >= size) {
      return bytes;
    }
    byte[] padded = new byte[size];
    Arrays.fill(padded, 0, size - bytes.length, bytes.length > 0 && bytes[0] < 0 ? (byte) 0xff : 0);
    System.arraycopy(bytes, 0, padded, size - bytes.length, bytes.length);
    return padded;
  }
}
