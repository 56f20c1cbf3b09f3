package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.metrics.SerdeMetrics;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.ClusterResource;
import org.apache.kafka.common.ClusterResourceListener;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.metrics.Monitorable;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Deserializes records in the schema-registry wire format ({@code 0x00}, int32 schema id, Avro body), as
 * written by {@link KafkaAvroSerializer} or Confluent's serializer.
 *
 * <p>Name it in consumer properties ({@code value.deserializer=io.kavro.serde.KafkaAvroDeserializer}) with
 * at least {@code schema.registry.url}; see {@link AvroSerdeConfig}.
 *
 * <p><b>Result.</b> A {@code GenericRecord} (or the primitive, enum, fixed or array the writer wrote) by
 * default; the generated class with {@code specific.avro.reader=true}; a plain Java object with
 * {@code schema.reflection=true}. The data is projected onto a reader schema when one applies, first match
 * wins: the generated class, {@code key.reader.schema}/{@code value.reader.schema}, the subject's latest
 * schema with {@code use.latest.version=true}. A {@code null} payload gives {@code null}.
 *
 * <p><b>Errors.</b> Every bad record fails with a {@code SerializationException} subclass whose message
 * names the topic, key or value, schema id and payload length, so the consumer reports it as a
 * {@code RecordDeserializationException} with partition and offset, and the application can seek past it:
 * {@link MalformedPayloadException} (short payload, unknown magic byte, corrupt or truncated body, trailing
 * bytes), {@link UnknownSchemaIdException}, {@link SchemaResolutionException}. A registry that cannot be
 * reached raises the retriable {@link RetriableSerdeException}, caused by a
 * {@code RegistryUnavailableException}, instead. Corrupt length prefixes
 * never allocate more than the payload's size.
 *
 * <p><b>Metrics.</b> A Kafka {@code Monitorable}: a client shows its record, byte, error, registry and cache
 * metrics with its own (group {@code plugins}); see {@code docs/metrics.md}.
 *
 * <p><b>Thread safety.</b> Thread-safe.
 */
public final class KafkaAvroDeserializer implements Deserializer<Object>, Monitorable, ClusterResourceListener {
  private final SerdeMetrics metrics = SerdeMetrics.deserializer();
  /** Its rules' counts ({@code rule.metrics.enable}): the same across configures. */
  private final RuleMetrics rules;
  /** Whether it shows {@link #rules} through its client's metrics: not when a {@link RuleMetricsOwner} does. */
  private final boolean showsRules;
  /** Its engine and client; a serde configures its halves through it. */
  final ConfiguredPlugin<DeserializerEngine> plugin;

  /** For Kafka: configured through {@link #configure(Map, boolean)}. */
  public KafkaAvroDeserializer() {
    this(null, new RuleMetrics(), true);
  }

  /**
   * @param client the caller's client, or {@code null} to create one from the configuration
   * @param showsRules whether {@link #withPluginMetrics} shows {@code rules}: not when their owner does
   */
  private KafkaAvroDeserializer(SchemaRegistryClient client, RuleMetrics rules, boolean showsRules) {
    this.rules = rules;
    this.showsRules = showsRules;
    this.plugin = new ConfiguredPlugin<>("KafkaAvroDeserializer", ConfluentKeys.Side.READ, client,
        (registry, config) -> new DeserializerEngine(registry, config, rules));
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
  public KafkaAvroDeserializer(SchemaRegistryClient client) {
    this(Objects.requireNonNull(client, "client"), new RuleMetrics(), true);
  }

  /** Uses {@code client} and configures at once. */
  public KafkaAvroDeserializer(SchemaRegistryClient client, Map<String, ?> configs, boolean isKey) {
    this(client);
    configure(configs, isKey);
  }

  /**
   * Uses {@code client} (which stays the caller's) and an already parsed configuration, and counts its rules into
   * {@code rules}, which shows them: this deserializer does not, whatever client it is handed to. For the Connect
   * converter, which parses its configuration once for both halves and makes them anew on each configure;
   * applications use {@link #KafkaAvroDeserializer(SchemaRegistryClient, Map, boolean)}.
   */
  public KafkaAvroDeserializer(SchemaRegistryClient client, AvroSerdeConfig config, RuleMetricsOwner rules) {
    this(Objects.requireNonNull(client, "client"),
        Objects.requireNonNull(rules, "rules").metrics(), false);
    plugin.configure(client, config);
  }

  @Override
  public Object deserialize(String topic, byte[] data) {
    return deserialize(topic, null, data);
  }

  /** Reads the schema id from the record's schema id header when it has one, else from the payload. */
  @Override
  public Object deserialize(String topic, Headers headers, byte[] data) {
    DeserializerEngine engine = plugin.engine();
    try {
      Object datum = engine.deserialize(topic, headers, data);
      if (data != null) {
        metrics.recorded(data.length);
      }
      return datum;
    } catch (RuntimeException e) {
      metrics.failed(e);
      throw e;
    }
  }

  /** Reads from the buffer's position to its limit, in place, without moving them. */
  @Override
  public Object deserialize(String topic, Headers headers, ByteBuffer data) {
    DeserializerEngine engine = plugin.engine();
    try {
      int length = data == null ? 0 : data.remaining();
      Object datum = engine.deserialize(topic, headers, data);
      if (data != null) {
        metrics.recorded(length);
      }
      return datum;
    } catch (RuntimeException e) {
      metrics.failed(e);
      throw e;
    }
  }

  /**
   * Like {@link #deserialize(String, Headers, ByteBuffer)}, but also returns the schema id (-1 for a schema
   * named by its GUID) and the schema the datum conforms to (the reader schema after any projection);
   * {@code null} for a {@code null} payload.
   */
  public AvroValue deserializeWithSchema(String topic, Headers headers, ByteBuffer data) {
    DeserializerEngine engine = plugin.engine();
    try {
      int length = data == null ? 0 : data.remaining();
      AvroValue value = engine.deserializeWithSchema(topic, headers, data);
      if (data != null) {
        metrics.recorded(length);
      }
      return value;
    } catch (RuntimeException e) {
      metrics.failed(e);
      throw e;
    }
  }

  /**
   * The version that the topic's subject gives the writer schema of a value this deserializer read, which
   * Confluent's converter puts in the Connect schema: {@code null} when that subject does not hold the schema (it
   * was registered under another) or the record names its schema by GUID. Cached: a topic whose schemas live
   * under another subject costs no registry request per record.
   *
   * @throws RetriableSerdeException when the registry cannot be reached
   * @throws org.apache.kafka.common.errors.SerializationException when it fails otherwise
   */
  public Integer writerVersion(String topic, AvroValue read) {
    return plugin.engine().writerVersion(topic, read);
  }

  /**
   * Topics with route tables of their own, and topics whose schema context is kept; each bounded by {@code
   * max.schemas.per.subject}; and contexts with shared route tables, bounded by {@code
   * schema.registry.contexts.cache.size}.
   */
  long[] cachedTopics() {
    return plugin.engine().cachedTopics();
  }

  /**
   * Shows this deserializer's metrics among the client's (KIP-877): records, bytes and errors by type, and
   * the registry client's requests, errors, retries, failovers, latency and cache counters; and, with
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

  /** {@link #deserializeWithSchema(String, Headers, ByteBuffer)} without headers. */
  public AvroValue deserializeWithSchema(String topic, ByteBuffer data) {
    return deserializeWithSchema(topic, null, data);
  }

  /** Closes its framing resolver, if any, and the registry client if this deserializer created it. Idempotent. */
  @Override
  public void close() {
    plugin.close();
  }
}
