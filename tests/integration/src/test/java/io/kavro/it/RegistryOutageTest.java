package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RetriableSerdeException;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.file.Path;
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
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Registry outages between the clients and the real registry, injected by a proxy. */
@ExtendWith(KavroStackExtension.class)
class RegistryOutageTest {
  static final Schema EVENT = new Schema.Parser().parse("""
      {"type":"record","name":"Event","namespace":"io.kavro.it.outage","fields":[{"name":"n","type":"int"}]}""");

  private final TestStack stack;
  private final KafkaFixture kafka;

  @TempDir
  Path cacheDir;

  RegistryOutageTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  /** Short timeouts and retries, so that an outage is detected in seconds. */
  private static Object[] fastFailing(String url) {
    return new Object[] {"schema.registry.url", url, "max.retries", 2, "retries.wait.ms", 100,
        "retries.max.wait.ms", 200, "http.connect.timeout.ms", 1000, "http.read.timeout.ms", 1000,
        "value.subject.name.strategy", "TopicRecordNameStrategy"};
  }

  static GenericRecord event(int n) {
    GenericRecord event = new GenericData.Record(EVENT);
    event.put("n", n);
    return event;
  }

  @Test
  void warmClients_workThroughOutage_newSchemaFailsRetriably_thenRegistersAfterRecovery() throws Exception {
    String topic = kafka.topic("outage", 2);
    try (FaultyProxy proxy = FaultyProxy.in(stack.registryUrl());
        KafkaProducer<String, Object> producer = new KafkaProducer<>(kafka.producerConfig(StringSerializer.class,
            KafkaAvroSerializer.class, fastFailing(proxy.via(stack.registryUrl()))));
        KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(kafka.consumerConfig(
            StringDeserializer.class, KafkaAvroDeserializer.class, fastFailing(proxy.via(stack.registryUrl()))))) {
      consumer.subscribe(List.of(topic));
      // Warm up: both schemas registered by the producer and read once by the consumer.
      producer.send(new ProducerRecord<>(topic, "u", EndToEndTest.user(EndToEndTest.USER_V1, "warm"))).get();
      producer.send(new ProducerRecord<>(topic, "c", EndToEndTest.user(EndToEndTest.ORDER_LIKE, "warm"))).get();
      assertThat(poll(consumer, 2)).hasSize(2);

      proxy.mode(FaultyProxy.Mode.REFUSE);
      int count = 50_000;
      for (int i = 0; i < count; i++) {
        Schema schema = i % 2 == 0 ? EndToEndTest.USER_V1 : EndToEndTest.ORDER_LIKE;
        producer.send(new ProducerRecord<>(topic, "k" + (i % 100), EndToEndTest.user(schema, "n" + i)));
      }
      producer.flush();
      List<ConsumerRecord<String, GenericRecord>> read = poll(consumer, count);
      assertThat(read).hasSize(count);

      // A retriable exception reaches the producer through the send's future (and callback), as Kafka
      // reports every retriable failure.
      long start = System.nanoTime();
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "e", event(1))).get())
          .isInstanceOf(java.util.concurrent.ExecutionException.class)
          .cause()
          .isInstanceOf(RetriableSerdeException.class)
          .hasCauseInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("schema registry unavailable")
          .hasMessageContaining("gave up after 3 attempt(s)");
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));

      proxy.mode(FaultyProxy.Mode.PASS);
      producer.send(new ProducerRecord<>(topic, "e", event(2))).get();
      assertThat(poll(consumer, 1).get(0).value().get("n")).isEqualTo(2);
    }
  }

  @Test
  void blackHoledRegistry_failsWithinTheReadTimeout() throws Exception {
    String topic = kafka.topic("black-hole");
    try (FaultyProxy proxy = FaultyProxy.in(stack.registryUrl());
        KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", proxy.via(stack.registryUrl()), "max.retries", 1,
          "retries.wait.ms", 50, "retries.max.wait.ms", 50, "http.read.timeout.ms", 500), false);
      proxy.mode(FaultyProxy.Mode.BLACK_HOLE);

      long start = System.nanoTime();
      assertThatThrownBy(() -> serializer.serialize(topic, event(1)))
          .isInstanceOf(RetriableSerdeException.class)
          .hasCauseInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("SocketTimeoutException");
      // Two attempts of at most 500 ms each, plus a backoff of at most 50 ms: far under the client's default
      // timeouts (30 s), with room for a loaded 2-core machine.
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(6));
    }
  }

  @Test
  void slowRegistry_withinTheReadTimeoutWorks_beyondItFailsRetriably() throws Exception {
    try (FaultyProxy proxy = FaultyProxy.in(stack.registryUrl())) {
      Map<String, Object> config = Map.of("schema.registry.url", proxy.via(stack.registryUrl()), "max.retries", 0,
          "http.read.timeout.ms", 2000, "value.subject.name.strategy", "TopicRecordNameStrategy");
      proxy.latency(200);
      try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
        serializer.configure(config, false);
        long start = System.nanoTime();
        assertThat(serializer.serialize(kafka.topic("slow"), event(1))).isNotNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
      }
      proxy.latency(3000);
      try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
        serializer.configure(config, false);
        assertThatThrownBy(() -> serializer.serialize(kafka.topic("too-slow"), event(1)))
            .isInstanceOf(RetriableSerdeException.class)
          .hasCauseInstanceOf(RegistryUnavailableException.class)
            .hasMessageContaining("SocketTimeoutException");
      }
    }
  }

  @Test
  void consumerRestartedDuringOutage_decodesKnownIdsFromSchemaCacheDir() throws Exception {
    String topic = kafka.topic("restart");
    List<ProducerRecord<String, Object>> records = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      records.add(new ProducerRecord<>(topic, "k", i % 2 == 0 ? event(i) : EndToEndTest.user(EndToEndTest.USER_V1, "u" + i)));
    }
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "value.subject.name.strategy", "TopicRecordNameStrategy"), records);
    try (FaultyProxy proxy = FaultyProxy.in(stack.registryUrl())) {
      // The consumer runs the default strategy (associations): a restarted one learns its topic's association
      // (so the topic's schema context) from the cache folder too.
      Object[] withCache = {"schema.registry.url", proxy.via(stack.registryUrl()), "max.retries", 0,
          "schema.cache.dir", cacheDir.toString()};
      // First run: learns the ids, and writes them to the cache folder.
      assertThat(kafka.consume(kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class, withCache),
          topic, 20)).hasSize(20);

      proxy.mode(FaultyProxy.Mode.REFUSE);
      // A new consumer, as after a restart, while the registry cannot be reached.
      List<ConsumerRecord<String, GenericRecord>> again = kafka.consume(
          kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class, withCache), topic, 20);
      assertThat(again).hasSize(20);
      assertThat(again.get(0).value().get("n")).isEqualTo(0);

      // Without the cache folder the same restart cannot decode, and says the registry is the reason.
      try (KafkaConsumer<String, GenericRecord> plain = new KafkaConsumer<>(kafka.consumerConfig(
          StringDeserializer.class, KafkaAvroDeserializer.class, "schema.registry.url", proxy.via(stack.registryUrl()),
          "max.retries", 0))) {
        plain.subscribe(List.of(topic));
        assertThatThrownBy(() -> {
          long deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
          while (System.nanoTime() < deadline) {
            plain.poll(Duration.ofMillis(200));
          }
        }).isInstanceOf(RecordDeserializationException.class)
            .cause().isInstanceOf(RetriableSerdeException.class)
            .hasCauseInstanceOf(RegistryUnavailableException.class);
      }
    }
  }

  private static List<ConsumerRecord<String, GenericRecord>> poll(KafkaConsumer<String, GenericRecord> consumer,
      int count) {
    List<ConsumerRecord<String, GenericRecord>> records = new ArrayList<>();
    long deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
    while (records.size() < count && System.nanoTime() < deadline) {
      consumer.poll(Duration.ofMillis(200)).forEach(records::add);
    }
    return records;
  }
}
