package io.kavro.serde.internal.kip877;

/**
 * Stands where Kafka's {@code org.apache.kafka.common.metrics.Monitorable} (KIP-877, kafka-clients 4.1) stands
 * in kavro-serde, for clients that do not have it. Such a client never calls it.
 */
public interface Monitorable {
  /** Never called by a client before 4.1. */
  void withPluginMetrics(PluginMetrics metrics);
}
