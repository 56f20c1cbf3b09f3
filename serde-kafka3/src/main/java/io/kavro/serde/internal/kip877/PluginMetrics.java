package io.kavro.serde.internal.kip877;

import java.util.LinkedHashMap;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.Sensor;

/**
 * Stands where Kafka's {@code org.apache.kafka.common.metrics.PluginMetrics} (KIP-877, kafka-clients 4.1)
 * stands in kavro-serde, with its shape, for clients that do not have it. Nothing implements it.
 */
public interface PluginMetrics {
  /** A metric's name in the plugin's group. */
  MetricName metricName(String name, String description, LinkedHashMap<String, String> tags);

  /** Adds a metric. */
  void addMetric(MetricName metricName, MetricValueProvider<?> metricValueProvider);

  /** Removes a metric. */
  void removeMetric(MetricName metricName);

  /** Adds a sensor. */
  Sensor addSensor(String name);

  /** Removes a sensor. */
  void removeSensor(String name);
}
