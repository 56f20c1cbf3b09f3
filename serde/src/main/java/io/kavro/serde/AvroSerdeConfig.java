package io.kavro.serde;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.serde.framing.FramingResolver;
import io.kavro.serde.framing.SchemaIdPrefix;
import io.kavro.serde.subject.AssociatedNameStrategy;
import io.kavro.serde.subject.StreamsInternalTopicSubjects;
import io.kavro.serde.subject.SubjectNameStrategies;
import io.kavro.serde.subject.SubjectNameStrategy;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;

/**
 * Configuration of the serializer, deserializer, Streams serde and Connect converter, for one side (key or
 * value): Confluent's key names, validated and parsed once, when it is made; its accessors read fields.
 *
 * <p>It includes every key of the registry client ({@link RegistryConfig}), parsed once into
 * {@link #registryConfig()}. Unknown keys are ignored, so producer or consumer properties can be passed as they
 * are; the plugins warn of those that look like mistyped Kavro keys ({@link ConfigKeyCheck}), and log
 * {@link #shownValues()} ({@link SettingsLog}).
 */
public final class AvroSerdeConfig extends AbstractConfig {

  public static final String AUTO_REGISTER_SCHEMAS_CONFIG = "auto.register.schemas";
  private static final String AUTO_REGISTER_SCHEMAS_DOC = "Serializer registers the datum's schema under "
      + "its subject. If false, it looks the schema up and fails when the subject does not hold it.";

  public static final String USE_LATEST_VERSION_CONFIG = "use.latest.version";
  private static final String USE_LATEST_VERSION_DOC = "Serializer writes with the subject's latest schema "
      + "instead of the datum's own, when auto.register.schemas=false (auto-registration takes precedence, as "
      + "in Confluent); deserializer projects onto the latest schema.";

  public static final String USE_SCHEMA_ID_CONFIG = "use.schema.id";
  private static final String USE_SCHEMA_ID_DOC = "Serializer writes every record with this schema id and its "
      + "schema, when auto.register.schemas=false; -1: not used.";

  public static final String USE_SCHEMA_GUID_CONFIG = "use.schema.guid";
  private static final String USE_SCHEMA_GUID_DOC = "Serializer writes every record with the schema of this GUID "
      + "(Confluent 8's GUID API), when auto.register.schemas=false and use.schema.id is not set: the id the "
      + "subject has for it goes in the prefix, the GUID in the header (value.schema.id.serializer=header). "
      + "Not set: not used.";

  public static final String ID_COMPATIBILITY_STRICT_CONFIG = "id.compatibility.strict";
  private static final String ID_COMPATIBILITY_STRICT_DOC = "With use.schema.id (or use.schema.guid), the schema "
      + "of that id (or GUID) must be able to read the datum's schema (backward compatible), or the record fails. "
      + "false: the datum is written with that schema as it is, as Confluent does.";

  public static final String USE_LATEST_WITH_METADATA_CONFIG = "use.latest.with.metadata";
  private static final String USE_LATEST_WITH_METADATA_DOC = "'key=value,key2=value2': serializer writes with, "
      + "and deserializer projects onto, the subject's latest version whose metadata properties hold these "
      + "entries, when auto.register.schemas=false. Needs a registry with Confluent's metadata API.";

  public static final String LATEST_COMPATIBILITY_STRICT_CONFIG = "latest.compatibility.strict";
  private static final String LATEST_COMPATIBILITY_STRICT_DOC = "With use.latest.version, the latest schema "
      + "must be able to read the datum's schema (backward compatible), or the record fails. false: the datum is "
      + "written with the latest schema as it is, as Confluent does.";

