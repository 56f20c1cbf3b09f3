package io.kavro.connect;

import io.kavro.serde.RegistryClientOwner;
import io.kavro.serde.metrics.SerdeMetrics;
import org.apache.kafka.common.metrics.PluginMetrics;

/** The converter's metrics: both directions, and the registry client's once. Thread-safe. */
final class ConverterMetrics {
  private final SerdeMetrics toAvro = SerdeMetrics.serializer();
  private final SerdeMetrics fromAvro = SerdeMetrics.deserializer();

  void serialized(byte[] bytes) {
    if (bytes != null) {
      toAvro.recorded(bytes.length);
    }
  }

  void serializeFailed(RuntimeException e) {
    toAvro.failed(e);
  }

  void deserialized(int length) {
    fromAvro.recorded(length);
  }

  void deserializeFailed(RuntimeException e) {
    fromAvro.failed(e);
  }

  void register(PluginMetrics metrics, RegistryClientOwner clients) {
    toAvro.register(metrics);
    fromAvro.register(metrics);
    SerdeMetrics.registerRegistry(metrics, clients::stats);
  }
}
