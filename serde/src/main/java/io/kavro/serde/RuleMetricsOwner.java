package io.kavro.serde;

import java.util.Objects;
import org.apache.kafka.common.metrics.PluginMetrics;

/**
 * The one owner of the rule metrics ({@code rule.metrics.enable}) of a plugin that makes its own serializer and
 * deserializer and makes them anew on each configure. It exists for Kavro's Connect converter ({@code
 * io.kavro.connect.AvroConverter}); applications use {@link KafkaAvroSerializer} and {@link KafkaAvroDeserializer}
 * as Kafka plugins (or {@link AvroSerde}), which show their own rule metrics through the client they are handed to.
 *
 * <p>Both halves made with it ({@link KafkaAvroSerializer#KafkaAvroSerializer(io.kavro.registry.SchemaRegistryClient,
 * AvroSerdeConfig, RuleMetricsOwner)}, {@link KafkaAvroDeserializer#KafkaAvroDeserializer(
 * io.kavro.registry.SchemaRegistryClient, AvroSerdeConfig, RuleMetricsOwner)}), and the halves of every later
 * configure, count into the same metrics, which only the owner shows, once, through the {@link PluginMetrics} its
 * plugin's host hands it: the halves show none of them, whatever client they are handed to. A rule's counts go on
 * across configures, and no metric is registered twice. The metrics are removed with that {@code PluginMetrics},
 * when the host closes the plugin. Thread-safe.
 */
public final class RuleMetricsOwner {
  private final RuleMetrics metrics = new RuleMetrics();

  /** No metric shown until {@link #register}; rules counted before are shown then. */
  public RuleMetricsOwner() {}

  /** Shows the rule metrics through {@code pluginMetrics}; only the first call counts, as a host calls it once. */
  public void register(PluginMetrics pluginMetrics) {
    metrics.register(Objects.requireNonNull(pluginMetrics, "pluginMetrics"));
  }

  RuleMetrics metrics() {
    return metrics;
  }
}
