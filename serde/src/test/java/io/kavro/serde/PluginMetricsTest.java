package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The metrics of the serializer and the deserializer through Kafka's own
 * {@code PluginMetrics} (the class Kafka clients and Connect workers hand to a {@code Monitorable}): exact
 * counts, errors by type, and the tags Kafka adds.
 */
class PluginMetricsTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]}""");

  private final Serdes serdes = new Serdes();
  private final Metrics kafkaMetrics = new Metrics();

  @AfterEach
  void close() {
    kafkaMetrics.close();
    serdes.close();
  }

  private PluginMetricsImpl plugin(String config, String type) {
    return new PluginMetricsImpl(kafkaMetrics, Map.of("config", config, "class", type));
  }

  private Map<String, Object> values(String config) {
    Map<String, Object> values = new TreeMap<>();
    kafkaMetrics.metrics().forEach((name, metric) -> {
      if (name.group().equals("plugins") && config.equals(name.tags().get("config"))) {
        String extra = name.tags().containsKey("error-type") ? "{" + name.tags().get("error-type") + "}"
            : name.tags().containsKey("cache") ? "{" + name.tags().get("cache") + "}" : "";
        values.put(name.name() + extra, metric.metricValue());
      }
    });
    return values;
  }

  private static GenericRecord order(long id) {
    GenericRecord record = new GenericData.Record(ORDER);
    record.put("id", id);
    return record;
  }

  @Test
  void serializerAndDeserializer_countRecordsBytesAndErrorsByType() {
    KafkaAvroSerializer serializer = serdes.serializer();
    KafkaAvroDeserializer deserializer = serdes.deserializer();
    serializer.withPluginMetrics(plugin("value.serializer", "KafkaAvroSerializer"));
    deserializer.withPluginMetrics(plugin("value.deserializer", "KafkaAvroDeserializer"));

    long bytes = 0;
    for (int i = 0; i < 3; i++) {
      byte[] payload = serializer.serialize("orders", order(i));
      bytes += payload.length;
      deserializer.deserialize("orders", payload);
    }
    assertThatThrownBy(() -> serializer.serialize("orders", new Object()));
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {7, 7}));
    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {0, 0, 0, 0x7f, 0}));

    assertThat(values("value.serializer")).containsEntry("records-serialized-total", 3.0)
        .containsEntry("bytes-serialized-total", (double) bytes)
        .containsEntry("serialize-errors-total{SerializationException}", 1.0)
        .containsEntry("cache-misses-total{registrations}", 1.0)
        .containsEntry("cache-hits-total{registrations}", 0.0);
    assertThat(values("value.deserializer")).containsEntry("records-deserialized-total", 3.0)
        .containsEntry("bytes-deserialized-total", (double) bytes)
        .containsEntry("deserialize-errors-total{MalformedPayloadException}", 1.0)
        .containsEntry("deserialize-errors-total{UnknownSchemaIdException}", 1.0)
        .containsEntry("cache-misses-total{schemas-by-id}", 2.0)
        .containsEntry("registry-errors-total", 1.0);
  }

  /**
   * Issue 24, item 4: a serde built without a client creates one, on configure, and both halves report that
   * client's counters (they reported empty registry metrics when each half had an owner of its own).
   */
  @Test
  void serdeHalves_reportTheSerdesOneClient() {
    AvroSerde<Object> serde = new AvroSerde<>();
    serde.configure(serdes.config(), false);
    ((KafkaAvroSerializer) serde.serializer()).withPluginMetrics(plugin("value.serializer", "AvroSerde"));
    ((KafkaAvroDeserializer) serde.deserializer()).withPluginMetrics(plugin("value.deserializer", "AvroSerde"));

    byte[] payload = serde.serializer().serialize("orders", order(1));
    serde.deserializer().deserialize("orders", payload);
    serde.deserializer().deserialize("orders", payload);

    assertThat(values("value.serializer")).containsEntry("cache-misses-total{registrations}", 1.0);
    assertThat(values("value.deserializer")).containsEntry("cache-misses-total{registrations}", 1.0)
        .as("the serializer's registration taught the shared client the id")
        .containsEntry("cache-misses-total{schemas-by-id}", 0.0);
    serde.close();
  }
}