  public static final String KEY_SCHEMA_ID_SERIALIZER_CONFIG = "key.schema.id.serializer";
  public static final String VALUE_SCHEMA_ID_SERIALIZER_CONFIG = "value.schema.id.serializer";
  private static final String SCHEMA_ID_SERIALIZER_DOC = "Where the serializer puts the schema id: "
      + "PrefixSchemaIdSerializer (0x00 and the id before the Avro body) or HeaderSchemaIdSerializer (the Avro body "
      + "alone, and the schema's GUID in the __key_schema_id / __value_schema_id header; the id when the registry "
      + "has no GUIDs). Confluent's io.confluent.kafka.serializers.schema.id class names are accepted.";
  public static final String KEY_SCHEMA_ID_DESERIALIZER_CONFIG = "key.schema.id.deserializer";
  public static final String VALUE_SCHEMA_ID_DESERIALIZER_CONFIG = "value.schema.id.deserializer";
  private static final String SCHEMA_ID_DESERIALIZER_DOC = "Where the deserializer finds the schema id: "
      + "DualSchemaIdDeserializer (the __key_schema_id / __value_schema_id header when the record has one, else "
      + "the payload's prefix) or PrefixSchemaIdDeserializer (the prefix only). A prefix or header holds 0x00 and a "
      + "4-byte id, or 0x01 and a 16-byte GUID. Confluent's class names are accepted.";
  public static final String KEY_SCHEMA_ID_PREFIX_CONFIG = "key.schema.id.prefix";
  public static final String VALUE_SCHEMA_ID_PREFIX_CONFIG = "value.schema.id.prefix";
  private static final String SCHEMA_ID_PREFIX_DOC = "What the deserializer reads after a payload's magic byte 0x00: "
      + "confluent (a 4-byte schema id; Kavro's and Confluent's framing), apicurio-global-id-8 (Apicurio 2's "
      + "default), apicurio-content-id-4 (Apicurio 3's default), apicurio-global-id-4 or apicurio-content-id-8. "
      + "Apicurio's ids are resolved through Apicurio's own API. Bytes cannot tell these apart, so it is never "
      + "guessed. GUID prefixes are read whatever it is, and ids in Confluent's or Apicurio's headers unless the "
      + "schema id deserializer is PrefixSchemaIdDeserializer.";
  public static final String KEY_FRAMING_RESOLVER_CONFIG = "key.framing.resolver";
  public static final String VALUE_FRAMING_RESOLVER_CONFIG = "value.framing.resolver";
  private static final String FRAMING_RESOLVER_DOC = "A io.kavro.serde.framing.FramingResolver class that reads a framing "
      + "Kavro does not resolve itself (AWS Glue's, say), for payloads whose first byte is neither 0x00 nor 0x01 "
      + "and whose schema id is in no header. None: such records fail as not framed (Glue's with a message that "
      + "says so).";
  private static final String PREFIX_SERIALIZER = "PrefixSchemaIdSerializer";
  private static final String HEADER_SERIALIZER = "HeaderSchemaIdSerializer";
  private static final String DUAL_DESERIALIZER = "DualSchemaIdDeserializer";
  private static final String PREFIX_DESERIALIZER = "PrefixSchemaIdDeserializer";
  private static final String CONFLUENT_ID_PACKAGE = "io.confluent.kafka.serializers.schema.id.";

  public static final String STREAMS_INTERNAL_TOPICS_SUBJECT_CONFIG = "streams.internal.topics.subject";
  private static final String STREAMS_INTERNAL_TOPICS_SUBJECT_DOC = "The subjects of a Kafka Streams "
      + "application's changelog and repartition topics. topic (Confluent's behaviour): as any topic, by the "
      + "subject name strategy, so each store and repartition step registers its own subject. record: the "
      + "record's full name, one subject per type shared by all of them, and the id the schema has elsewhere; "
      + "needs application.id in the serde's configuration (Streams passes its own).";
  private static final String STREAMS_APPLICATION_ID = "application.id";

  public static final String AVRO_REMOVE_JAVA_PROPERTIES_CONFIG = "avro.remove.java.properties";
  private static final String AVRO_REMOVE_JAVA_PROPERTIES_DOC = "Serializer removes the 'avro.java.string' "
      + "properties that generated classes carry from the schema it registers or looks up, so that it matches a "
      + "schema registered from an .avsc file.";

  public static final String KEY_SUBJECT_NAME_STRATEGY_CONFIG = "key.subject.name.strategy";
  public static final String VALUE_SUBJECT_NAME_STRATEGY_CONFIG = "value.subject.name.strategy";
  private static final String SUBJECT_NAME_STRATEGY_DOC = "Class that names the subject: AssociatedNameStrategy "
      + "(the default, as Confluent's since 8.3: the subject the registry associates with the topic, else "
      + "TopicNameStrategy's), TopicNameStrategy, RecordNameStrategy, TopicRecordNameStrategy "
      + "(io.kavro.serde.subject or Confluent's io.confluent.kafka.serializers.subject package), or your own "
      + "SubjectNameStrategy.";

  public static final String CONTEXT_NAME_STRATEGY_CONFIG = "context.name.strategy";
  private static final String CONTEXT_NAME_STRATEGY_DOC = "Class that gives each topic its schema context: the "
      + "subjects are qualified with it (:.ctx:orders-value) and record ids are read within it. "
      + "NullContextNameStrategy (the default: the registry's default context; Confluent's "
      + "io.confluent.kafka.serializers.context.NullContextNameStrategy is accepted), or your own "
      + "io.kavro.serde.subject.ContextNameStrategy.";

  public static final String SPECIFIC_AVRO_READER_CONFIG = "specific.avro.reader";
  private static final String SPECIFIC_AVRO_READER_DOC = "Deserializer decodes into generated SpecificRecord "
      + "classes, found by the writer schema's full name or given by specific.avro.key.type / value.type; the "
      + "records of a union, array or map each as their generated class.";

  public static final String SPECIFIC_AVRO_KEY_TYPE_CONFIG = "specific.avro.key.type";
  public static final String SPECIFIC_AVRO_VALUE_TYPE_CONFIG = "specific.avro.value.type";
  private static final String SPECIFIC_AVRO_TYPE_DOC = "The SpecificRecord class to decode into, whatever the "
      + "writer schema's name; needs specific.avro.reader=true.";

  public static final String KEY_READER_SCHEMA_CONFIG = "key.reader.schema";
  public static final String VALUE_READER_SCHEMA_CONFIG = "value.reader.schema";
  private static final String READER_SCHEMA_DOC = "Reader schema to project records onto, with Avro schema "
      + "resolution: inline JSON, or 'file:<path>' or 'classpath:<resource>'.";

  public static final String SCHEMA_REFLECTION_CONFIG = "schema.reflection";
  private static final String SCHEMA_REFLECTION_DOC = "Derive schemas from plain Java classes and records by "
      + "reflection, and decode into them.";

