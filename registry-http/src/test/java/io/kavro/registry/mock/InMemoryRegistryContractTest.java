package io.kavro.registry.mock;

import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.RegistryContractTest;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryClients;
import io.kavro.registry.TestSchemas;
import java.util.Map;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The contract, run against {@code mock://}, plus what only the in-memory registry can show cheaply. */
class InMemoryRegistryContractTest extends RegistryContractTest {
  private final SchemaRegistryClient client =
      SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://contract"));

  @Override
  protected SchemaRegistryClient client() {
    return client;
  }

  @AfterEach
  void dropScope() {
    MockRegistries.drop("contract");
  }

  @Test
  void mockScope_sharedBetweenClientsOfSameScope() {
    SchemaRegistryClient other = SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://contract"));
    int id = client.register(subject, USER_V1);

    assertThat(other.schemaById(id)).isEqualTo(USER_V1);
  }

  @Test
  void mockScope_isolatedFromOtherScopes() {
    SchemaRegistryClient other = SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://elsewhere"));
    int id = client.register(subject, USER_V1);

    assertThatThrownBy(() -> other.schemaById(id)).isInstanceOf(SchemaNotFoundException.class);
    MockRegistries.drop("elsewhere");
  }

  @Test
  void register_sameSchemaInTwoSubjects_sameId() {
    assertThat(client.register(subject, USER_V1)).isEqualTo(client.register(subject + "-other", USER_V1));
  }

  @Test
  void register_backwardTransitive_checksEveryVersion() {
    Schema v1 = TestSchemas.parse("""
        {"type":"record","name":"T","fields":[{"name":"a","type":"int"}]}""");
    Schema v2 = TestSchemas.parse("""
        {"type":"record","name":"T","fields":[{"name":"a","type":"int"},{"name":"b","type":"int","default":0}]}""");
    // Reads v2 (b is ignored) but not v1: 'c' has no default.
    Schema v3 = TestSchemas.parse("""
        {"type":"record","name":"T","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"},
          {"name":"c","type":"int","default":0}]}""");
    client.setCompatibility(subject, CompatibilityLevel.BACKWARD);
    client.register(subject, v1);
    client.register(subject, v2);
    assertThat(client.isCompatible(subject, v3)).isTrue();

    client.setCompatibility(subject, CompatibilityLevel.BACKWARD_TRANSITIVE);

    assertThat(client.isCompatible(subject, v3)).isFalse();
    assertThatThrownBy(() -> client.register(subject, v3))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("version 1");
  }

  @Test
  void register_forward_oldReaderMustReadNewData() {
    client.setCompatibility(subject, CompatibilityLevel.FORWARD);
    client.register(subject, USER_V2);

    // V1 readers can read data written with V2 (email is ignored), so FORWARD allows going back to V1.
    assertThat(client.isCompatible(subject, USER_V1)).isTrue();
    Schema dropsName = TestSchemas.parse("""
        {"type":"record","name":"User","namespace":"io.kavro.test","fields":[
          {"name":"email","type":["null","string"],"default":null}]}""");
    assertThat(client.isCompatible(subject, dropsName)).isFalse();
  }

  @Test
  void compatibility_subjectWithoutOwnLevel_fallsBackToGlobal() {
    assertThat(client.compatibility(subject)).isEqualTo(CompatibilityLevel.BACKWARD);
    client.setCompatibility(CompatibilityLevel.NONE);

    assertThat(client.compatibility(subject)).isEqualTo(CompatibilityLevel.NONE);
  }

  @Test
  void deleteSubjectPermanently_requiresSoftDeleteFirst() {
    client.register(subject, USER_V1);

    assertThatThrownBy(() -> client.deleteSubjectPermanently(subject))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessageContaining("not deleted first");

    client.deleteSubject(subject);
    assertThat(client.deleteSubjectPermanently(subject)).containsExactly(1);
    assertThatThrownBy(() -> client.deleteSubjectPermanently(subject)).isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void register_afterSoftDelete_newVersionSameId() {
    int id = client.register(subject, USER_V1);
    client.deleteSubject(subject);

    assertThat(client.register(subject, USER_V1)).isEqualTo(id);
    assertThat(client.versions(subject)).containsExactly(2);
  }

  @Test
  void deleteVersionPermanently_requiresSoftDeleteFirst() {
    client.register(subject, USER_V1);
    client.register(subject, USER_V2);

    assertThatThrownBy(() -> client.deleteVersionPermanently(subject, 1))
        .isInstanceOf(SchemaNotFoundException.class);
    client.deleteVersion(subject, 1);
    assertThat(client.deleteVersionPermanently(subject, 1)).isEqualTo(1);
    assertThat(client.versions(subject)).containsExactly(2);
  }
}
