package io.kavro.registry;

import static io.kavro.registry.TestSchemas.ORDER;
import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static io.kavro.registry.TestSchemas.USER_V3_INCOMPATIBLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import io.kavro.registry.UnsupportedRegistryApiException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link SchemaRegistryClient} must have, whatever registry is behind it. Run against
 * the in-memory registry here and against a real registry in tests/integration.
 *
 * <p>Every test uses fresh subject names and never changes the global level, so that it can run against a
 * shared registry.
 */
public abstract class RegistryContractTest {
  protected String subject;

  /** The client under test; the same instance for the whole test. */
  protected abstract SchemaRegistryClient client();

  @BeforeEach
  void freshSubject() {
    subject = "contract-" + UUID.randomUUID() + "-value";
  }

  @Test
  void register_sameSchemaTwice_sameId() {
    int first = client().register(subject, USER_V1);
    int second = client().register(subject, TestSchemas.parse(USER_V1.toString()));

    assertThat(second).isEqualTo(first);
    assertThat(client().versions(subject)).containsExactly(1);
  }

  /**
   * Issue 23, item 3: a multi-event topic's union of two records, each registered under its own subject and
   * referenced (a nested type of one of them too): the registry answers the union whole, by id and by version, and
   * finds it again with the same references.
   */
  @Test
  void register_withReferences_answeredWhole_andFoundAgain() {
    String ns = "contract.r" + UUID.randomUUID().toString().replace("-", "");
    Schema placed = TestSchemas.parse("""
        {"type":"record","name":"OrderPlaced","namespace":"%s","fields":[{"name":"id","type":"string"},
          {"name":"to","type":{"type":"record","name":"Address","fields":[{"name":"street","type":"string"}]}}]}"""
        .formatted(ns));
    Schema shipped = TestSchemas.parse("""
        {"type":"record","name":"OrderShipped","namespace":"%s","fields":[{"name":"id","type":"string"}]}"""
        .formatted(ns));
    client().register(ns + ".OrderPlaced", placed);
    client().register(ns + ".OrderShipped", shipped);
    Schema union = Schema.createUnion(placed, shipped);
    List<SchemaReference> references = List.of(new SchemaReference(ns + ".OrderPlaced", ns + ".OrderPlaced", 1),
        new SchemaReference(ns + ".OrderShipped", ns + ".OrderShipped", 1));

    int id = client().register(subject, union, references);

    assertThat(client().schemaById(id)).isEqualTo(union);
    assertThat(client().latestVersion(subject).schema()).isEqualTo(union);
    assertThat(client().lookup(subject, union, references).id()).isEqualTo(id);
    assertThat(client().register(subject, union, references)).isEqualTo(id);
    assertThat(client().versions(subject)).containsExactly(1);
    assertThatThrownBy(() -> client().register(subject, union,
        List.of(new SchemaReference(ns + ".Nowhere", ns + ".OrderPlaced", 1))))
        .isInstanceOf(InvalidSchemaException.class).hasMessageContaining(ns + ".Nowhere");
  }

  @Test
  void register_evolvedSchema_newIdAndVersion() {
    int v1 = client().register(subject, USER_V1);
    client().setCompatibility(subject, CompatibilityLevel.BACKWARD);
    int v2 = client().register(subject, USER_V2);

    assertThat(v2).isNotEqualTo(v1);
    assertThat(client().versions(subject)).containsExactly(1, 2);
    SubjectVersion latest = client().latestVersion(subject);
    assertThat(latest.version()).isEqualTo(2);
    assertThat(latest.id()).isEqualTo(v2);
    assertThat(latest.schema()).isEqualTo(USER_V2);
    assertThat(client().version(subject, 1).id()).isEqualTo(v1);
    assertThat(client().version(subject, 1).schema()).isEqualTo(USER_V1);
  }

