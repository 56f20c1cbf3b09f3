package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.TestStack;
import io.kavro.testkit.TestStacks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** A record produced and consumed through Kavro's serde, on the testkit's stack: a broker and a schema registry. */
class RoundTripTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type": "record", "name": "Order", "namespace": "com.example",
       "fields": [{"name": "id", "type": "long"}, {"name": "item", "type": "string"}]}""");

  @Test
  void record_roundTrips_throughABrokerAndARegistry() {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", 42L);
    order.put("item", "kettle");
    try (TestStack stack = TestStacks.start()) {
      Map<String, Object> producer = Map.of("bootstrap.servers", stack.bootstrapServers());
      try (KafkaProducer<String, Object> out = new KafkaProducer<>(producer, new StringSerializer(),
          serializer(stack))) {
        out.send(new ProducerRecord<>("orders", "42", order)).get();
      }
      Map<String, Object> consumer = Map.of("bootstrap.servers", stack.bootstrapServers(),
          "group.id", "consumer-check", "auto.offset.reset", "earliest");
      try (KafkaConsumer<String, Object> in = new KafkaConsumer<>(consumer, new StringDeserializer(),
          deserializer(stack))) {
        in.subscribe(List.of("orders"));
        List<ConsumerRecord<String, Object>> read = new ArrayList<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (read.isEmpty() && System.nanoTime() < deadline) {
          in.poll(Duration.ofMillis(500)).forEach(read::add);
        }
        assertEquals(1, read.size(), "records read back");
        assertEquals(order.toString(), String.valueOf(read.get(0).value()));
        System.out.println("round trip on the testkit's stack: " + read.get(0).value());
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static KafkaAvroSerializer serializer(TestStack stack) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
    return serializer;
  }

  private static KafkaAvroDeserializer deserializer(TestStack stack) {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
    return deserializer;
  }
}
