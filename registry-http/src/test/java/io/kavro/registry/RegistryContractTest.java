package io.kavro.registry;

import static io.kavro.registry.TestSchemas.ORDER;
import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static io.kavro.registry.TestSchemas.USER_V3_INCOMPATIBLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.RuleSet;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link SchemaRegistryClient} must have, whatever registry is behind it. Run against
 * the in-memory registry here and against a real registry in tests/integration.
 *
 * <p>Every test uses fresh subject names and never changes the global level, so that it can run against a
 * shared registry.
 *
 * <p>The contract is Confluent's. A registry that lacks part of it (schema-repo: ids per subject, no levels, no
 * deletes...) says so in {@link #capabilities()}; a test of a feature it lacks then asserts that the call is an
 * {@link UnsupportedRegistryApiException} naming what is missing, or that the behaviour the registry has instead
 * is there.
 */
public abstract class RegistryContractTest {
  /** What a registry may have beyond the core API (register, lookup, versions, subjects, compatibility check). */
  public enum Capability {
    /** Ids are the registry's, unique across subjects: {@code schemaById(id)} needs no subject. */
    GLOBAL_IDS,
    /** Compatibility levels, global and per subject, that can be read and set. */
    COMPATIBILITY_LEVELS,
    /** Schema references. */
    REFERENCES,
    /** Soft and permanent deletes of subjects and versions. */
    DELETES,
    /** Confluent's error codes (40401, 40403...) in its failures. */
    ERROR_CODES,
    /**
     * Whether the client may ask the registry for GUIDs ({@code schemaByGuid}); the registry may still lack the
     * API (Apicurio, Confluent 7), which the client then reports as unsupported.
     */
    GUIDS,
    /** As {@link #GUIDS}, for schema metadata ({@code latestWithMetadata}). */
    METADATA
  }

  /** Everything Confluent's contract has. */
  protected static final Set<Capability> CONFLUENT = Set.copyOf(EnumSet.allOf(Capability.class));

  protected String subject;

  /** The client under test; the same instance for the whole test. */
  protected abstract SchemaRegistryClient client();

  /** What the registry under test has, immutable; {@link #CONFLUENT} unless a subclass says otherwise. */
  protected Set<Capability> capabilities() {
    return CONFLUENT;
  }

  private boolean has(Capability capability) {
    return capabilities().contains(capability);
  }

  /**
   * The schema of {@code id} in {@code subject}: {@code schemaById(id)} on a registry whose ids are global, the
   * subject's client's ({@link SchemaRegistryClient#forSubject}) where ids count per subject.
   */
  protected Schema schemaById(String subject, int id) {
    return has(Capability.GLOBAL_IDS) ? client().schemaById(id) : client().forSubject(subject).schemaById(id);
  }

  /**
   * Sets the subject's level where the registry has levels; where it has none, asserts that setting one is a
   * missing optional API that says so, and leaves the subject's own rules (schema-repo's validators) in force.
   */
  private void setCompatibility(String subject, CompatibilityLevel level) {
    if (has(Capability.COMPATIBILITY_LEVELS)) {
      client().setCompatibility(subject, level);
    } else {
      assertUnsupported(() -> client().setCompatibility(subject, level), "compatibility levels");
    }
  }

  /**
   * Registering {@code schema} under {@link #subject} is refused by the subject's own rules (schema-repo's
   * validators), with a message that names the field that breaks compatibility.
   */
  private void assertRefusedByValidators(Schema schema, String field) {
    assertThatThrownBy(() -> client().register(subject, schema))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining(field);
  }

  /** The call is a missing optional API whose message names what is missing. */
  protected static void assertUnsupported(ThrowingCallable call, String missing) {
    assertThatThrownBy(call).isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining(missing);
  }

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
    if (!has(Capability.REFERENCES)) {
      assertUnsupported(() -> client().register(subject, union, references), "schema references");
      assertUnsupported(() -> client().lookup(subject, union, references), "schema references");
      assertThatThrownBy(() -> client().latestVersion(subject)).as("nothing registered")
          .isInstanceOf(SchemaNotFoundException.class);
      return;
    }

    int id = client().register(subject, union, references);

    assertThat(schemaById(subject, id)).isEqualTo(union);
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
    setCompatibility(subject, CompatibilityLevel.BACKWARD);
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

  /**
   * Under BACKWARD, Confluent's 409. A registry without levels (schema-repo) refuses it by the subject's own
   * validators (full compatibility here): the same exception type, naming the field that breaks it.
   */
  @Test
  void register_incompatibleUnderBackward_rejectedWith409() {
    client().register(subject, USER_V2);
    setCompatibility(subject, CompatibilityLevel.BACKWARD);

    if (has(Capability.COMPATIBILITY_LEVELS)) {
      assertThatThrownBy(() -> client().register(subject, USER_V3_INCOMPATIBLE))
          .isInstanceOf(IncompatibleSchemaException.class)
          .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(409));
    } else {
      assertRefusedByValidators(USER_V3_INCOMPATIBLE, "User.age");
    }
    assertThat(client().versions(subject)).containsExactly(1);
  }

  /**
   * Under NONE, anything goes. A registry without levels cannot be told so: the subject's validators stay in force
   * and still refuse the schema.
   */
  @Test
  void register_incompatibleUnderNone_accepted() {
    // Some registries (Apicurio) only take a subject level once the subject exists.
    client().register(subject, USER_V2);
    setCompatibility(subject, CompatibilityLevel.NONE);

    if (has(Capability.COMPATIBILITY_LEVELS)) {
      client().register(subject, USER_V3_INCOMPATIBLE);
      assertThat(client().versions(subject)).containsExactly(1, 2);
    } else {
      assertRefusedByValidators(USER_V3_INCOMPATIBLE, "User.age");
      assertThat(client().versions(subject)).containsExactly(1);
    }
  }

  @Test
  void schemaById_returnsRegisteredSchema() {
    int id = client().register(subject, ORDER);

    assertThat(schemaById(subject, id)).isEqualTo(ORDER);
    assertThat(client().idsPerSubject()).isEqualTo(!has(Capability.GLOBAL_IDS));
    if (!has(Capability.GLOBAL_IDS)) {
      assertUnsupported(() -> client().schemaById(id), "forSubject");
    }
  }

  /** Two subjects' ids each read their own schema, also where both subjects number theirs from 0. */
  @Test
  void schemaById_twoSubjects_eachReadsItsOwn() {
    String other = subject + "-other";
    int user = client().register(subject, USER_V1);
    int order = client().register(other, ORDER);

    assertThat(schemaById(subject, user)).isEqualTo(USER_V1);
    assertThat(schemaById(other, order)).isEqualTo(ORDER);
    assertThat(client().latestVersion(other).schema()).isEqualTo(ORDER);
    assertThat(schemaById(subject, user)).as("again, from the cache").isEqualTo(USER_V1);
  }

  @Test
  void schemaById_unknown_notFound40403() {
    client().register(subject, ORDER); // the subject exists: only the id is unknown

    assertThatThrownBy(() -> schemaById(subject, Integer.MAX_VALUE - 7))
        .isInstanceOf(SchemaNotFoundException.class)
        .satisfies(e -> assertThat(((SchemaRegistryException) e).errorCode())
            .isEqualTo(has(Capability.ERROR_CODES) ? 40403 : -1));
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
    setCompatibility(subject, CompatibilityLevel.BACKWARD);

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
    setCompatibility(subject, CompatibilityLevel.FULL);

    if (has(Capability.COMPATIBILITY_LEVELS)) {
      assertThat(client().compatibility(subject)).isEqualTo(CompatibilityLevel.FULL);
    } else {
      assertUnsupported(() -> client().compatibility(subject), "compatibility levels");
    }
  }

  @Test
  void compatibility_global_readable() {
    if (has(Capability.COMPATIBILITY_LEVELS)) {
      assertThat(client().compatibility()).isNotNull();
    } else {
      assertUnsupported(() -> client().compatibility(), "compatibility levels");
      assertUnsupported(() -> client().setCompatibility(CompatibilityLevel.NONE), "compatibility levels");
    }
  }

  @Test
  void deleteSubject_soft_hidesSubjectButIdsResolve() {
    int id = client().register(subject, ORDER);
    if (!has(Capability.DELETES)) {
      assertUnsupported(() -> client().deleteSubject(subject), "deletes");
      assertUnsupported(() -> client().deleteSubjectPermanently(subject), "deletes");
      assertThat(client().subjects()).as("still there").contains(subject);
      assertThat(client().latestVersion(subject).id()).isEqualTo(id);
      return;
    }

    assertThat(client().deleteSubject(subject)).containsExactly(1);

    assertThat(client().subjects()).doesNotContain(subject);
    assertThatThrownBy(() -> client().latestVersion(subject)).isInstanceOf(SchemaNotFoundException.class);
    assertThat(schemaById(subject, id)).isEqualTo(ORDER);
  }

  @Test
  void deleteVersion_soft_removesOnlyThatVersion() {
    client().register(subject, USER_V1);
    if (!has(Capability.DELETES)) {
      assertUnsupported(() -> client().deleteVersion(subject, 1), "deletes");
      assertUnsupported(() -> client().deleteVersionPermanently(subject, 1), "deletes");
      assertThat(client().versions(subject)).as("still there").containsExactly(1);
      return;
    }
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
    assertThat(schemaById(odd, id)).isEqualTo(USER_V1);
    assertThat(client().lookup(odd, USER_V1).id()).isEqualTo(id);
  }

  /**
   * Issue 49, item 8: a subject reaches exactly that subject, however spelt. Each odd subject is the name of an
   * existing subject (the victim) and a tail that a server or URL builder could cut off or resolve away (OkHttp left
   * ';' as it is, and schema-repo's server cut the segment there: {@code victim-value;x} wrote into
   * {@code victim-value}). The victim keeps its one version, and the odd subject holds its own schema.
   */
  @Test
  void subjectNames_everySpelling_reachesExactlyThatSubject_neverAnother() {
    String victim = subject;
    int victimId = client().register(victim, USER_V1);
    for (String tail : subjectTails()) {
      String odd = victim + tail;
      int id = client().register(odd, ORDER);

      assertThat(client().latestVersion(odd).schema()).as(odd).isEqualTo(ORDER);
      assertThat(client().lookup(odd, ORDER).id()).as(odd).isEqualTo(id);
      assertThat(schemaById(odd, id)).as(odd).isEqualTo(ORDER);
      assertThat(client().versions(odd)).as(odd).containsExactly(1);
      assertThat(client().versions(victim)).as("the victim, after " + odd).containsExactly(1);
      assertThat(client().latestVersion(victim).id()).as("the victim, after " + odd).isEqualTo(victimId);
    }
    assertThat(client().subjects()).as("every odd subject is listed as itself")
        .containsAll(subjectTails().stream().map(tail -> victim + tail).toList());
  }

  /** The tails {@link #subjectNames_everySpelling_reachesExactlyThatSubject_neverAnother} appends to a subject. */
  protected List<String> subjectTails() {
    return List.of(";x", ";", "?x=1", "#x", "%3Bx", "%", " x", "+x", ":x@y", "-\u00fc\u20ac\ud834\udd1e", "/x",
        "/../x", "/..", "\\x", "&x=y", "!$'()*,");
  }

  /** An empty, '.' or '..' subject would reach another subject or endpoint: refused by name, on every registry. */
  @Test
  void subjectNames_dotDotDotAndEmpty_refusedByName() {
    for (String refused : List.of(".", "..", "")) {
      assertThatThrownBy(() -> client().register(refused, USER_V1)).isInstanceOf(InvalidSubjectException.class)
          .hasMessageContaining("'" + refused + "'");
      assertThatThrownBy(() -> client().latestVersion(refused)).isInstanceOf(InvalidSubjectException.class);
      assertThatThrownBy(() -> client().lookup(refused, USER_V1)).isInstanceOf(InvalidSubjectException.class);
      assertThatThrownBy(() -> client().versions(refused)).isInstanceOf(InvalidSubjectException.class);
    }
  }

  /**
   * Optional APIs: a registry that has them says "not found" for what it does not hold; one that lacks them says
   * so with its own type (UnsupportedRegistryApiException). Neither is ever "unavailable", which would be retried.
   */
  @Test
  void schemaByGuid_unknown_notFoundOrUnsupported_neverUnavailable() {
    if (!has(Capability.GUIDS)) {
      int id = client().register(subject, USER_V1);
      assertUnsupported(() -> client().schemaByGuid(UUID.randomUUID()), "GUIDs");
      assertThat(client().forSubject(subject).guidOf(id)).as("no GUID for a registered id").isNull();
      return;
    }
    assertThatThrownBy(() -> client().schemaByGuid(UUID.randomUUID()))
        .isInstanceOfAny(SchemaNotFoundException.class, UnsupportedRegistryApiException.class);
  }

  @Test
  void latestWithMetadata_noMatch_notFoundOrUnsupported_neverUnavailable() {
    client().register(subject, USER_V1);

    if (!has(Capability.METADATA)) {
      assertUnsupported(() -> client().latestWithMetadata(subject, Map.of("owner", "nobody")), "metadata");
      DataContract owned = new DataContract(new Metadata(Map.of(), Map.of("owner", "team-a"), Set.of()),
          RuleSet.EMPTY);
      assertUnsupported(() -> client().register(subject, USER_V2, List.of(), owned), "metadata");
      assertThat(client().forSubject(subject).contractOf(client().latestVersion(subject).id()))
          .isEqualTo(DataContract.NONE);
      assertThat(client().versions(subject)).as("nothing registered").containsExactly(1);
      return;
    }
    assertThatThrownBy(() -> client().latestWithMetadata(subject, Map.of("owner", "nobody")))
        .isInstanceOfAny(SchemaNotFoundException.class, UnsupportedRegistryApiException.class);
  }
}
