package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * A Kafka Streams {@link Serde} of a {@link KafkaAvroSerializer} and a {@link KafkaAvroDeserializer}, for
 * generic records ({@code AvroSerde<GenericRecord>}), generated classes ({@code specific.avro.reader=true})
 * or plain classes ({@code schema.reflection=true}).
 *
 * <p>{@link #configure} parses the configuration once, and both halves share it and one registry client:
 * the one the serde was built with, or one created from {@code schema.registry.url}, which {@link #close()}
 * closes. Thread-safe.
 *
 * @param <T> the type of the records; the deserializer's result is cast to it
 */
public final class AvroSerde<T> implements Serde<T> {
  private final RegistryClientOwner clients;
  private final KafkaAvroSerializer serializer;
  private final KafkaAvroDeserializer deserializer;

  /** For Kafka Streams: configured through {@link #configure(Map, boolean)}. */
  public AvroSerde() {
    this(new RegistryClientOwner(null));
  }

  /** Both halves use {@code client}. */
  public AvroSerde(SchemaRegistryClient client) {
    this(new RegistryClientOwner(java.util.Objects.requireNonNull(client, "client")));
  }

  /**
   * The serde's one owner holds the client of both halves, which have none of their own unless configured alone,
   * and report its counters in their metrics.
   */
  private AvroSerde(RegistryClientOwner clients) {
    this.clients = clients;
    this.serializer = new KafkaAvroSerializer();
    this.deserializer = new KafkaAvroDeserializer();
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    AvroSerdeConfig config = SettingsLog.configure("AvroSerde", configs, isKey, ConfluentKeys.Side.BOTH);
    SchemaRegistryClient client = clients.client(config);
    serializer.plugin.configure(client, config);
    deserializer.plugin.configure(client, config);
  }

  @Override
  @SuppressWarnings("unchecked")
  public Serializer<T> serializer() {
    return (Serializer<T>) (Serializer<?>) serializer;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Deserializer<T> deserializer() {
    return (Deserializer<T>) (Deserializer<?>) deserializer;
  }

  @Override
  public void close() {
    serializer.close();
    deserializer.close();
    clients.close();
  }
}