  public static final String AVRO_REFLECTION_ALLOW_NULL_CONFIG = "avro.reflection.allow.null";
  private static final String AVRO_REFLECTION_ALLOW_NULL_DOC = "With schema.reflection, every field is "
      + "nullable.";

  public static final String AVRO_USE_LOGICAL_TYPE_CONVERTERS_CONFIG = "avro.use.logical.type.converters";
  private static final String AVRO_USE_LOGICAL_TYPE_CONVERTERS_DOC = "Decimals, dates, times, timestamps "
      + "and uuids of generic records are read as BigDecimal, LocalDate, LocalTime, Instant, LocalDateTime and "
      + "UUID, and written from them. false (Confluent's and Avro's default): as their underlying ByteBuffer, "
      + "int, long and Utf8.";

  public static final String AVRO_FAIL_ON_TRAILING_DATA_CONFIG = "avro.fail.on.trailing.data";
  private static final String AVRO_FAIL_ON_TRAILING_DATA_DOC = "Deserializer refuses a record with bytes left "
      + "after the datum, as a MalformedPayloadException. Kavro's default is true, Confluent's false: no Avro "
      + "writer leaves bytes after a datum, so they mean a corrupt record or the wrong writer schema.";

  public static final String AVRO_FAST_CODEC_CONFIG = "avro.fast.codec";
  private static final String AVRO_FAST_CODEC_DOC = "Encode and decode with codecs compiled for each schema "
      + "(and each writer/reader pair) instead of Avro's generic datum writers and readers. Same bytes and "
      + "same values; schemas they do not cover, and reflection, use Avro's.";

  public static final String RULE_EXECUTORS_CONFIG = RuleSettings.EXECUTORS;
  private static final String RULE_EXECUTORS_DOC = "Names of rule executors to make beside those found on the "
      + "class path, each with rule.executors.<name>.class and optional rule.executors.<name>.param.*; an executor "
      + "named after a rule runs that rule.";
  public static final String RULE_ACTIONS_CONFIG = RuleSettings.ACTIONS;
  private static final String RULE_ACTIONS_DOC = "Names of rule actions to make beside NONE, ERROR and those found "
      + "on the class path (DLQ with kavro-rules), each with rule.actions.<name>.class and "
      + "rule.actions.<name>.param.*.";
  public static final String RULE_SERVICE_LOADER_ENABLE_CONFIG = RuleSettings.SERVICE_LOADER;
  private static final String RULE_SERVICE_LOADER_ENABLE_DOC = "Rule executors and actions on the class path "
      + "(kavro-rules: CEL, CEL_FIELD, ENCRYPT, ENCRYPT_PAYLOAD, JSONATA, DLQ) are found by ServiceLoader and "
      + "configured with rule.executors._default_.param.* and rule.executors._<TYPE>_.param.*.";
  public static final String RULE_METRICS_ENABLE_CONFIG = RuleSettings.METRICS;
  private static final String RULE_METRICS_ENABLE_DOC = "Count every rule's executions, successes, failures, skips "
      + "and actions among the client's metrics, under Confluent's names and tags (docs/metrics.md): on "
      + "kafka-clients and Kafka Connect workers 4.1 and later, which hand plugins their metrics (KIP-877); the "
      + "Connect converter's among its worker's. Set to false to count nothing.";
  public static final String EXECUTION_ENVIRONMENT_CONFIG = RuleSettings.ENVIRONMENT;
  private static final String EXECUTION_ENVIRONMENT_DOC = "Where this serde runs, for rule sets whose enableAt "
      + "names one place (CLIENT, GATEWAY, SERVER): a rule set meant for another place is skipped. Kavro's default "
      + "is CLIENT, as Confluent's JavaScript client counts itself; Confluent's Java serde has none, and so skips "
      + "every rule set that is not enableAt=ALL.";

  public static final String VALIDATION_RULES_EXECUTION_CONFIG = "validation.rules.execution";
  private static final String VALIDATION_RULES_EXECUTION_DOC = "When the serializer runs the inline validation "
      + "rules of the schema (confluent:rules on a record or a field: CEL checks of this): DISABLED, "
      + "BEFORE_DOMAIN_RULES (on the message as given, before the rule set's domain rules) or AFTER_DOMAIN_RULES "
      + "(on the message the domain rules gave). Needs kavro-rules. A violation fails the record with an "
      + "InlineValidationException.";
  public static final String VALIDATION_RULES_EXECUTOR_CLASS_CONFIG = "validation.rules.executor.class";
  private static final String VALIDATION_RULES_EXECUTOR_CLASS_DOC = "The validator of inline validation rules: "
      + "Confluent's default name stands for kavro-rules' CEL validator (found by ServiceLoader); another name, a "
      + "class implementing io.kavro.serde.rules.InlineValidator.";
  public static final String VALIDATION_RULES_FAIL_FAST_CONFIG = "validation.rules.fail.fast";
  private static final String VALIDATION_RULES_FAIL_FAST_DOC = "Stop inline validation at the first violation "
      + "and report only it; false reports every violation of the record.";

