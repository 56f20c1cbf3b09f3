package io.kavro.it;

import io.kavro.registry.RegistryContractTest;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryClients;
import io.kavro.testkit.EmbeddedRegistry;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The registry client contract against Apicurio Registry 2 alone, through its Confluent-compatible API, without the
 * contract layer that the testkit's stack puts in front of it ({@link ApicurioRegistryContractTest} runs through
 * the layer): what a user pointing Kavro at Apicurio 2 gets. Its own registry, as the stack's layer is chosen once
 * per JVM ({@code -Dkavro.stack.contracts}).
 */
class BareApicurioRegistryContractTest extends RegistryContractTest {
  private static EmbeddedRegistry registry;
  private SchemaRegistryClient client;

  @BeforeAll
  static void start() {
    registry = EmbeddedRegistry.start(0);
  }

  @AfterAll
  static void stop() {
    registry.close();
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
