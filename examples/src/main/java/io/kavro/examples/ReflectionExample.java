package io.kavro.examples;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A plain Java record, serialized without any generated code: {@code schema.reflection=true} derives the
 * Avro schema from the class, on both sides.
 */
public final class ReflectionExample {
  private ReflectionExample() {}

  /** A sensor reading: a plain Java record. */
  public record Reading(String sensor, double celsius, long at) {}

  /** Produces {@code count} readings and reads them back as {@link Reading}s. */
  public static List<Reading> run(Endpoints endpoints, String topic, int count) {
    Properties producerProps = new Properties();
    producerProps.put("bootstrap.servers", endpoints.bootstrapServers());
    producerProps.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
    producerProps.put("value.serializer", "io.kavro.serde.KafkaAvroSerializer");
    producerProps.put("schema.registry.url", endpoints.registryUrl());
    producerProps.put("schema.reflection", "true");
    try (KafkaProducer<String, Reading> producer = new KafkaProducer<>(producerProps)) {
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(topic, "sensor-" + i, new Reading("sensor-" + i, 20.5 + i, 1_764_417_600_000L + i)));
      }
    }

    Properties consumerProps = new Properties();
    consumerProps.put("bootstrap.servers", endpoints.bootstrapServers());
    consumerProps.put("group.id", "kavro-example-" + topic);
    consumerProps.put("auto.offset.reset", "earliest");
    consumerProps.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
    consumerProps.put("value.deserializer", "io.kavro.serde.KafkaAvroDeserializer");
    consumerProps.put("schema.registry.url", endpoints.registryUrl());
    consumerProps.put("schema.reflection", "true");
    List<Reading> readings = new ArrayList<>();
    try (KafkaConsumer<String, Reading> consumer = new KafkaConsumer<>(consumerProps)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (readings.size() < count && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(record -> readings.add(record.value()));
      }
    }
    return readings;
  }
}