  private static final java.util.List<String> CLASS_KEYS = java.util.List.of(KEY_SUBJECT_NAME_STRATEGY_CONFIG,
      VALUE_SUBJECT_NAME_STRATEGY_CONFIG, SPECIFIC_AVRO_KEY_TYPE_CONFIG, SPECIFIC_AVRO_VALUE_TYPE_CONFIG,
      RegistryConfig.BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, KEY_FRAMING_RESOLVER_CONFIG,
      VALUE_FRAMING_RESOLVER_CONFIG, CONTEXT_NAME_STRATEGY_CONFIG, VALIDATION_RULES_EXECUTOR_CLASS_CONFIG);

  /** The serde's own keys, which this class parses; the registry client parses its own keys itself. */
  private static final ConfigDef CONFIG = define(new ConfigDef());
  /** Every key, the registry client's too: what {@link #shownValues()} shows. */
  private static final ConfigDef ALL_KEYS = configDef();

  private final boolean isKey;
  private final RegistryConfig registryConfig;
  private final RuleSettings ruleSettings;
  private final boolean autoRegisterSchemas;
  private final boolean useLatestVersion;
  private final int useSchemaId;
  private final java.util.UUID useSchemaGuid;
  private final boolean idCompatibilityStrict;
  private final Map<String, String> latestWithMetadata;
  private final boolean latestCompatibilityStrict;
  private final boolean removeJavaProperties;
  private final boolean schemaIdInHeader;
  private final boolean schemaIdFromHeader;
  private final SchemaIdPrefix schemaIdPrefix;
  private final Class<? extends FramingResolver> framingResolver;
  private final SubjectNameStrategy subjectNameStrategy;
  private final io.kavro.serde.subject.ContextNameStrategy contextNameStrategy;
  private final boolean specificAvroReader;
  private final Schema readerSchema;
  private final Class<? extends SpecificRecord> specificType;
  private final boolean schemaReflection;
  private final boolean reflectionAllowNull;
  private final boolean useLogicalTypeConverters;
  private final boolean fastCodec;
  private final boolean failOnTrailingData;
  private final SortedMap<String, String> shownValues;
  private final InlineValidation.Execution validationRulesExecution;

  /**
   * Parses the configuration of the key ({@code isKey}) or value side, for a serde that may write and read: every
   * Confluent key that Kavro does not honour is checked.
   */
  public AvroSerdeConfig(Map<String, ?> originals, boolean isKey) {
    this(originals, isKey, ConfluentKeys.Side.BOTH);
  }

