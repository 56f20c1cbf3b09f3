package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The converter's metrics through Kafka's own {@code PluginMetrics}, as a Connect worker hands them to it. */
class ConverterMetricsTest {
  private final String scope = "converter-metrics-" + UUID.randomUUID();
  private final Metrics kafkaMetrics = new Metrics();

  @AfterEach
  void close() {
    kafkaMetrics.close();
    MockRegistries.drop(scope);
  }

  private Map<String, Object> values(String config) {
    Map<String, Object> values = new TreeMap<>();
    kafkaMetrics.metrics().forEach((name, metric) -> {
      if (name.group().equals("plugins") && config.equals(name.tags().get("config"))) {
        String extra = name.tags().containsKey("error-type") ? "{" + name.tags().get("error-type") + "}" : "";
        values.put(name.name() + extra, metric.metricValue());
      }
    });
    return values;
  }

  @Test
  void converter_countsBothDirections_andRegistersTheRegistryOnce() {
    AvroConverter converter = new AvroConverter();
    converter.configure(Map.of("schema.registry.url", "mock://" + scope), false);
    converter.withPluginMetrics(new PluginMetricsImpl(kafkaMetrics, Map.of("config", "value.converter", "class",
        "AvroConverter")));
    org.apache.kafka.connect.data.Schema schema = SchemaBuilder.struct().name("R")
        .field("n", org.apache.kafka.connect.data.Schema.INT32_SCHEMA).build();

    byte[] bytes = converter.fromConnectData("t", schema, new Struct(schema).put("n", 1));
    converter.toConnectData("t", bytes);
    assertThatThrownBy(() -> converter.fromConnectData("t", schema, "no struct")).isInstanceOf(DataException.class);

    assertThat(values("value.converter")).containsEntry("records-serialized-total", 1.0)
        .containsEntry("records-deserialized-total", 1.0)
        .containsEntry("bytes-deserialized-total", (double) bytes.length)
        .containsEntry("serialize-errors-total{DataException}", 1.0)
        .containsKey("registry-requests-total");
    converter.close();
  }
}
