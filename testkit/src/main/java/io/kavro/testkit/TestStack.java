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

  /** Stops the registry and the broker. */
  @Override
  void close();
}
