package io.kavro.connect;

import io.kavro.serde.AvroSerdeConfig;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The Connect-Avro mapping's switches of {@link AvroConverter}, with the keys and defaults of Confluent's
 * {@code AvroData}: one {@link ConfigDef}, read once into typed values, as Kafka's {@code JsonConverterConfig}.
 * The converter's other keys are the serde's ({@link AvroSerdeConfig}); {@link #configDef()} holds both.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConverterConfig extends AbstractConfig {
  /** Write and read the {@code connect.*} properties that carry Connect's names, docs, versions and defaults. */
  public static final String CONNECT_META_DATA_CONFIG = "connect.meta.data";
  private static final String CONNECT_META_DATA_DOC = "Write Connect's names, docs, versions, defaults and "
      + "parameters as connect.* Avro properties, and read them back.";

  /** Keep Avro enums as enums, union branches by full name, and (Kavro) the logical types Connect lacks. */
  public static final String ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG = "enhanced.avro.schema.support";
  private static final String ENHANCED_AVRO_SCHEMA_SUPPORT_DOC = "Keep Avro enums as enums and name union "
      + "branches by full name; Kavro also keeps the Avro logical types that Connect lacks (uuid, "
      + "timestamp-micros...).";

  /** Turn names that Avro refuses into valid ones. */
  public static final String SCRUB_INVALID_NAMES_CONFIG = "scrub.invalid.names";
  private static final String SCRUB_INVALID_NAMES_DOC = "Replace the characters Avro refuses in names.";

  /** Write a null field as null, not as its default. */
  public static final String IGNORE_DEFAULT_FOR_NULLABLES_CONFIG = "ignore.default.for.nullables";
  private static final String IGNORE_DEFAULT_FOR_NULLABLES_DOC =
      "Write a null optional field as null rather than as its default.";

  /** Unions and enums as Confluent's format-neutral Connect types. */
  public static final String GENERALIZED_SUM_TYPE_SUPPORT_CONFIG = "generalized.sum.type.support";
  private static final String GENERALIZED_SUM_TYPE_SUPPORT_DOC = "Unions and enums as the format-neutral "
      + "Connect types of Confluent's converters (org.apache.kafka.connect.data.Union and Enum).";

  /** Read a union of one type as that type. */
  public static final String FLATTEN_SINGLETON_UNIONS_CONFIG = "flatten.singleton.unions";
  private static final String FLATTEN_SINGLETON_UNIONS_DOC = "Read a union of one type as that type.";

  /** Keep only field docs and defaults, as Connect docs and defaults. */
  public static final String DISCARD_TYPE_DOC_DEFAULT_CONFIG = "discard.type.doc.default";
  private static final String DISCARD_TYPE_DOC_DEFAULT_DOC =
      "Keep only Avro field docs and defaults, as Connect schema docs and defaults.";

  /** An optional string key still makes an Avro map. */
  public static final String ALLOW_OPTIONAL_MAP_KEYS_CONFIG = "allow.optional.map.keys";
  private static final String ALLOW_OPTIONAL_MAP_KEYS_DOC =
      "A Connect map with optional string keys is still an Avro map.";

  /** Bound on each converted-schema cache. */
  public static final String SCHEMAS_CACHE_CONFIG = "schemas.cache.config";
  private static final String SCHEMAS_CACHE_DOC = "Bound on each cache of converted schemas.";

  /** The mapping's own keys, with Confluent's defaults. */
  private static final ConfigDef CONFIG = new ConfigDef()
      .define(CONNECT_META_DATA_CONFIG, Type.BOOLEAN, true, Importance.LOW, CONNECT_META_DATA_DOC)
      .define(ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG, Type.BOOLEAN, false, Importance.LOW,
          ENHANCED_AVRO_SCHEMA_SUPPORT_DOC)
      .define(SCRUB_INVALID_NAMES_CONFIG, Type.BOOLEAN, false, Importance.LOW, SCRUB_INVALID_NAMES_DOC)
      .define(IGNORE_DEFAULT_FOR_NULLABLES_CONFIG, Type.BOOLEAN, false, Importance.LOW,
          IGNORE_DEFAULT_FOR_NULLABLES_DOC)
      .define(GENERALIZED_SUM_TYPE_SUPPORT_CONFIG, Type.BOOLEAN, false, Importance.LOW,
          GENERALIZED_SUM_TYPE_SUPPORT_DOC)
      .define(FLATTEN_SINGLETON_UNIONS_CONFIG, Type.BOOLEAN, true, Importance.LOW, FLATTEN_SINGLETON_UNIONS_DOC)
      .define(DISCARD_TYPE_DOC_DEFAULT_CONFIG, Type.BOOLEAN, false, Importance.LOW, DISCARD_TYPE_DOC_DEFAULT_DOC)
      .define(ALLOW_OPTIONAL_MAP_KEYS_CONFIG, Type.BOOLEAN, false, Importance.LOW, ALLOW_OPTIONAL_MAP_KEYS_DOC)
      .define(SCHEMAS_CACHE_CONFIG, Type.INT, 1000, Range.atLeast(1), Importance.LOW, SCHEMAS_CACHE_DOC);

  private final boolean connectMetaData;
  private final boolean enhancedAvroSchemaSupport;
  private final boolean scrubInvalidNames;
  private final boolean ignoreDefaultForNullables;
  private final boolean generalizedSumTypeSupport;
  private final boolean flattenSingletonUnions;
  private final boolean discardTypeDocDefault;
  private final boolean allowOptionalMapKeys;
  private final int schemasCacheSize;

  /**
   * The mapping's switches in {@code props}, Confluent's defaults for the rest; other keys are ignored.
   *
   * @throws ConfigException naming the key of a value that is wrong
   */
  public ConverterConfig(Map<String, ?> props) {
    super(CONFIG, props, false);
    this.connectMetaData = getBoolean(CONNECT_META_DATA_CONFIG);
    this.enhancedAvroSchemaSupport = getBoolean(ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG);
    this.scrubInvalidNames = getBoolean(SCRUB_INVALID_NAMES_CONFIG);
    this.ignoreDefaultForNullables = getBoolean(IGNORE_DEFAULT_FOR_NULLABLES_CONFIG);
    this.generalizedSumTypeSupport = getBoolean(GENERALIZED_SUM_TYPE_SUPPORT_CONFIG);
    this.flattenSingletonUnions = getBoolean(FLATTEN_SINGLETON_UNIONS_CONFIG);
    this.discardTypeDocDefault = getBoolean(DISCARD_TYPE_DOC_DEFAULT_CONFIG);
    this.allowOptionalMapKeys = getBoolean(ALLOW_OPTIONAL_MAP_KEYS_CONFIG);
    this.schemasCacheSize = getInt(SCHEMAS_CACHE_CONFIG);
  }

  /** Every key of the converter: the serde's, then the mapping's. A new definition each time. */
  public static ConfigDef configDef() {
    ConfigDef def = AvroSerdeConfig.configDef();
    CONFIG.configKeys().values().forEach(def::define);
    return def;
  }

  /** Whether the {@code connect.*} properties carry Connect's names, docs, versions, defaults and parameters. */
  public boolean connectMetaData() {
    return connectMetaData;
  }

  /** Whether Avro enums stay enums, union branches go by full name, and Connect's missing logical types stay. */
  public boolean enhancedAvroSchemaSupport() {
    return enhancedAvroSchemaSupport;
  }

  /** Whether names that Avro refuses are turned into valid ones. */
  public boolean scrubInvalidNames() {
    return scrubInvalidNames;
  }

  /** Whether a null field is written as null rather than as its default. */
  public boolean ignoreDefaultForNullables() {
    return ignoreDefaultForNullables;
  }

  /** Whether unions and enums are Confluent's format-neutral Connect types. */
  public boolean generalizedSumTypeSupport() {
    return generalizedSumTypeSupport;
  }

  /** Whether a union of one type is read as that type. */
  public boolean flattenSingletonUnions() {
    return flattenSingletonUnions;
  }

  /** Whether only field docs and defaults become Connect docs and defaults. */
  public boolean discardTypeDocDefault() {
    return discardTypeDocDefault;
  }

  /** Whether a Connect map with optional string keys is still an Avro map. */
  public boolean allowOptionalMapKeys() {
    return allowOptionalMapKeys;
  }

  /** Bound on each cache of converted schemas. */
  public int schemasCacheSize() {
    return schemasCacheSize;
  }
}
