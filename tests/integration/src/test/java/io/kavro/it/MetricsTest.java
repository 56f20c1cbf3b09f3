package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real producer and a real consumer show Kavro's metrics among their own (KIP-877, group {@code plugins}),
 * in {@code metrics()} and under JMX, with values that match the traffic sent.
 */
@ExtendWith(KavroStackExtension.class)
class MetricsTest {
  private static final int COUNT = 20;

  private final TestStack stack;
  private final KafkaFixture kafka;

  MetricsTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void producerAndConsumer_showKavrosMetrics_inMetricsAndJmx() throws Exception {
    String topic = kafka.topic("metrics");
    long bytes = 0;
    try (KafkaAvroSerializer sizer = new KafkaAvroSerializer()) {
      sizer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
      for (int i = 0; i < COUNT; i++) {
        bytes += sizer.serialize(topic, RegistryOutageTest.event(i)).length;
      }
    }

    Map<String, Object> producerConfig = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "client.id", "metrics-producer");
    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(producerConfig)) {
      for (int i = 0; i < COUNT; i++) {
        producer.send(new ProducerRecord<>(topic, "k" + i, RegistryOutageTest.event(i))).get();
      }
      Map<String, Double> metrics = plugin(producer.metrics(), "value.serializer");
      assertThat(metrics).containsEntry("records-serialized-total", (double) COUNT)
          .containsEntry("bytes-serialized-total", (double) bytes)
          .containsEntry("cache-misses-total{cache=registrations}", 1.0)
          .containsEntry("cache-hits-total{cache=registrations}", 0.0)
          .containsEntry("registry-errors-total", 0.0)
          .containsKey("registry-request-latency-max")
          .containsKey("cache-stale-serves-total{cache=latest}");
      assertThat(metrics.get("registry-requests-total")).isGreaterThanOrEqualTo(1.0);

      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      Set<ObjectName> beans = jmx.queryNames(new ObjectName(
          "kafka.producer:type=plugins,client-id=metrics-producer,config=value.serializer,*"), null);
      ObjectName plain = beans.stream().filter(name -> name.getKeyProperty("cache") == null
          && name.getKeyProperty("error-type") == null).findFirst().orElseThrow();
      assertThat(plain.getKeyProperty("class")).isEqualTo("KafkaAvroSerializer");
      assertThat(jmx.getAttribute(plain, "records-serialized-total")).isEqualTo((double) COUNT);
    }
    // One record that is no Avro at all.
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class),
        List.of(new ProducerRecord<>(topic, "bad", new byte[] {9, 9, 9})));

    Map<String, Object> consumerConfig = kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class,
        "client.id", "metrics-consumer");
    try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(consumerConfig)) {
      consumer.subscribe(List.of(topic));
      List<Object> read = new ArrayList<>();
      int failures = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (read.size() + failures < COUNT + 1 && System.nanoTime() < deadline) {
        try {
          consumer.poll(Duration.ofMillis(200)).forEach(record -> read.add(record.value()));
        } catch (RecordDeserializationException e) {
          failures++;
          consumer.seek(new TopicPartition(e.topicPartition().topic(), e.topicPartition().partition()),
              e.offset() + 1);
        }
      }
      assertThat(read).hasSize(COUNT);
      assertThat(failures).isEqualTo(1);
      assertThat(read.get(3)).hasToString(RegistryOutageTest.event(3).toString());

      Map<String, Double> metrics = plugin(consumer.metrics(), "value.deserializer");
      assertThat(metrics).containsEntry("records-deserialized-total", (double) COUNT)
          .containsEntry("bytes-deserialized-total", (double) bytes)
          .containsEntry("cache-misses-total{cache=schemas-by-id}", 1.0);
      // The metric counts failed calls: the consumer may try the bad record more than once before the seek.
      assertThat(metrics.get("deserialize-errors-total{error-type=MalformedPayloadException}"))
          .isGreaterThanOrEqualTo(1.0);
      MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
      ObjectName errors = new ObjectName("kafka.consumer:type=plugins,client-id=metrics-consumer,"
          + "config=value.deserializer,class=KafkaAvroDeserializer,error-type=MalformedPayloadException");
      assertThat(jmx.getAttribute(errors, "deserialize-errors-total"))
          .isEqualTo(metrics.get("deserialize-errors-total{error-type=MalformedPayloadException}"));
    }
  }

  /** Kavro's metrics of one plugin, by name and {@code {tag=value}} of its own tags. */
  private static Map<String, Double> plugin(Map<MetricName, ? extends Metric> metrics, String config) {
    Map<String, Double> values = new java.util.TreeMap<>();
    metrics.forEach((name, metric) -> {
      if (name.group().equals("plugins") && config.equals(name.tags().get("config"))) {
        StringBuilder key = new StringBuilder(name.name());
        name.tags().forEach((tag, value) -> {
          if (!Set.of("config", "class", "client-id").contains(tag)) {
            key.append('{').append(tag).append('=').append(value).append('}');
          }
        });
        values.put(key.toString(), ((Number) metric.metricValue()).doubleValue());
      }
    });
    return values;
  }
}
