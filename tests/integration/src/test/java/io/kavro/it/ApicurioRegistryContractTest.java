package io.kavro.it;

import io.kavro.registry.RegistryContractTest;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

/** The registry client contract, against a real registry over HTTP. */
@ExtendWith(KavroStackExtension.class)
class ApicurioRegistryContractTest extends RegistryContractTest {
  private final SchemaRegistryClient client;

  ApicurioRegistryContractTest(TestStack stack) {
    this.client = SchemaRegistryClients.create(Map.of("schema.registry.url", stack.registryUrl()));
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
