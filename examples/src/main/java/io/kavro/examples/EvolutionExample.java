package io.kavro.examples;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.SchemaRegistrationException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Schema evolution: a v1 producer, then a v2 producer that adds a field with a default, read by a consumer
 * that projects everything onto v2 with {@code value.reader.schema}; then an incompatible v3 that the
 * registry refuses under BACKWARD compatibility.
 */
public final class EvolutionExample {
  private EvolutionExample() {}

  /**
   * What the example saw.
   *
   * @param read the records as the v2 consumer read them
   * @param rejection the registry's refusal of v3, or {@code null} if it was accepted
   */
  public record Outcome(List<GenericRecord> read, String rejection) {}

  public static Outcome run(Endpoints endpoints, String topic) {
    Schema v1 = AvroFiles.load("avro/user-v1.avsc");
    Schema v2 = AvroFiles.load("avro/user-v2.avsc");
    Schema v3 = AvroFiles.load("avro/user-v3-incompatible.avsc");
    Properties producerProps = new Properties();
    producerProps.put("bootstrap.servers", endpoints.bootstrapServers());
    producerProps.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
    producerProps.put("value.serializer", "io.kavro.serde.KafkaAvroSerializer");
    producerProps.put("schema.registry.url", endpoints.registryUrl());

    String rejection = null;
    try (KafkaProducer<String, GenericRecord> producer = new KafkaProducer<>(producerProps);
        SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url", endpoints.registryUrl()))) {
      producer.send(new ProducerRecord<>(topic, "1", user(v1, 1L, "Ada")));
      producer.flush();
      // Registries differ in their default level (Apicurio: NONE, Confluent: BACKWARD): make it explicit.
      registry.setCompatibility(topic + "-value", CompatibilityLevel.BACKWARD);
      GenericRecord grace = user(v2, 2L, "Grace");
      grace.put("country", "US");
      producer.send(new ProducerRecord<>(topic, "2", grace));
      producer.flush();
      try {
        GenericRecord bad = user(v3, null, "Linus");
        bad.put("id", "not-a-number");
        bad.put("country", "FI");
        producer.send(new ProducerRecord<>(topic, "3", bad));
      } catch (SchemaRegistrationException e) {
        rejection = e.getMessage();
      }
    }

    Properties consumerProps = new Properties();
    consumerProps.put("bootstrap.servers", endpoints.bootstrapServers());
    consumerProps.put("group.id", "kavro-example-" + topic);
    consumerProps.put("auto.offset.reset", "earliest");
    consumerProps.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
    consumerProps.put("value.deserializer", "io.kavro.serde.KafkaAvroDeserializer");
    consumerProps.put("schema.registry.url", endpoints.registryUrl());
    // Every record, v1 or v2, is read as v2: v1 records get the default country.
    consumerProps.put("value.reader.schema", "classpath:avro/user-v2.avsc");
    List<GenericRecord> read = new ArrayList<>();
    try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(consumerProps)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (read.size() < 2 && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(record -> read.add(record.value()));
      }
    }
    return new Outcome(read, rejection);
  }

  private static GenericRecord user(Schema schema, Long id, String name) {
    GenericRecord user = new GenericData.Record(schema);
    user.put("id", id);
    user.put("name", name);
    return user;
  }
}
