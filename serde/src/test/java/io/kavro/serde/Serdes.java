package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** A fresh mock:// scope per test, with serializers and deserializers configured against it. */
final class Serdes implements AutoCloseable {
  final String scope = "serde-test-" + UUID.randomUUID();
  final Map<String, Object> base = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope));

  Serdes() {}

  /** With these settings in every configuration. */
  Serdes(Object... keyValues) {
    base.putAll(config(keyValues));
  }

  /** With Avro's logical type conversions on both sides, for tests whose data is made of converted values. */
  static Serdes withLogicalTypeConverters() {
    return new Serdes("avro.use.logical.type.converters", true);
  }

  Map<String, Object> config(Object... keyValues) {
    Map<String, Object> config = new HashMap<>(base);
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    return config;
  }

  KafkaAvroSerializer serializer(Object... keyValues) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config(keyValues), false);
    return serializer;
  }

  KafkaAvroSerializer keySerializer(Object... keyValues) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config(keyValues), true);
    return serializer;
  }

  KafkaAvroDeserializer deserializer(Object... keyValues) {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config(keyValues), false);
    return deserializer;
  }

  /** A client on the same scope, to inspect or prepare the registry. */
  SchemaRegistryClient registry() {
    return SchemaRegistryClients.create(base);
  }

  /** Calls into the scope's registry so far, from every client. */
  long registryRequests() {
    return MockRegistries.scope(scope).stats().requests();
  }

  @Override
  public void close() {
    MockRegistries.drop(scope);
  }
}
