package io.kavro.testkit;

import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka broker and the schema-repo 0.1.2 server (AVRO-1124) on 127.0.0.1: a KRaft broker as {@link LocalStack}
 * starts it, and {@link EmbeddedSchemaRepo} in a child JVM, with Kavro's full-compatibility validator. Its
 * {@link #registryConfigs()} point a serde at it: {@code schema.registry.api=schema-repo}, and subjects that Kavro
 * creates check new schemas with the full-compatibility validator. Needs no Docker.
 */
public final class SchemaRepoStack implements TestStack {
  private static final Logger log = LoggerFactory.getLogger(SchemaRepoStack.class);

  private final KafkaBroker kafka;
  private final EmbeddedSchemaRepo repository;

  private SchemaRepoStack(KafkaBroker kafka, EmbeddedSchemaRepo repository) {
    this.kafka = kafka;
    this.repository = repository;
  }

  /** Starts both on free ports; the repository starts while the broker does. */
  public static SchemaRepoStack start() {
    long begin = System.nanoTime();
    BrokerBeside<EmbeddedSchemaRepo> started = BrokerBeside.start(0, () -> EmbeddedSchemaRepo.start(0));
    SchemaRepoStack stack = new SchemaRepoStack(started.kafka(), started.registry());
    log.info("schema-repo stack up in {} ms: Kafka at {}, schema-repo at {}",
        (System.nanoTime() - begin) / 1_000_000, stack.bootstrapServers(), stack.registryUrl());
    return stack;
  }

  @Override
  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  /** schema-repo's base URL, {@code http://127.0.0.1:<port>/schema-repo}. */
  @Override
  public String registryUrl() {
    return repository.url();
  }

  /** The URL, {@code schema.registry.api=schema-repo} and {@code schema.repo.validators} (the full check). */
  @Override
  public Map<String, Object> registryConfigs() {
    return Map.of("schema.registry.url", registryUrl(), "schema.registry.api", "schema-repo",
        "schema.repo.validators", EmbeddedSchemaRepo.FULL_VALIDATOR);
  }

  /** Stops the repository and the broker. */
  @Override
  public void close() {
    try {
      repository.close();
    } finally {
      kafka.close();
    }
  }
}
