package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.metrics.SerdeMetrics;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.ClusterResource;
import org.apache.kafka.common.ClusterResourceListener;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Monitorable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Serializes Avro data for Kafka in the schema-registry wire format: {@code 0x00}, the big-endian int32
 * schema id, then the Avro binary body, byte for byte what Confluent's {@code KafkaAvroSerializer} writes.
 *
 * <p>Name it in producer properties ({@code value.serializer=io.kavro.serde.KafkaAvroSerializer}) with at
 * least {@code schema.registry.url}; see {@link AvroSerdeConfig} for every key. Or construct it with a
 * {@link SchemaRegistryClient} of your own and call {@link #configure} for the other keys.
 *
 * <p><b>Data.</b> {@code GenericRecord}, generated {@code SpecificRecord}s, Avro enums, fixed and arrays;
 * {@code String}/{@code CharSequence}, {@code Integer}, {@code Long}, {@code Float}, {@code Double},
 * {@code Boolean}, {@code byte[]} and {@code ByteBuffer} (from position to limit); with
 * {@code schema.reflection=true}, plain Java classes and records. A {@code null} datum becomes a
 * {@code null} payload (a tombstone) without touching the registry.
 *
 * <p><b>Registry.</b> The datum's schema is registered under the subject that the configured
 * {@code SubjectNameStrategy} names ({@code auto.register.schemas=true}, the default), looked up
 * ({@code false}), or replaced by the subject's latest schema ({@code use.latest.version=true}). Each
 * (schema, topic) pair reaches the registry once; after that a record costs no registry call.
 *
 * <p><b>Errors.</b> A {@code SerializationException} that names the topic and the Java class for data that
 * does not fit its schema; a {@link SchemaRegistrationException} when the registry refuses the schema; a
 * {@link RetriableSerdeException}, caused by a {@code RegistryUnavailableException}, when the registry
 * cannot be reached.
 *
 * <p><b>Metrics.</b> A Kafka {@code Monitorable}: a client shows its record, byte, error, registry and cache
 * metrics with its own (group {@code plugins}); see {@code docs/metrics.md}.
 *
 * <p><b>Thread safety.</b> Thread-safe: one instance can serve every thread of a producer.
 */
public final class KafkaAvroSerializer implements Serializer<Object>, Monitorable, ClusterResourceListener {
  private final SerdeMetrics metrics = SerdeMetrics.serializer();
  /** Its rules' counts ({@code rule.metrics.enable}): the same across configures. */
  private final RuleMetrics rules;
  /** Whether it shows {@link #rules} through its client's metrics: not when a {@link RuleMetricsOwner} does. */
  private final boolean showsRules;
  /** Its engine and client; a serde configures its halves through it. */
  final ConfiguredPlugin<SerializerEngine> plugin;

  /** For Kafka: configured through {@link #configure(Map, boolean)}. */
  public KafkaAvroSerializer() {
    this(null, new RuleMetrics(), true);
  }

  /**
   * @param client the caller's client, or {@code null} to create one from the configuration
   * @param showsRules whether {@link #withPluginMetrics} shows {@code rules}: not when their owner does
   */
  private KafkaAvroSerializer(SchemaRegistryClient client, RuleMetrics rules, boolean showsRules) {
    this.rules = rules;
    this.showsRules = showsRules;
    this.plugin = new ConfiguredPlugin<>("KafkaAvroSerializer", ConfluentKeys.Side.WRITE, client,
        (registry, config) -> new SerializerEngine(registry, config, rules));
  }

  /**
   * Kafka tells the cluster id of the producer's or consumer's cluster: the resource namespace in which the
   * default subject name strategy ({@code AssociatedNameStrategy}) looks up the topic's association.
   */
  @Override
  public void onUpdate(ClusterResource clusterResource) {
    if (clusterResource != null) {
      plugin.clusterId(clusterResource.clusterId());
    }
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    plugin.configure(configs, isKey);
  }

  /** Uses {@code client} instead of creating one from {@code schema.registry.url}; still call configure. */
  public KafkaAvroSerializer(SchemaRegistryClient client) {
    this(Objects.requireNonNull(client, "client"), new RuleMetrics(), true);
  }

  /** Uses {@code client} and configures at once. */
  public KafkaAvroSerializer(SchemaRegistryClient client, Map<String, ?> configs, boolean isKey) {
    this(client);
    configure(configs, isKey);
  }

  /**
   * Uses {@code client} (which stays the caller's) and an already parsed configuration, and counts its rules into
   * {@code rules}, which shows them: this serializer does not, whatever client it is handed to. For the Connect
   * converter, which parses its configuration once for both halves and makes them anew on each configure;
   * applications use {@link #KafkaAvroSerializer(SchemaRegistryClient, Map, boolean)}.
   */
  public KafkaAvroSerializer(SchemaRegistryClient client, AvroSerdeConfig config, RuleMetricsOwner rules) {
    this(Objects.requireNonNull(client, "client"),
        Objects.requireNonNull(rules, "rules").metrics(), false);
    plugin.configure(client, config);
  }

  @Override
  public byte[] serialize(String topic, Object data) {
    return serialize(topic, (Headers) null, data);
  }

  /** With {@code HeaderSchemaIdSerializer}, also adds the schema id to {@code headers}. */
  @Override
  public byte[] serialize(String topic, Headers headers, Object data) {
    SerializerEngine engine = plugin.engine();
    try {
      return counted(engine.serialize(topic, headers, data));
    } catch (RuntimeException e) {
      metrics.failed(e);
      throw e;
    }
  }

  /**
   * Serializes {@code data} with a writer schema chosen by the caller instead of the datum's own, as the
   * Connect converter does for maps and primitives with extra properties. {@code data} must be valid for
   * {@code schema} (Avro's generic representation); a {@code null} datum is a tombstone.
   */
  public byte[] serialize(String topic, Object data, org.apache.avro.Schema schema) {
    return serialize(topic, null, data, schema);
  }

  /** Like {@link #serialize(String, Object, org.apache.avro.Schema)}, adding the schema id to headers if so set. */
  public byte[] serialize(String topic, Headers headers, Object data, org.apache.avro.Schema schema) {
    SerializerEngine engine = plugin.engine();
    try {
      return counted(engine.serialize(topic, headers, data, Objects.requireNonNull(schema, "schema")));
    } catch (RuntimeException e) {
      metrics.failed(e);
      throw e;
    }
  }

  /**
   * Serializes {@code data} as one value of {@code schema} whose Avro body {@code encoder} writes, for data that
   * is no Avro data (the Connect converter's {@code Struct}s); everything else (subject, schema id, framing,
   * rules, metrics) as {@link #serialize(String, Headers, Object, org.apache.avro.Schema)}. A {@code null} datum
   * is a tombstone. An unchecked exception of {@code encoder} comes out as it is, counted as a failure.
   */
  public byte[] serialize(String topic, Headers headers, Object data, org.apache.avro.Schema schema,
      DatumEncoder encoder) {
    SerializerEngine engine = plugin.engine();
    try {
      return counted(engine.serialize(topic, headers, data, Objects.requireNonNull(schema, "schema"),
          Objects.requireNonNull(encoder, "encoder")));
    } catch (RuntimeException e) {
      metrics.failed(e);
      throw e;
    }
  }

  private byte[] counted(byte[] bytes) {
    if (bytes != null) {
      metrics.recorded(bytes.length);
    }
    return bytes;
  }

  /**
   * Shows this serializer's metrics among the client's (KIP-877): records, bytes and errors by type, and the
   * registry client's requests, errors, retries, failovers, latency and cache counters; and, with
   * {@code rule.metrics.enable} (the default), its data contract rules' counts under Confluent's names, unless
   * it was made with a {@link RuleMetricsOwner}, which shows them. Kafka calls it.
   */
  @Override
  public void withPluginMetrics(PluginMetrics pluginMetrics) {
    metrics.register(pluginMetrics);
    if (showsRules) {
      rules.register(pluginMetrics);
    }
    SerdeMetrics.registerRegistry(pluginMetrics, plugin::stats);
  }

  /** Datum schemas this serializer keeps a writer for; bounded by {@code max.schemas.per.subject}. */
  long cachedSchemas() {
    return plugin.engine().cachedSchemas();
  }

  /** Topics this serializer keeps a route of {@code schema}'s writer for; bounded by {@code max.schemas.per.subject}. */
  long cachedTopics(org.apache.avro.Schema schema) {
    return plugin.engine().cachedTopics(schema);
  }

  /** Closes the registry client if this serializer created it. Idempotent. */
  @Override
  public void close() {
    plugin.close();
  }
}
