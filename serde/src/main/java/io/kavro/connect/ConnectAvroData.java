package io.kavro.connect;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.avro.Schema;

/**
 * Converts between Connect and Avro, with both schema conversions cached in bounded caches keyed by the
 * schema itself, so equal schemas share one entry. Thread-safe.
 */
final class ConnectAvroData {
  private final Cache<org.apache.kafka.connect.data.Schema, Schema> toAvro;
  private final Cache<Schema, org.apache.kafka.connect.data.Schema> toConnect;

  ConnectAvroData(int maxSchemas) {
    this.toAvro = Caffeine.newBuilder().maximumSize(maxSchemas).build();
    this.toConnect = Caffeine.newBuilder().maximumSize(maxSchemas).build();
  }

  Schema avroSchema(org.apache.kafka.connect.data.Schema connect) {
    return toAvro.get(connect, ConnectToAvro::schema);
  }

  Object avroValue(org.apache.kafka.connect.data.Schema connect, Schema avro, Object value) {
    return ConnectToAvro.value(connect, avro, value);
  }

  org.apache.kafka.connect.data.Schema connectSchema(Schema avro) {
    return toConnect.get(avro, AvroToConnect::schema);
  }

  Object connectValue(org.apache.kafka.connect.data.Schema connect, Schema avro, Object value) {
    return AvroToConnect.value(connect, avro, value);
  }
}
