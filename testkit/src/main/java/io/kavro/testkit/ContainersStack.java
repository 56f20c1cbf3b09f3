package io.kavro.testkit;

import java.time.Duration;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The stack in Docker: apache/kafka and apicurio/apicurio-registry, through Testcontainers, with a {@link
 * DataContractLayer} in front of the registry (see {@link StackRegistry}).
 */
final class ContainersStack implements TestStack {
  private final KafkaContainer kafka;
  private final GenericContainer<?> registry;
  private final StackRegistry contracts;

  @SuppressWarnings("resource")
  ContainersStack() {
    kafka = new KafkaContainer("apache/kafka:4.1.0");
    registry = new GenericContainer<>("apicurio/apicurio-registry:2.6.13.Final")
        .withExposedPorts(8080)
        .waitingFor(Wait.forHttp("/apis/ccompat/v7/subjects").forStatusCode(200))
        .withStartupTimeout(Duration.ofMinutes(3));
    kafka.start();
    registry.start();
    try {
      contracts = StackRegistry.inFront(registry::stop,
          "http://" + registry.getHost() + ":" + registry.getMappedPort(8080) + "/apis/ccompat/v7", 0);
    } catch (RuntimeException e) {
      registry.stop();
      kafka.stop();
      throw e;
    }
  }

  @Override
  public String bootstrapServers() {
    return kafka.getBootstrapServers();
  }

  @Override
  public String registryUrl() {
    return contracts.url();
  }

  @Override
  public void close() {
    contracts.close();
    kafka.stop();
  }
}
