package io.kavro.connect;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.AvroSerdeConfig;
import io.kavro.serde.AvroValue;
import io.kavro.serde.ConfigKeyCheck;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RegistryClientOwner;
import io.kavro.serde.RuleMetricsOwner;
import io.kavro.serde.SettingsLog;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Monitorable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.storage.Converter;

/**
 * A Kafka Connect {@link Converter} between Connect data and the schema-registry Avro wire format, through
 * the same code path and registry subjects as {@link KafkaAvroSerializer} and {@link KafkaAvroDeserializer}.
 *
 * <p>Configure it in worker or connector properties under Connect's prefixes, with the serde's keys:
 * <pre>
 * value.converter=io.kavro.connect.AvroConverter
 * value.converter.schema.registry.url=http://registry:8081
 * </pre>
 *
 * <p><b>Mapping.</b> Confluent's {@code AvroData} conventions, under its keys and with its defaults
 * ({@code connect.meta.data}, {@code enhanced.avro.schema.support}, {@code scrub.invalid.names},
 * {@code ignore.default.for.nullables}, {@code generalized.sum.type.support}, {@code flatten.singleton.unions},
 * {@code discard.type.doc.default}, {@code allow.optional.map.keys}, {@code schemas.cache.config}): the same
 * Avro schema text as Confluent's converter for the same Connect schema, and the same Connect schema (with the
 * subject's version) for the same Avro schema. Data without a schema is Confluent's {@code Anything} record.
 * Schema conversions are cached.
 *
 * <p><b>Errors.</b> A value that does not match its schema, or a record the registry refuses, is a
 * {@link DataException}; a registry that cannot be reached (or that has answered as a registry and now answers a
 * proxy's 404) is a Connect {@link RetriableException}, which the worker retries for {@code errors.retry.timeout}.
 * A registry URL that has never answered as a registry is a configuration error, but no record's fault: a
 * {@link RetriableException} too, so that no record is skipped past it, whose message says to fix
 * {@code schema.registry.url}, logged at ERROR once; under the defaults ({@code errors.tolerance=none},
 * {@code errors.retry.timeout=0}) it fails the task at once. On Connect 3.x, which drops a record whose retries
 * ran out even with {@code errors.tolerance=none} (KAFKA-18073), both are thrown as an {@code Error} instead, which
 * fails the task; so is a class that fails to link on the way (a deployment fault), on every version.
 * A {@code null} value is a tombstone both ways.
 *
 * <p>Thread-safe.
 */
public final class AvroConverter implements Converter, Monitorable {
  /**
   * The serde's keys, the mapping's, and {@code converter.type}, which Connect may add; Connect removes its
   * {@code key.converter.} or {@code value.converter.} prefix before the converter sees a key.
   */
  private static final ConfigKeyCheck KEY_CHECK = ConfigKeyCheck.SERDE.withKeys(converterKeys());
  private final RegistryClientOwner clients;
  private final ConverterMetrics metrics = new ConverterMetrics();
  /**
   * Its rules' counts ({@code rule.metrics.enable}), shared by both halves and by the halves of every configure:
   * a rule's counts go on across configures, under metrics registered once.
   */
  private final RuleMetricsOwner rules = new RuleMetricsOwner();
  private volatile State state;

  private record State(KafkaAvroSerializer serializer, KafkaAvroDeserializer deserializer, ConnectAvroData data,
      boolean isKey, ConnectFailures failures) {}

  /** For Connect: configured through {@link #configure(Map, boolean)}. */
  public AvroConverter() {
    this.clients = new RegistryClientOwner(null);
  }

  /** Uses {@code client} instead of creating one from {@code schema.registry.url}, as Confluent's converter can. */
  public AvroConverter(SchemaRegistryClient client) {
    this.clients = new RegistryClientOwner(java.util.Objects.requireNonNull(client, "client"));
  }

  @Override
  public ConfigDef config() {
    return ConverterConfig.configDef();
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    // The mapping works on Avro's raw generic data, whatever the user set for the serde.
    Map<String, Object> copy = new HashMap<>(configs);
    copy.put(AvroSerdeConfig.AVRO_USE_LOGICAL_TYPE_CONVERTERS_CONFIG, false);
    copy.put(AvroSerdeConfig.SPECIFIC_AVRO_READER_CONFIG, false);
    copy.remove(AvroSerdeConfig.SPECIFIC_AVRO_KEY_TYPE_CONFIG);
    copy.remove(AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE_CONFIG);
    copy.put(AvroSerdeConfig.SCHEMA_REFLECTION_CONFIG, false);
    SettingsLog.warnSuspectKeys(KEY_CHECK, configs.keySet());
    AvroSerdeConfig config = new AvroSerdeConfig(copy, isKey);
    ConverterConfig mapping = new ConverterConfig(configs);
    SettingsLog.logSettings("AvroConverter", isKey, shownValues(config, mapping));
    State previous = state;
    SchemaRegistryClient client = clients.client(config); // closes the client of an earlier configure
    state = new State(new KafkaAvroSerializer(client, config, rules),
        new KafkaAvroDeserializer(client, config, rules), new ConnectAvroData(mapping), isKey,
        new ConnectFailures("AvroConverter (" + (isKey ? "key" : "value") + " side)", "schema.registry.url"));
    closeSerdes(previous);
  }

