package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two registry URLs (two proxies to the same registry): a black-holed first one is transparent. */
@ExtendWith(KavroStackExtension.class)
class FailoverTest {
  private final TestStack stack;
  private final KafkaFixture kafka;

  FailoverTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void blackHoledFirstUrl_producersAndConsumersGoOn_failoverCounted() throws Exception {
    String topic = kafka.topic("failover");
    try (FaultyProxy first = FaultyProxy.in(stack.registryUrl());
        FaultyProxy second = FaultyProxy.in(stack.registryUrl())) {
      first.mode(FaultyProxy.Mode.BLACK_HOLE);
      Map<String, Object> config = new HashMap<>(Map.of(
          "schema.registry.url", first.via(stack.registryUrl()) + "," + second.via(stack.registryUrl()),
          "http.read.timeout.ms", 800, "max.retries", 2, "retries.wait.ms", 50, "retries.max.wait.ms", 100,
          "value.subject.name.strategy", "TopicRecordNameStrategy"));
      SchemaRegistryClient producerClient = SchemaRegistryClients.create(config);
      Map<String, Object> producerConfig = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class);
      long slowest = 0;
      try (KafkaProducer<String, Object> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
          new KafkaAvroSerializer(producerClient, config, false))) {
        for (int i = 0; i < 5; i++) {
          Schema schema = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"F" + i
              + "\",\"namespace\":\"io.kavro.it.failover\",\"fields\":[{\"name\":\"i\",\"type\":\"int\"}]}");
          GenericRecord record = new GenericData.Record(schema);
          record.put("i", i);
          long start = System.nanoTime();
          producer.send(new ProducerRecord<>(topic, "k", record)).get();
          slowest = Math.max(slowest, System.nanoTime() - start);
        }
      }

      SchemaRegistryClient consumerClient = SchemaRegistryClients.create(config);
      try (var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<>(
          kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class), new StringDeserializer(),
          new KafkaAvroDeserializer(consumerClient, config, false))) {
        consumer.subscribe(List.of(topic));
        List<Object> values = new java.util.ArrayList<>();
        long deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
        while (values.size() < 5 && System.nanoTime() < deadline) {
          for (ConsumerRecord<String, Object> r : consumer.poll(Duration.ofMillis(200))) {
            values.add(((GenericRecord) r.value()).get("i"));
          }
        }
        assertThat(values).containsExactly(0, 1, 2, 3, 4);
      }

      // Each client paid the black hole's read timeout once, then stayed on the second URL.
      assertThat(producerClient.stats().failovers()).isEqualTo(1);
      assertThat(consumerClient.stats().failovers()).isEqualTo(1);
      assertThat(Duration.ofNanos(slowest)).as("the black hole's read timeout, not the 30 s default")
          .isLessThan(Duration.ofSeconds(10));
      assertThat(second.connections()).isPositive();
      producerClient.close();
      consumerClient.close();
    }
  }
}
