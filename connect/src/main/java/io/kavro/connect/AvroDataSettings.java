package io.kavro.connect;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The Connect-Avro mapping's switches, with the keys and defaults of Confluent's {@code AvroDataConfig}.
 *
 * @param connectMetaData write and read the {@code connect.*} properties that carry Connect's names, docs,
 *     versions, defaults and parameters
 * @param enhancedAvroSchemaSupport keep Avro enums as enums, union branches by full name, and (Kavro) the
 *     logical types Connect lacks
 * @param scrubInvalidNames turn names that Avro refuses into valid ones
 * @param ignoreDefaultForNullables write a null field as null, not as its default
 * @param generalizedSumTypeSupport unions and enums as Confluent's format-neutral Connect types
 * @param flattenSingletonUnions read a union of one type as that type
 * @param discardTypeDocDefault keep only field docs and defaults, as Connect docs and defaults
 * @param allowOptionalMapKeys an optional string key still makes an Avro map
 * @param schemasCacheSize bound on each converted-schema cache
 */
record AvroDataSettings(boolean connectMetaData, boolean enhancedAvroSchemaSupport, boolean scrubInvalidNames,
    boolean ignoreDefaultForNullables, boolean generalizedSumTypeSupport, boolean flattenSingletonUnions,
    boolean discardTypeDocDefault, boolean allowOptionalMapKeys, int schemasCacheSize) {

  static final String CONNECT_META_DATA_CONFIG = "connect.meta.data";
  static final String ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG = "enhanced.avro.schema.support";
  static final String SCRUB_INVALID_NAMES_CONFIG = "scrub.invalid.names";
  static final String IGNORE_DEFAULT_FOR_NULLABLES_CONFIG = "ignore.default.for.nullables";
  static final String GENERALIZED_SUM_TYPE_SUPPORT_CONFIG = "generalized.sum.type.support";
  static final String FLATTEN_SINGLETON_UNIONS_CONFIG = "flatten.singleton.unions";
  static final String DISCARD_TYPE_DOC_DEFAULT_CONFIG = "discard.type.doc.default";
  static final String ALLOW_OPTIONAL_MAP_KEYS_CONFIG = "allow.optional.map.keys";
  static final String SCHEMAS_CACHE_CONFIG = "schemas.cache.config";

  /** Confluent's defaults. */
  static final AvroDataSettings DEFAULTS = new AvroDataSettings(true, false, false, false, false, true, false,
      false, 1000);

  /** Adds the keys, with Confluent's defaults, to {@code def}. */
  static ConfigDef define(ConfigDef def) {
    return def
        .define(CONNECT_META_DATA_CONFIG, Type.BOOLEAN, true, Importance.LOW, "Write Connect's names, docs, "
            + "versions, defaults and parameters as connect.* Avro properties, and read them back.")
        .define(ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG, Type.BOOLEAN, false, Importance.LOW, "Keep Avro enums as "
            + "enums and name union branches by full name; Kavro also keeps the Avro logical types that Connect "
            + "lacks (uuid, timestamp-micros...).")
        .define(SCRUB_INVALID_NAMES_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "Replace the characters Avro refuses in names.")
        .define(IGNORE_DEFAULT_FOR_NULLABLES_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "Write a null optional field as null rather than as its default.")
        .define(GENERALIZED_SUM_TYPE_SUPPORT_CONFIG, Type.BOOLEAN, false, Importance.LOW, "Unions and enums as "
            + "the format-neutral Connect types of Confluent's converters (org.apache.kafka.connect.data.Union "
            + "and Enum).")
        .define(FLATTEN_SINGLETON_UNIONS_CONFIG, Type.BOOLEAN, true, Importance.LOW,
            "Read a union of one type as that type.")
        .define(DISCARD_TYPE_DOC_DEFAULT_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "Keep only Avro field docs and defaults, as Connect schema docs and defaults.")
        .define(ALLOW_OPTIONAL_MAP_KEYS_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "A Connect map with optional string keys is still an Avro map.")
        .define(SCHEMAS_CACHE_CONFIG, Type.INT, 1000, ConfigDef.Range.atLeast(1), Importance.LOW,
            "Bound on each cache of converted schemas.");
  }

  /** The settings in {@code configs}, Confluent's defaults for the rest. */
  static AvroDataSettings from(Map<String, ?> configs) {
    return new AvroDataSettings(
        bool(configs, CONNECT_META_DATA_CONFIG, DEFAULTS.connectMetaData),
        bool(configs, ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG, DEFAULTS.enhancedAvroSchemaSupport),
        bool(configs, SCRUB_INVALID_NAMES_CONFIG, DEFAULTS.scrubInvalidNames),
        bool(configs, IGNORE_DEFAULT_FOR_NULLABLES_CONFIG, DEFAULTS.ignoreDefaultForNullables),
        bool(configs, GENERALIZED_SUM_TYPE_SUPPORT_CONFIG, DEFAULTS.generalizedSumTypeSupport),
        bool(configs, FLATTEN_SINGLETON_UNIONS_CONFIG, DEFAULTS.flattenSingletonUnions),
        bool(configs, DISCARD_TYPE_DOC_DEFAULT_CONFIG, DEFAULTS.discardTypeDocDefault),
        bool(configs, ALLOW_OPTIONAL_MAP_KEYS_CONFIG, DEFAULTS.allowOptionalMapKeys),
        size(configs));
  }

  private static boolean bool(Map<String, ?> configs, String key, boolean otherwise) {
    Object value = configs.get(key);
    if (value == null) {
      return otherwise;
    }
    if (value instanceof Boolean b) {
      return b;
    }
    String text = value.toString().trim().toLowerCase(Locale.ROOT);
    if (!text.equals("true") && !text.equals("false")) {
      throw new ConfigException(key, value, "must be true or false");
    }
    return Boolean.parseBoolean(text);
  }

  private static int size(Map<String, ?> configs) {
    Object value = configs.get(SCHEMAS_CACHE_CONFIG);
    if (value == null) {
      return DEFAULTS.schemasCacheSize;
    }
    try {
      int size = value instanceof Number n ? n.intValue() : Integer.parseInt(value.toString().trim());
      if (size < 1) {
        throw new ConfigException(SCHEMAS_CACHE_CONFIG, value, "must be at least 1");
      }
      return size;
    } catch (NumberFormatException e) {
      throw new ConfigException(SCHEMAS_CACHE_CONFIG, value, "not a whole number");
    }
  }
}