  /**
   * Parses the configuration of a plugin that only writes or only reads: Confluent's keys that act only on the
   * other side pass, as Confluent's serializer and deserializer each ignore the other's.
   */
  AvroSerdeConfig(Map<String, ?> originals, boolean isKey, ConfluentKeys.Side role) {
    super(CONFIG, classesAsNames(originals), false);
    // Confluent's keys that Kavro does not honour: refused or warned, by name
    ConfluentKeys.check(originals, role);
    this.isKey = isKey;
    this.registryConfig = RegistryKeys.registryConfig(originals);
    this.autoRegisterSchemas = getBoolean(AUTO_REGISTER_SCHEMAS_CONFIG);
    this.useLatestVersion = getBoolean(USE_LATEST_VERSION_CONFIG);
    this.useSchemaId = getInt(USE_SCHEMA_ID_CONFIG);
    this.useSchemaGuid = guid(USE_SCHEMA_GUID_CONFIG, getString(USE_SCHEMA_GUID_CONFIG));
    this.idCompatibilityStrict = getBoolean(ID_COMPATIBILITY_STRICT_CONFIG);
    this.latestWithMetadata = metadata(getString(USE_LATEST_WITH_METADATA_CONFIG));
    this.latestCompatibilityStrict = getBoolean(LATEST_COMPATIBILITY_STRICT_CONFIG);
    this.removeJavaProperties = getBoolean(AVRO_REMOVE_JAVA_PROPERTIES_CONFIG);
    String idSerializerKey = isKey ? KEY_SCHEMA_ID_SERIALIZER_CONFIG : VALUE_SCHEMA_ID_SERIALIZER_CONFIG;
    this.schemaIdInHeader = idChoice(idSerializerKey, getString(idSerializerKey), HEADER_SERIALIZER,
        PREFIX_SERIALIZER);
    String idDeserializerKey = isKey ? KEY_SCHEMA_ID_DESERIALIZER_CONFIG : VALUE_SCHEMA_ID_DESERIALIZER_CONFIG;
    this.schemaIdFromHeader = idChoice(idDeserializerKey, getString(idDeserializerKey), DUAL_DESERIALIZER,
        PREFIX_DESERIALIZER);
    String prefixKey = isKey ? KEY_SCHEMA_ID_PREFIX_CONFIG : VALUE_SCHEMA_ID_PREFIX_CONFIG;
    this.schemaIdPrefix = SchemaIdPrefix.parse(prefixKey, getString(prefixKey));
    String resolverKey = isKey ? KEY_FRAMING_RESOLVER_CONFIG : VALUE_FRAMING_RESOLVER_CONFIG;
    this.framingResolver = framingResolver(resolverKey, originals.get(resolverKey) instanceof Class<?> type ? type
        : loadClass(resolverKey, getString(resolverKey)));
    this.specificAvroReader = getBoolean(SPECIFIC_AVRO_READER_CONFIG);
    this.schemaReflection = getBoolean(SCHEMA_REFLECTION_CONFIG);
    this.reflectionAllowNull = getBoolean(AVRO_REFLECTION_ALLOW_NULL_CONFIG);
    this.useLogicalTypeConverters = getBoolean(AVRO_USE_LOGICAL_TYPE_CONVERTERS_CONFIG);
    this.fastCodec = getBoolean(AVRO_FAST_CODEC_CONFIG);
    this.failOnTrailingData = getBoolean(AVRO_FAIL_ON_TRAILING_DATA_CONFIG);
    String strategyKey = isKey ? KEY_SUBJECT_NAME_STRATEGY_CONFIG : VALUE_SUBJECT_NAME_STRATEGY_CONFIG;
    this.contextNameStrategy = io.kavro.serde.subject.ContextNameStrategies.create(CONTEXT_NAME_STRATEGY_CONFIG,
        originals.get(CONTEXT_NAME_STRATEGY_CONFIG) instanceof Class<?> type ? type
            : getString(CONTEXT_NAME_STRATEGY_CONFIG), originals);
    SubjectNameStrategy named = internalTopics(originals, SubjectNameStrategies.create(strategyKey,
        originals.get(strategyKey) instanceof Class<?> type ? type : getString(strategyKey), originals));
    // Confluent's serde qualifies every subject it names with the topic's context; none, by default, costs nothing.
    this.subjectNameStrategy = contextNameStrategy instanceof io.kavro.serde.subject.NullContextNameStrategy ? named
        : new io.kavro.serde.subject.ContextSubjects(contextNameStrategy, named);
    String readerKey = isKey ? KEY_READER_SCHEMA_CONFIG : VALUE_READER_SCHEMA_CONFIG;
    this.readerSchema = loadSchema(readerKey, getString(readerKey));
    String typeKey = isKey ? SPECIFIC_AVRO_KEY_TYPE_CONFIG : SPECIFIC_AVRO_VALUE_TYPE_CONFIG;
    this.specificType = specificType(typeKey, originals.get(typeKey) instanceof Class<?> type ? type
        : loadClass(typeKey, getString(typeKey)));
    if (specificType != null && !specificAvroReader()) {
      throw new ConfigException(typeKey, specificType.getName(), "needs " + SPECIFIC_AVRO_READER_CONFIG + "=true");
    }
    this.ruleSettings = new RuleSettings(originals, getBoolean(RULE_SERVICE_LOADER_ENABLE_CONFIG),
        getString(EXECUTION_ENVIRONMENT_CONFIG), getList(RULE_EXECUTORS_CONFIG), getList(RULE_ACTIONS_CONFIG),
        registryConfig.ignoreRules(), getBoolean(RULE_METRICS_ENABLE_CONFIG));
    this.validationRulesExecution = InlineValidation.Execution.valueOf(
        getString(VALIDATION_RULES_EXECUTION_CONFIG).trim().toUpperCase(java.util.Locale.ROOT));
    this.shownValues = shownValues(values(), originals);
  }

  /**
   * The inline validation this configuration asks for, made now, or null when {@code validation.rules.execution}
   * is {@code DISABLED}.
   *
   * @throws ConfigException when no validator can be had (kavro-rules is missing)
   */
  InlineValidation inlineValidation() {
    return InlineValidation.of(validationRulesExecution, getBoolean(VALIDATION_RULES_FAIL_FAST_CONFIG),
        getString(VALIDATION_RULES_EXECUTOR_CLASS_CONFIG),
        ruleSettings.pluginConfigs(RuleSettings.EXECUTORS, "CEL", RuleSettings.DEFAULT));
  }

  /** The data contract settings, parsed once. */
  RuleSettings ruleSettings() {
    return ruleSettings;
  }

  private SubjectNameStrategy internalTopics(Map<?, ?> originals, SubjectNameStrategy configured) {
    String choice = getString(STREAMS_INTERNAL_TOPICS_SUBJECT_CONFIG);
    if (choice.equals("topic")) {
      return configured;
    }
    Object applicationId = originals.get(STREAMS_APPLICATION_ID);
    if (applicationId == null || applicationId.toString().isBlank()) {
      throw new ConfigException(STREAMS_INTERNAL_TOPICS_SUBJECT_CONFIG, choice, "needs " + STREAMS_APPLICATION_ID
          + " in the serde's configuration, to tell the application's internal topics from others: configure the "
          + "serde with the Streams configuration");
    }
    return new StreamsInternalTopicSubjects(applicationId.toString(), configured);
  }