  /** Closes the serdes of {@code s}, if any: their listeners on the client, their framing resolver, their rules. */
  private static void closeSerdes(State s) {
    if (s != null) {
      org.apache.kafka.common.utils.Utils.closeQuietly(s.serializer(), "AvroConverter's serializer");
      org.apache.kafka.common.utils.Utils.closeQuietly(s.deserializer(), "AvroConverter's deserializer");
    }
  }

  private static Set<String> converterKeys() {
    Set<String> keys = new HashSet<>(ConverterConfig.configDef().names());
    keys.add(org.apache.kafka.connect.storage.ConverterConfig.TYPE_CONFIG);
    return keys;
  }

  /** The serde's settings in effect (those the mapping fixes included), and the mapping's. */
  private static Map<String, String> shownValues(AvroSerdeConfig config, ConverterConfig mapping) {
    Map<String, String> shown = new HashMap<>(config.shownValues());
    mapping.values().forEach((key, value) -> shown.put(key, String.valueOf(value)));
    return shown;
  }

  @Override
  public byte[] fromConnectData(String topic, org.apache.kafka.connect.data.Schema schema, Object value) {
    return fromConnectData(topic, null, schema, value);
  }

  /** With {@code HeaderSchemaIdSerializer}, the schema id goes to {@code headers}. */
  @Override
  public byte[] fromConnectData(String topic, Headers headers, org.apache.kafka.connect.data.Schema schema,
      Object value) {
    State s = state();
    if (value == null) {
      return null;
    }
    try {
      // No deep ConnectSchema.validateValue first, as Confluent's converter: the mapping checks each value as it
      // converts it (a wrong Java type, a null for a required schema, a struct of another schema), and the deep
      // walk cost as much again as the mapping (measured on S3).
      ConnectAvroData.ToAvro toAvro = s.data().toAvro(schema);
      // Written straight into the encoder when the schema has a writer; else mapped to Avro's generic data first.
      byte[] bytes = toAvro.writer() != null
          ? s.serializer().serialize(topic, headers, value, toAvro.schema(), toAvro.writer())
          : s.serializer().serialize(topic, headers, toAvro.mapper().map(value), toAvro.schema());
      metrics.serialized(bytes);
      return bytes;
    } catch (org.apache.kafka.common.errors.RetriableException e) {
      // The serde's RetriableSerdeException, or a plug-in's own (a framing resolver's timeout): Kafka's, which
      // Connect would not retry but tolerate as any exception.
      metrics.serializeFailed(e);
      throw s.failures().retriable(e.getMessage(), e);
    } catch (SerializationException e) {
      metrics.serializeFailed(e);
      throw s.failures().of("cannot convert the " + side(s) + " of topic '" + topic + "' to Avro: "
          + e.getMessage(), e);
    } catch (org.apache.avro.AvroRuntimeException | ClassCastException e) {
      metrics.serializeFailed(e);
      throw new DataException("cannot convert the " + side(s) + " of topic '" + topic + "' to Avro: "
          + e.getMessage(), e);
    } catch (DataException e) {
      metrics.serializeFailed(e);
      throw new DataException("cannot convert the " + side(s) + " of topic '" + topic + "' to Avro: "
          + e.getMessage(), e);
    }
  }

  @Override
  public SchemaAndValue toConnectData(String topic, byte[] value) {
    return toConnectData(topic, null, value);
  }

  /** Reads the schema id from the record's schema id header when it has one, else from the payload. */
  @Override
  public SchemaAndValue toConnectData(String topic, Headers headers, byte[] value) {
    State s = state();
    if (value == null) {
      return SchemaAndValue.NULL;
    }
    try {
      AvroValue read = s.deserializer().deserializeWithSchema(topic, headers, ByteBuffer.wrap(value));
      // With the version the topic's subject gives the writer schema, as Confluent's converter names it; cached.
      ConnectAvroData.ToConnect toConnect = s.data().toConnect(topic, read, s.deserializer());
      SchemaAndValue result = new SchemaAndValue(toConnect.schema(), toConnect.mapper().map(read.datum()));
      metrics.deserialized(value.length);
      return result;
    } catch (org.apache.kafka.common.errors.RetriableException e) {
      metrics.deserializeFailed(e);
      throw s.failures().retriable(e.getMessage(), e);
    } catch (SerializationException e) {
      metrics.deserializeFailed(e);
      throw s.failures().of(e.getMessage(), e);
    } catch (DataException e) {
      metrics.deserializeFailed(e);
      throw e;
    }
  }

  /**
   * Shows the converter's metrics among the worker's (KIP-877; Kafka Connect 4.1+): records and bytes each way,
   * errors by type, and the registry client's requests, errors, retries, failovers, latency and cache counters;
   * and, with {@code rule.metrics.enable} (the default), its data contract rules' counts, both ways, under
   * Confluent's names and tags. Connect calls it after {@link #configure}, and removes them when it closes the
   * converter.
   */
  @Override
  public void withPluginMetrics(PluginMetrics pluginMetrics) {
    metrics.register(pluginMetrics, clients);
    rules.register(pluginMetrics);
  }

  /** Closes its serializer and deserializer, and the registry client if this converter created it. Idempotent. */
  @Override
  public void close() {
    State s = state;
    state = null;
    closeSerdes(s);
    clients.close();
  }

  private State state() {
    State s = state;
    if (s == null) {
      throw new IllegalStateException("AvroConverter is not configured: call configure(configs, isKey) first");
    }
    return s;
  }

  private static String side(State s) {
    return s.isKey() ? "key" : "value";
  }
}
