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
 * <p>{@link #configure} passes the same map to both halves. When the serde was built with a client, both
 * halves share it; otherwise each creates its own from {@code schema.registry.url}. Thread-safe.
 *
 * @param <T> the type of the records; the deserializer's result is cast to it
 */
public final class AvroSerde<T> implements Serde<T> {
  private final KafkaAvroSerializer serializer;
  private final KafkaAvroDeserializer deserializer;

  /** For Kafka Streams: configured through {@link #configure(Map, boolean)}. */
  public AvroSerde() {
    this.serializer = new KafkaAvroSerializer();
    this.deserializer = new KafkaAvroDeserializer();
  }

  /** Both halves use {@code client}. */
  public AvroSerde(SchemaRegistryClient client) {
    this.serializer = new KafkaAvroSerializer(client);
    this.deserializer = new KafkaAvroDeserializer(client);
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    serializer.configure(configs, isKey);
    deserializer.configure(configs, isKey);
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
  }
}