  static ConfigDef define(ConfigDef def) {
    String strategy = AssociatedNameStrategy.class.getName();
    return def
        .define(AUTO_REGISTER_SCHEMAS_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, AUTO_REGISTER_SCHEMAS_DOC)
        .define(USE_LATEST_VERSION_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, USE_LATEST_VERSION_DOC)
        .define(USE_SCHEMA_ID_CONFIG, Type.INT, -1, Importance.LOW, USE_SCHEMA_ID_DOC)
        .define(USE_SCHEMA_GUID_CONFIG, Type.STRING, null, Importance.LOW, USE_SCHEMA_GUID_DOC)
        .define(ID_COMPATIBILITY_STRICT_CONFIG, Type.BOOLEAN, true, Importance.LOW, ID_COMPATIBILITY_STRICT_DOC)
        .define(USE_LATEST_WITH_METADATA_CONFIG, Type.STRING, null, Importance.LOW, USE_LATEST_WITH_METADATA_DOC)
        .define(LATEST_COMPATIBILITY_STRICT_CONFIG, Type.BOOLEAN, true, Importance.LOW,
            LATEST_COMPATIBILITY_STRICT_DOC)
        .define(KEY_SCHEMA_ID_SERIALIZER_CONFIG, Type.STRING, PREFIX_SERIALIZER, Importance.LOW,
            SCHEMA_ID_SERIALIZER_DOC)
        .define(VALUE_SCHEMA_ID_SERIALIZER_CONFIG, Type.STRING, PREFIX_SERIALIZER, Importance.LOW,
            SCHEMA_ID_SERIALIZER_DOC)
        .define(KEY_SCHEMA_ID_DESERIALIZER_CONFIG, Type.STRING, DUAL_DESERIALIZER, Importance.LOW,
            SCHEMA_ID_DESERIALIZER_DOC)
        .define(VALUE_SCHEMA_ID_DESERIALIZER_CONFIG, Type.STRING, DUAL_DESERIALIZER, Importance.LOW,
            SCHEMA_ID_DESERIALIZER_DOC)
        .define(KEY_SCHEMA_ID_PREFIX_CONFIG, Type.STRING, SchemaIdPrefix.CONFLUENT.configValue(), Importance.LOW,
            SCHEMA_ID_PREFIX_DOC)
        .define(VALUE_SCHEMA_ID_PREFIX_CONFIG, Type.STRING, SchemaIdPrefix.CONFLUENT.configValue(), Importance.LOW,
            SCHEMA_ID_PREFIX_DOC)
        .define(KEY_FRAMING_RESOLVER_CONFIG, Type.STRING, null, Importance.LOW, FRAMING_RESOLVER_DOC)
        .define(VALUE_FRAMING_RESOLVER_CONFIG, Type.STRING, null, Importance.LOW, FRAMING_RESOLVER_DOC)
        .define(KEY_SUBJECT_NAME_STRATEGY_CONFIG, Type.STRING, strategy, Importance.MEDIUM, SUBJECT_NAME_STRATEGY_DOC)
        .define(VALUE_SUBJECT_NAME_STRATEGY_CONFIG, Type.STRING, strategy, Importance.MEDIUM,
            SUBJECT_NAME_STRATEGY_DOC)
        .define(CONTEXT_NAME_STRATEGY_CONFIG, Type.STRING,
            io.kavro.serde.subject.NullContextNameStrategy.class.getName(), Importance.MEDIUM,
            CONTEXT_NAME_STRATEGY_DOC)
        .define(STREAMS_INTERNAL_TOPICS_SUBJECT_CONFIG, Type.STRING, "topic",
            ConfigDef.ValidString.in("topic", "record"), Importance.LOW, STREAMS_INTERNAL_TOPICS_SUBJECT_DOC)
        .define(SPECIFIC_AVRO_READER_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, SPECIFIC_AVRO_READER_DOC)
        .define(SPECIFIC_AVRO_KEY_TYPE_CONFIG, Type.STRING, null, Importance.LOW, SPECIFIC_AVRO_TYPE_DOC)
        .define(SPECIFIC_AVRO_VALUE_TYPE_CONFIG, Type.STRING, null, Importance.LOW, SPECIFIC_AVRO_TYPE_DOC)
        .define(KEY_READER_SCHEMA_CONFIG, Type.STRING, null, Importance.LOW, READER_SCHEMA_DOC)
        .define(VALUE_READER_SCHEMA_CONFIG, Type.STRING, null, Importance.LOW, READER_SCHEMA_DOC)
        .define(SCHEMA_REFLECTION_CONFIG, Type.BOOLEAN, false, Importance.LOW, SCHEMA_REFLECTION_DOC)
        .define(AVRO_REFLECTION_ALLOW_NULL_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            AVRO_REFLECTION_ALLOW_NULL_DOC)
        .define(AVRO_REMOVE_JAVA_PROPERTIES_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            AVRO_REMOVE_JAVA_PROPERTIES_DOC)
        .define(AVRO_USE_LOGICAL_TYPE_CONVERTERS_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            AVRO_USE_LOGICAL_TYPE_CONVERTERS_DOC)
        .define(AVRO_FAIL_ON_TRAILING_DATA_CONFIG, Type.BOOLEAN, true, Importance.LOW,
            AVRO_FAIL_ON_TRAILING_DATA_DOC)
        .define(AVRO_FAST_CODEC_CONFIG, Type.BOOLEAN, true, Importance.LOW, AVRO_FAST_CODEC_DOC)
        .define(RULE_EXECUTORS_CONFIG, Type.LIST, "", Importance.LOW, RULE_EXECUTORS_DOC)
        .define(RULE_ACTIONS_CONFIG, Type.LIST, "", Importance.LOW, RULE_ACTIONS_DOC)
        .define(RULE_SERVICE_LOADER_ENABLE_CONFIG, Type.BOOLEAN, true, Importance.LOW,
            RULE_SERVICE_LOADER_ENABLE_DOC)
        .define(RULE_METRICS_ENABLE_CONFIG, Type.BOOLEAN, true, Importance.LOW, RULE_METRICS_ENABLE_DOC)
        .define(EXECUTION_ENVIRONMENT_CONFIG, Type.STRING, "CLIENT", ConfigDef.ValidString.in("CLIENT", "GATEWAY",
            "SERVER"), Importance.LOW, EXECUTION_ENVIRONMENT_DOC)
        .define(VALIDATION_RULES_EXECUTION_CONFIG, Type.STRING, "DISABLED", ConfigDef.CaseInsensitiveValidString
            .in("DISABLED", "BEFORE_DOMAIN_RULES", "AFTER_DOMAIN_RULES"), Importance.MEDIUM,
            VALIDATION_RULES_EXECUTION_DOC)
        .define(VALIDATION_RULES_EXECUTOR_CLASS_CONFIG, Type.STRING, InlineValidation.CONFLUENT_VALIDATOR,
            Importance.LOW, VALIDATION_RULES_EXECUTOR_CLASS_DOC)
        .define(VALIDATION_RULES_FAIL_FAST_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            VALIDATION_RULES_FAIL_FAST_DOC);
  }

