package io.kavro.testkit;

/**
 * A Kafka broker and a schema registry for a test, both on the loopback interface. Start one with
 * {@link TestStacks#start()}, or let {@link KavroStackExtension} give every test of a JVM the same one.
 */
public interface TestStack extends AutoCloseable {

  /** The broker's address, for {@code bootstrap.servers}. */
  String bootstrapServers();

  /** The registry's Confluent-compatible API, for {@code schema.registry.url}. */
  String registryUrl();

  /**
   * What a serde's configuration needs to reach the registry: {@code schema.registry.url}, and for a registry that
   * speaks another protocol than Confluent's ({@link SchemaRepoStack}), {@code schema.registry.api} and its keys.
   */
  default java.util.Map<String, Object> registryConfigs() {
    return java.util.Map.of("schema.registry.url", registryUrl());
  }

  /** Stops the registry and the broker. */
  @Override
  void close();
}
