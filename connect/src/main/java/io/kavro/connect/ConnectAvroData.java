package io.kavro.connect;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.apache.avro.Schema;

/**
 * Converts between Connect and Avro as Confluent's {@code AvroData} does, with both schema conversions cached
 * in bounded caches ({@code schemas.cache.config}) keyed by the schema itself, so equal schemas share one
 * entry. Thread-safe.
 */
final class ConnectAvroData {
  private final ConnectToAvro toAvroMapping;
  private final AvroToConnect toConnectMapping;
  private final Cache<org.apache.kafka.connect.data.Schema, Schema> toAvro;
  private final Cache<VersionedSchema, org.apache.kafka.connect.data.Schema> toConnect;

  /** An Avro schema, and the registry version Connect is given for it. */
  private record VersionedSchema(Schema schema, Integer version) {}

  ConnectAvroData(AvroDataSettings settings) {
    this.toAvroMapping = new ConnectToAvro(settings);
    this.toConnectMapping = new AvroToConnect(settings);
    this.toAvro = Caffeine.newBuilder().maximumSize(settings.schemasCacheSize()).build();
    this.toConnect = Caffeine.newBuilder().maximumSize(settings.schemasCacheSize()).build();
  }

  /** The Avro schema of a Connect schema; schemaless data ({@code null}) has Confluent's {@code Anything}. */
  Schema avroSchema(org.apache.kafka.connect.data.Schema connect) {
    return connect == null ? Schemaless.ANYTHING : toAvro.get(connect, toAvroMapping::schema);
  }

  Object avroValue(org.apache.kafka.connect.data.Schema connect, Schema avro, Object value) {
    return toAvroMapping.value(connect, avro, value);
  }

  /** The Connect schema of an Avro schema, with {@code version} unless it carries its own; null when schemaless. */
  org.apache.kafka.connect.data.Schema connectSchema(Schema avro, Integer version) {
    if (avro.equals(Schemaless.ANYTHING)) {
      return null;
    }
    return toConnect.get(new VersionedSchema(avro, version), key -> toConnectMapping.schema(key.schema(),
        key.version()));
  }

  Object connectValue(org.apache.kafka.connect.data.Schema connect, Schema avro, Object value) {
    return toConnectMapping.value(connect, avro, value);
  }
}
