package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * Kafka's own clients load Kavro by class name from their properties, as applications configure them, and
 * show Kavro's metrics exactly where the client has KIP-877. The broker address is a closed loopback port:
 * building a client connects to nothing.
 */
class ClientsTest {
  @Test
  void producer_loadsTheSerializerByName_metricsWhereKip877() throws Exception {
    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(Map.of(
        "bootstrap.servers", closedPort(), "key.serializer", StringSerializer.class.getName(),
        "value.serializer", KafkaAvroSerializer.class.getName(), "schema.registry.url", "mock://clients"))) {
      Set<String> kavro = kavroMetrics(producer.metrics(), "value.serializer");
      if (Cell.metrics()) {
        assertThat(kavro).contains("records-serialized-total", "bytes-serialized-total");
      } else {
        assertThat(kavro).isEmpty();
      }
      producer.close(Duration.ZERO);
    }
  }

  @Test
  void consumer_loadsTheDeserializerByName_metricsWhereKip877() throws Exception {
    try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(Map.of(
        "bootstrap.servers", closedPort(), "key.deserializer", StringDeserializer.class.getName(),
        "value.deserializer", KafkaAvroDeserializer.class.getName(), "schema.registry.url", "mock://clients"))) {
      Set<String> kavro = kavroMetrics(consumer.metrics(), "value.deserializer");
      if (Cell.metrics()) {
        assertThat(kavro).contains("records-deserialized-total", "bytes-deserialized-total");
      } else {
        assertThat(kavro).isEmpty();
      }
    }
  }

  private static Set<String> kavroMetrics(Map<MetricName, ? extends Metric> metrics, String config) {
    return metrics.keySet().stream()
        .filter(name -> name.group().equals("plugins") && config.equals(name.tags().get("config")))
        .map(MetricName::name).collect(Collectors.toSet());
  }

  private static String closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return "127.0.0.1:" + socket.getLocalPort();
    }
  }
}
