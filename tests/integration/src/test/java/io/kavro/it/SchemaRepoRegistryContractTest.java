package io.kavro.it;

import io.kavro.registry.RegistryContractTest;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.testkit.EmbeddedSchemaRepo;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * Issue 39: the registry client contract against the real schema-repo 0.1.2 server (AVRO-1124) in a child JVM.
 * Its ids count per subject, and it has no compatibility levels (subjects are created with Kavro's
 * full-compatibility validator, {@code schema.repo.validators=full}), references, deletes, error codes, GUIDs or
 * metadata: the suite checks that each of those is a missing optional API, or the behaviour it has instead.
 */
class SchemaRepoRegistryContractTest extends RegistryContractTest {
  private static final Set<Capability> SCHEMA_REPO = Set.copyOf(EnumSet.noneOf(Capability.class));

  private static EmbeddedSchemaRepo repository;
  private SchemaRegistryClient client;

  @BeforeAll
  static void start() {
    repository = SharedSchemaRepo.repository();
  }

  @BeforeEach
  void connect() {
    client = SchemaRegistryClients.create(Map.of("schema.registry.url", repository.url(), "schema.registry.api",
        "schema-repo", "schema.repo.validators", EmbeddedSchemaRepo.FULL_VALIDATOR));
  }

  @Override
  protected SchemaRegistryClient client() {
    return client;
  }

  @Override
  protected Set<Capability> capabilities() {
    return SCHEMA_REPO;
  }

  @AfterEach
  void close() {
    client.close();
  }
}
