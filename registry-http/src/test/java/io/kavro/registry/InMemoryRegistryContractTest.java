package io.kavro.registry;

import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import java.util.List;
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
  /**
   * Issue 23, item 4, on mock://: a schema registered with data contract rules is refused by every client of the
   * scope wherever it meets it (by id, by version, latest, by lookup), naming the rules; a client configured with
   * rules.ignore=true uses it; the same schema without rules is another id, usable by all.
   */
  @Test
  void schemaWithRules_refusedByEveryClient_unlessItIgnoresRules() {
    InMemorySchemaRegistry registry = (InMemorySchemaRegistry) MockRegistries.scope("contract");
    int withRules = registry.registerWithRules("pii-value", USER_V1, List.of("domainRules encryptSsn (ENCRYPT)"));
    SchemaRegistryClient ignoring = SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://contract",
        "rules.ignore", "true"));

    assertThatThrownBy(() -> client.schemaById(withRules)).isInstanceOf(UnsupportedRulesException.class)
        .hasMessageContaining("get schema by id " + withRules + " refused")
        .hasMessageContaining("domainRules encryptSsn (ENCRYPT)").hasMessageContaining("rules.ignore=true");
    assertThatThrownBy(() -> client.latestVersion("pii-value")).isInstanceOf(UnsupportedRulesException.class)
        .hasMessageContaining("subject 'pii-value'");
    assertThatThrownBy(() -> client.version("pii-value", 1)).isInstanceOf(UnsupportedRulesException.class);
    assertThatThrownBy(() -> client.lookup("pii-value", USER_V1)).isInstanceOf(UnsupportedRulesException.class);
    assertThatThrownBy(() -> client.schemaByGuid(registry.ignoringRules().guidOf(withRules)))
        .isInstanceOf(UnsupportedRulesException.class);
    assertThat(ignoring.schemaById(withRules)).isEqualTo(USER_V1);
    assertThat(ignoring.latestVersion("pii-value").id()).isEqualTo(withRules);

    assertThatThrownBy(() -> client.register("pii-value", USER_V2)).as("a new version takes the latest's rules")
        .isInstanceOf(UnsupportedRulesException.class);
    assertThat(registry.ignoringRules().latestVersion("pii-value").schema()).as("registered all the same")
        .isEqualTo(USER_V2);

    int plain = client.register("plain-value", USER_V1);
    assertThat(plain).as("the same schema without rules is another schema").isNotEqualTo(withRules);
    assertThat(client.schemaById(plain)).isEqualTo(USER_V1);
  }

  @Test
  void register_referenceToAVersionThatIsNotThere_notFound_orThatDoesNotDefineTheType_invalid() {
    Schema union = Schema.createUnion(USER_V1, TestSchemas.ORDER);
    String user = USER_V1.getFullName();

    assertThatThrownBy(() -> client.register("u-value", union, List.of(new SchemaReference(user, "users", 1))))
        .isInstanceOf(SchemaNotFoundException.class).hasMessageContaining("'users'");
    client.register("orders", TestSchemas.ORDER);
    assertThatThrownBy(() -> client.register("u-value", union, List.of(new SchemaReference(user, "orders", 1))))
        .isInstanceOf(io.kavro.registry.InvalidSchemaException.class)
        .hasMessageContaining("version 1 of subject 'orders' does not define " + user);
  }
}