  /** Every key: the registry client's and the serde's. */
  public static ConfigDef configDef() {
    return define(RegistryKeys.define(new ConfigDef()));
  }

  /**
   * Every key of {@link #configDef()} with its value in effect, as text for a log, sorted by key: the serde's keys as
   * parsed, the registry client's as given (the client refuses any it cannot use), defaults for the keys not given.
   * Secrets ({@code PASSWORD} keys: user info, tokens, passwords, key material) show as {@code [hidden]}, URLs
   * without their user info.
   */
  public SortedMap<String, String> shownValues() {
    return shownValues;
  }

  private static SortedMap<String, String> shownValues(Map<String, ?> parsed, Map<String, ?> originals) {
    SortedMap<String, String> shown = new TreeMap<>();
    for (ConfigDef.ConfigKey key : ALL_KEYS.configKeys().values()) {
      Object value = parsed.containsKey(key.name) ? parsed.get(key.name)
          : originals.containsKey(key.name) ? originals.get(key.name) : key.defaultValue;
      shown.put(key.name, shown(key, value));
    }
    return Collections.unmodifiableSortedMap(shown);
  }

  private static String shown(ConfigDef.ConfigKey key, Object value) {
    if (value == null) {
      return "null";
    }
    if (key.type == Type.PASSWORD) {
      return "[hidden]";
    }
    if (value instanceof Class<?> type) {
      return type.getName();
    }
    if (key.name.endsWith(".url")) {
      return value instanceof List<?> urls
          ? urls.stream().map(url -> RegistryConfig.redact(String.valueOf(url).strip())).toList().toString()
          : shownUrls(value.toString());
    }
    return String.valueOf(value); // a Password or Secret given to another key shows as [hidden] too
  }

  /** A comma-separated list of URLs, each stripped and without its user info. */
  static String shownUrls(String urls) {
    return Arrays.stream(urls.split(",", -1)).map(url -> RegistryConfig.redact(url.strip()))
        .collect(Collectors.joining(","));
  }

  /** The registry client's part of this configuration, parsed once. */
  public RegistryConfig registryConfig() {
    return registryConfig;
  }

  public boolean isKey() {
    return isKey;
  }

  public boolean autoRegisterSchemas() {
    return autoRegisterSchemas;
  }

  public boolean useLatestVersion() {
    return useLatestVersion;
  }

  /** The schema id to write every record with ({@code use.schema.id}), or -1. */
  public int useSchemaId() {
    return useSchemaId;
  }

  /** The schema GUID to write every record with ({@code use.schema.guid}), or {@code null}. */
  public java.util.UUID useSchemaGuid() {
    return useSchemaGuid;
  }

