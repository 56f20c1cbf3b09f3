package io.kavro.testkit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka broker and a schema registry on 127.0.0.1, both started here: a KRaft broker, Apicurio Registry as a
 * child JVM (which stops with this JVM) with a {@link DataContractLayer} in front of it, so that the registry keeps
 * data contracts and serves a DEK registry ({@code -Dkavro.stack.contracts=false}: Apicurio alone). The broker
 * runs in this JVM when its kafka-clients is the one the broker is built with (4.4), else in a child JVM of its
 * own, so that the test's clients keep the application's kafka-clients. Used by the demo, the integration tests
 * and the benchmarks; needs no Docker.
 */
public final class LocalStack implements TestStack {
  private static final Logger log = LoggerFactory.getLogger(LocalStack.class);

  private final KafkaBroker kafka;
  private final StackRegistry registry;

  private LocalStack(KafkaBroker kafka, StackRegistry registry) {
    this.kafka = kafka;
    this.registry = registry;
  }

  /** Starts both on free ports; the registry starts while the broker does. */
  public static LocalStack start() {
    return start(0, 0);
  }

  /**
   * Starts both on the given ports (0 for any free port); the registry's port is the contract layer's, and
   * Apicurio behind it takes any free port.
   */
  public static LocalStack start(int kafkaPort, int registryPort) {
    // Refuse a taken port before starting anything.
    if (kafkaPort != 0) {
      Ports.requireFree(kafkaPort, "the Kafka broker");
    }
    if (registryPort != 0) {
      Ports.requireFree(registryPort, "the schema registry");
    }
    long begin = System.nanoTime();
    BrokerBeside<StackRegistry> started = BrokerBeside.start(kafkaPort, () -> StackRegistry.start(registryPort));
    LocalStack stack = new LocalStack(started.kafka(), started.registry());
    log.info("Local stack up in {} ms: Kafka at {}, schema registry at {}",
        (System.nanoTime() - begin) / 1_000_000, stack.bootstrapServers(), stack.registryUrl());
    return stack;
  }

  @Override
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  @Override
  public String registryUrl() {
    return registry.url();
  }

  /** Stops the registry and the broker. */
  @Override
  public void close() {
    try {
      registry.close();
    } finally {
      kafka.close();
    }
  }
}
