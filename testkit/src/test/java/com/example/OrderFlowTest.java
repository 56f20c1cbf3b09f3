package com.example;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KavroStackExtension.class)
class OrderFlowTest {
  static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]}""");

  @Test
  void orderGoesThroughKafka(TestStack stack) throws Exception {
    Map<String, Object> common = Map.of("bootstrap.servers", stack.bootstrapServers(),
        "schema.registry.url", stack.registryUrl());
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", 42L);

    try (var producer = new KafkaProducer<>(common, new StringSerializer(), serializer(stack))) {
      producer.send(new ProducerRecord<>("orders", "k", order)).get();
    }
    try (var consumer = new KafkaConsumer<>(Map.<String, Object>of("bootstrap.servers", stack.bootstrapServers(),
        "group.id", "readme", "auto.offset.reset", "earliest"), new StringDeserializer(), deserializer(stack))) {
      consumer.subscribe(List.of("orders"));
      ConsumerRecords<String, Object> records = consumer.poll(Duration.ofSeconds(30));
      assertThat(records.iterator().next().value()).isEqualTo(order);
    }
  }

  // Kafka configures only the serializers it creates from class names: configure instances yourself.
  static KafkaAvroSerializer serializer(TestStack stack) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
    return serializer;
  }

  static KafkaAvroDeserializer deserializer(TestStack stack) {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
    return deserializer;
  }
}