  /**
   * The GUID configured as {@code value} under {@code key}, or {@code null} when unset (or blank).
   *
   * @throws ConfigException when it is no GUID
   */
  private static java.util.UUID guid(String key, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return java.util.UUID.fromString(value.trim());
    } catch (IllegalArgumentException e) {
      throw new ConfigException(key, value, "must be a schema GUID such as 550e8400-e29b-41d4-a716-446655440000");
    }
  }

  public boolean idCompatibilityStrict() {
    return idCompatibilityStrict;
  }

  /** The metadata that picks the subject's version ({@code use.latest.with.metadata}); empty when unset. */
  public Map<String, String> latestWithMetadata() {
    return latestWithMetadata;
  }

  public boolean latestCompatibilityStrict() {
    return latestCompatibilityStrict;
  }

  public boolean removeJavaProperties() {
    return removeJavaProperties;
  }

  /** Whether the serializer writes the schema id in a record header ({@code HeaderSchemaIdSerializer}). */
  public boolean schemaIdInHeader() {
    return schemaIdInHeader;
  }

  /** Whether the deserializer reads the schema id from a record header when there is one. */
  public boolean schemaIdFromHeader() {
    return schemaIdFromHeader;
  }

  /**
   * The subjects this serde registers and looks up: the configured strategy's, in the context that
   * {@link #contextNameStrategy()} gives the topic ({@link io.kavro.serde.subject.ContextSubjects}) unless that is
   * none.
   */
  public SubjectNameStrategy subjectNameStrategy() {
    return subjectNameStrategy;
  }

  /** The configured {@code context.name.strategy}: {@link io.kavro.serde.subject.NullContextNameStrategy} by default. */
  public io.kavro.serde.subject.ContextNameStrategy contextNameStrategy() {
    return contextNameStrategy;
  }

  public boolean specificAvroReader() {
    return specificAvroReader;
  }

  /** The configured SpecificRecord class for this side, or {@code null}. */
  public Class<? extends SpecificRecord> specificType() {
    return specificType;
  }

  /** The configured reader schema for this side, or {@code null}. */
  public Schema readerSchema() {
    return readerSchema;
  }

  public boolean schemaReflection() {
    return schemaReflection;
  }

  public boolean reflectionAllowNull() {
    return reflectionAllowNull;
  }

  public boolean useLogicalTypeConverters() {
    return useLogicalTypeConverters;
  }

  public boolean failOnTrailingData() {
    return failOnTrailingData;
  }

  /** What the deserializer reads after a {@code 0x00} magic byte ({@code key.schema.id.prefix} / {@code value...}). */
  public SchemaIdPrefix schemaIdPrefix() {
    return schemaIdPrefix;
  }

  /** The {@link FramingResolver} class for this side, or {@code null}. */
  public Class<? extends FramingResolver> framingResolver() {
    return framingResolver;
  }

  public boolean fastCodec() {
    return fastCodec;
  }

  public int maxSchemasPerSubject() {
    return registryConfig.maxSchemasPerSubject();
  }

  private static Schema loadSchema(String key, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String text;
    try {
      if (value.startsWith("file:")) {
        text = Files.readString(Path.of(value.substring("file:".length())));
      } else if (value.startsWith("classpath:")) {
        String resource = value.substring("classpath:".length());
        try (InputStream in = Utils.getContextOrKafkaClassLoader().getResourceAsStream(resource)) {
          if (in == null) {
            throw new ConfigException(key, value, "no such resource on the classpath");
          }
          text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
      } else {
        text = value;
      }
    } catch (IOException e) {
      throw new ConfigException(key, value, "cannot read the schema: " + e);
    }
    try {
      return new Schema.Parser().parse(text);
    } catch (org.apache.avro.AvroRuntimeException e) {
      throw new ConfigException(key, value.length() > 200 ? value.substring(0, 200) + "..." : value,
          "not a valid Avro schema: " + e.getMessage());
    }
  }

  private static Class<?> loadClass(String key, String className) {
    if (className == null || className.isBlank()) {
      return null;
    }
    try {
      return Class.forName(className.trim(), true, Utils.getContextOrKafkaClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ConfigException(key, className, "class not found");
    }
  }

  private static Class<? extends SpecificRecord> specificType(String key, Class<?> type) {
    if (type == null) {
      return null;
    }
    if (!SpecificRecord.class.isAssignableFrom(type)) {
      throw new ConfigException(key, type.getName(), "is not a generated SpecificRecord class");
    }
    return type.asSubclass(SpecificRecord.class);
  }

  private static Class<? extends FramingResolver> framingResolver(String key, Class<?> type) {
    if (type == null) {
      return null;
    }
    if (!FramingResolver.class.isAssignableFrom(type)) {
      throw new ConfigException(key, type.getName(), "is not a " + FramingResolver.class.getName());
    }
    return type.asSubclass(FramingResolver.class);
  }

  /** True for {@code yes}, false for {@code no}, by simple or Confluent class name; anything else is refused. */
  private static boolean idChoice(String key, String value, String yes, String no) {
    String simple = value.trim().startsWith(CONFLUENT_ID_PACKAGE)
        ? value.trim().substring(CONFLUENT_ID_PACKAGE.length()) : value.trim();
    if (simple.equals(yes) || simple.equals(no)) {
      return simple.equals(yes);
    }
    throw new ConfigException(key, value, "must be " + yes + " or " + no + " (Confluent's class names are "
        + "accepted too)");
  }

  /** Confluent's map syntax, {@code key=value,key2=value2}; an empty map for none. */
  private static Map<String, String> metadata(String spec) {
    if (spec == null || spec.isBlank()) {
      return Map.of();
    }
    Map<String, String> entries = new java.util.LinkedHashMap<>();
    for (String entry : spec.split(",")) {
      int eq = entry.indexOf('=');
      if (eq <= 0 || entry.substring(0, eq).isBlank()) {
        throw new ConfigException(USE_LATEST_WITH_METADATA_CONFIG, spec, "each entry must be 'key=value'");
      }
      entries.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
    }
    return java.util.Collections.unmodifiableMap(entries);
  }

  /**
   * The originals with {@code Class} values of the class-valued keys as their names, for
   * {@link AbstractConfig}'s parsing. Those keys take a class name, or a {@code Class} as Confluent's
   * {@code Type.CLASS} keys do; the {@code Class} itself is then used as it is, so a class of another class
   * loader (a Connect plugin's) is never looked up again by name.
   */
  private static Map<String, ?> classesAsNames(Map<String, ?> originals) {
    Map<String, Object> copy = new java.util.HashMap<>(originals);
    for (String key : CLASS_KEYS) {
      if (copy.get(key) instanceof Class<?> type) {
        copy.put(key, type.getName());
      }
    }
    return copy;
  }
}