  @Test
  void register_incompatibleUnderBackward_rejectedWith409() {
    client().register(subject, USER_V2);
    client().setCompatibility(subject, CompatibilityLevel.BACKWARD);

    assertThatThrownBy(() -> client().register(subject, USER_V3_INCOMPATIBLE))
        .isInstanceOf(IncompatibleSchemaException.class)
        .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409));
    assertThat(client().versions(subject)).containsExactly(1);
  }

  @Test
  void register_incompatibleUnderNone_accepted() {
    // Some registries (Apicurio) only take a subject level once the subject exists.
    client().register(subject, USER_V2);
    client().setCompatibility(subject, CompatibilityLevel.NONE);
    client().register(subject, USER_V3_INCOMPATIBLE);

    assertThat(client().versions(subject)).containsExactly(1, 2);
  }

  @Test
  void schemaById_returnsRegisteredSchema() {
    int id = client().register(subject, ORDER);

    assertThat(client().schemaById(id)).isEqualTo(ORDER);
  }

  @Test
  void schemaById_unknown_notFound40403() {
    assertThatThrownBy(() -> client().schemaById(Integer.MAX_VALUE - 7))
        .isInstanceOf(SchemaNotFoundException.class)
        .satisfies(e -> assertThat(((SchemaRegistryException) e).errorCode()).isEqualTo(40403));
  }

  @Test
  void lookup_registeredSchema_findsIdAndVersion() {
    int id = client().register(subject, USER_V1);

    SubjectVersion found = client().lookup(subject, TestSchemas.parse(USER_V1.toString()));

    assertThat(found.id()).isEqualTo(id);
    assertThat(found.version()).isEqualTo(1);
    assertThat(found.subject()).isEqualTo(subject);
  }

  @Test
  void lookup_schemaNotInSubject_notFound() {
    client().register(subject, USER_V1);

    assertThatThrownBy(() -> client().lookup(subject, ORDER)).isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void lookup_unknownSubject_notFound() {
    assertThatThrownBy(() -> client().lookup(subject, ORDER)).isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void latestVersion_unknownSubject_notFound() {
    assertThatThrownBy(() -> client().latestVersion(subject)).isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void version_unknownVersion_notFound() {
    client().register(subject, USER_V1);

    assertThatThrownBy(() -> client().version(subject, 42)).isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void subjects_listsRegisteredSubject() {
    client().register(subject, USER_V1);

    assertThat(client().subjects()).contains(subject);
  }

  @Test
  void isCompatible_answersPerLevel() {
    client().register(subject, USER_V2);
    client().setCompatibility(subject, CompatibilityLevel.BACKWARD);

    assertThat(client().isCompatible(subject, USER_V1)).isTrue();
    assertThat(client().isCompatible(subject, USER_V3_INCOMPATIBLE)).isFalse();
  }

  /** Issue 22, item 12: a subject that does not exist (a misspelling) is not found, never "compatible". */
  @Test
  void isCompatible_unknownSubject_notFound() {
    assertThatThrownBy(() -> client().isCompatible(subject, USER_V1))
        .isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void compatibility_subjectLevel_setAndRead() {
    client().register(subject, USER_V1);
    client().setCompatibility(subject, CompatibilityLevel.FULL);

    assertThat(client().compatibility(subject)).isEqualTo(CompatibilityLevel.FULL);
  }

  @Test
  void compatibility_global_readable() {
    assertThat(client().compatibility()).isNotNull();
  }

  @Test
  void deleteSubject_soft_hidesSubjectButIdsResolve() {
    int id = client().register(subject, ORDER);

    assertThat(client().deleteSubject(subject)).containsExactly(1);

    assertThat(client().subjects()).doesNotContain(subject);
    assertThatThrownBy(() -> client().latestVersion(subject)).isInstanceOf(SchemaNotFoundException.class);
    assertThat(client().schemaById(id)).isEqualTo(ORDER);
  }

  @Test
  void deleteVersion_soft_removesOnlyThatVersion() {
    client().register(subject, USER_V1);
    client().setCompatibility(subject, CompatibilityLevel.NONE);
    client().register(subject, ORDER);

    assertThat(client().deleteVersion(subject, 2)).isEqualTo(2);

    assertThat(client().versions(subject)).containsExactly(1);
    assertThat(client().latestVersion(subject).schema()).isEqualTo(USER_V1);
  }

  @Test
  void subjectNames_withSpecialCharacters_roundTrip() {
    String odd = subject + " with spaces&?#:";
    int id = client().register(odd, USER_V1);

    assertThat(client().latestVersion(odd).id()).isEqualTo(id);
  }

  /**
   * Optional APIs: a registry that has them says "not found" for what it does not hold; one that lacks them says
   * so with its own type (UnsupportedRegistryApiException). Neither is ever "unavailable", which would be retried.
   */
  @Test
  void schemaByGuid_unknown_notFoundOrUnsupported_neverUnavailable() {
    assertThatThrownBy(() -> client().schemaByGuid(UUID.randomUUID()))
        .isInstanceOfAny(SchemaNotFoundException.class, UnsupportedRegistryApiException.class);
  }

  @Test
  void latestWithMetadata_noMatch_notFoundOrUnsupported_neverUnavailable() {
    client().register(subject, USER_V1);

    assertThatThrownBy(() -> client().latestWithMetadata(subject, java.util.Map.of("owner", "nobody")))
        .isInstanceOfAny(SchemaNotFoundException.class, UnsupportedRegistryApiException.class);
  }
}
