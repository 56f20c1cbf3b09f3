package io.kavro.registry;

import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.factory.SchemaRegistryClients;
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
   * Issue 35 on mock://: a schema registered with a data contract keeps it per id and per version, as Confluent's
   * registry does; a new version registered without one takes the latest's; the same schema with another
   * contract (or none) is another id.
   */
  @Test
  void contract_keptPerIdAndVersion_inheritedByANewVersion_otherContractOtherId() {
    io.kavro.registry.contract.Rule encrypt = new io.kavro.registry.contract.Rule("encryptSsn", null,
        io.kavro.registry.contract.Rule.Kind.TRANSFORM, io.kavro.registry.contract.Rule.Mode.WRITEREAD, "ENCRYPT",
        java.util.Set.of("PII"), Map.of("encrypt.kek.name", "kek1"), null, null, "ERROR,NONE", false);
    io.kavro.registry.contract.DataContract contract = new io.kavro.registry.contract.DataContract(
        new io.kavro.registry.contract.Metadata(Map.of("**.ssn", java.util.Set.of("PII")), Map.of("owner", "team-a"),
            java.util.Set.of()),
        new io.kavro.registry.contract.RuleSet(List.of(), List.of(encrypt), List.of(), null));
    int withRules = client.register("pii-value", USER_V1, List.of(), contract);

    assertThat(client.contractOf(withRules)).isEqualTo(contract);
    assertThat(client.contractOf(withRules).ruleSet().domainRules().get(0).params())
        .containsEntry("encrypt.kek.name", "kek1");
    assertThat(client.latestVersion("pii-value").contract()).isEqualTo(contract);
    assertThat(client.version("pii-value", 1).contract()).isEqualTo(contract);
    assertThat(client.lookup("pii-value", USER_V1).contract()).isEqualTo(contract);
    assertThat(client.latestWithMetadata("pii-value", Map.of("owner", "team-a")).id()).isEqualTo(withRules);

    int v2 = client.register("pii-value", USER_V2);
    assertThat(client.contractOf(v2)).as("a new version takes the latest's contract").isEqualTo(contract);

    int plain = client.register("plain-value", USER_V1);
    assertThat(plain).as("the same schema without a contract is another schema").isNotEqualTo(withRules);
    assertThat(client.contractOf(plain)).isEqualTo(io.kavro.registry.contract.DataContract.NONE);
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
