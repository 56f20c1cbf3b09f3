package io.kavro.it;

/** A Kafka broker and a schema registry that the tests talk to. */
interface Stack extends AutoCloseable {
  String bootstrapServers();

  /** Kavro's {@code schema.registry.url}: the registry's Confluent-compatible API. */
  String registryUrl();

  @Override
  void close();
}
