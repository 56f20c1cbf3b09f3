package io.kavro.it;

import io.kavro.registry.RegistryContractTest;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.testkit.EmbeddedRegistry;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The registry client contract against Apicurio Registry 3, in a child JVM of Java 21 or later (the testkit
 * finds one; Temurin 25 on these machines), through its Confluent-compatible API; the registry is the one
 * {@link ApicurioFramingTest} uses too ({@link SharedApicurio3}), as the contract takes subjects of its own.
 */
@ExtendWith(SharedApicurio3.class)
class Apicurio3RegistryContractTest extends RegistryContractTest {
  private static EmbeddedRegistry registry;
  private SchemaRegistryClient client;

  @BeforeAll
  static void start(EmbeddedRegistry apicurio3) {
    registry = apicurio3;
  }

  @BeforeEach
  void connect() {
    client = SchemaRegistryClients.create(Map.of("schema.registry.url", registry.url()));
  }

  @Override
  protected SchemaRegistryClient client() {
    return client;
  }

  @AfterEach
  void close() {
    client.close();
  }
}
