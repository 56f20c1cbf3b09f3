package io.kavro.registry.mock;

import io.kavro.registry.Association;
import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaContexts;
import io.kavro.registry.SchemaIncompatibilities;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.internal.schema.ReferencedTypes;
import io.kavro.registry.internal.schema.SchemaDefaults;
import io.kavro.registry.internal.schema.SubjectNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import org.apache.avro.Schema;

/**
 * An in-memory schema registry with the Confluent registry's semantics, for tests: the {@link MockRegistry} of a
 * {@code mock://scope} URL, which users reach through {@link io.kavro.registry.mock.MockRegistries}.
 *
 * <ul>
 *   <li>The same schema text gets the same id in every subject of a schema context; ids start at 1. Each context
 *       ({@code :.ctx:orders-value} is in {@code :.ctx:}) numbers its schemas apart, as in Confluent's registry:
 *       {@link #inContext} answers a context's ids.</li>
 *   <li>Versions are numbered per subject from 1 and never reused.</li>
 *   <li>New versions are checked against the subject's compatibility level (global default {@code BACKWARD})
 *       with Avro's {@link org.apache.avro.SchemaCompatibility}, against the latest version or, for the
 *       transitive levels, every live version.</li>
 *   <li>Deletes are soft first; a permanent delete needs a soft delete before it. Ids keep resolving after
 *       any delete, so that old records stay readable.</li>
 * </ul>
 *
 * <p>Thread-safe: every operation holds this registry's lock, which is fine for an in-memory test double.
 */
final class InMemorySchemaRegistry implements MockRegistry {
  private static final String NO_URL = null;

  private final State state;
  /** The context whose ids this client's id calls answer: see {@link #inContext}. */
  private final String context;

  /** One schema context's ids, as Confluent's registry keeps them: from 1, apart from every other context's. */
  private static final class Ids {
    /** Ids by what they stand for: the schema's text and its data contract, as in Confluent's registry. */
    final Map<List<Object>, Integer> idsByContent = new HashMap<>();
    final Map<Integer, Schema> schemasById = new HashMap<>();
    final Map<Integer, DataContract> contractsById = new HashMap<>();
  }

  /** What every client of one registry sees; guarded by itself. */
  private static final class State {
    /** The ids of each schema context ({@link SchemaContexts#qualifier}): each context numbers its schemas apart. */
    final Map<String, Ids> contexts = new HashMap<>();
    final Map<String, Subject> subjects = new LinkedHashMap<>();
    final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
    final LongAdder requests = new LongAdder();
    final LongAdder errors = new LongAdder();
    final InMemoryDekRegistry deks = new InMemoryDekRegistry();
    final List<Association> associations = new ArrayList<>();
    CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;
    /** The registry's view of each context, by qualifier, the default context's the registry itself. */
    final java.util.concurrent.ConcurrentHashMap<String, InMemorySchemaRegistry> views =
        new java.util.concurrent.ConcurrentHashMap<>();
  }

  /** An empty registry. */
  InMemorySchemaRegistry() {
    this.state = new State();
    this.context = SchemaContexts.DEFAULT;
    state.views.put(context, this);
  }

  private InMemorySchemaRegistry(State state, String context) {
    this.state = state;
    this.context = context;
  }

  /**
   * {@inheritDoc}
   *
   * <p>This registry models Confluent's contexts: a context-qualified subject ({@code :.ctx:orders-value}) numbers
   * its schemas in its context, from 1; the view answers that context's ids, on this registry's state. One view
   * per context, made on first use.
   */
  @Override
  public SchemaRegistryClient inContext(String context) {
    String qualifier = SchemaContexts.qualifier(context);
    return qualifier.equals(this.context) ? this
        : state.views.computeIfAbsent(qualifier, q -> new InMemorySchemaRegistry(state, q));
  }

  /** The ids of {@code context}, made on first use; called under the state's lock. */
  private Ids ids(String context) {
    return state.contexts.computeIfAbsent(context, c -> new Ids());
  }

  /** The ids of the context {@code subject} is in; called under the state's lock. */
  private Ids idsOf(String subject) {
    return ids(SchemaContexts.of(subject));
  }

  /** {@inheritDoc} This registry's own, which every client of its scope shares: see {@link InMemoryDekRegistry}. */
  @Override
  public io.kavro.registry.DekRegistry dekRegistry() {
    return state.deks;
  }

  @Override
  public void associate(Association association) {
    Objects.requireNonNull(association, "association");
    synchronized (state) {
      state.associations.removeIf(known -> known.resourceNamespace().equals(association.resourceNamespace())
          && known.resourceName().equals(association.resourceName())
          && known.resourceType().equals(association.resourceType())
          && known.associationType().equals(association.associationType()));
      state.associations.add(association);
    }
  }

  /** {@inheritDoc} As Confluent's registry: the namespace {@link Association#ANY_NAMESPACE} matches every one. */
  @Override
  public List<Association> associations(String resourceNamespace, String resourceName, String resourceType,
      String associationType) {
    synchronized (state) {
      state.requests.increment();
      return state.associations.stream()
          .filter(a -> a.resourceName().equals(resourceName) && a.resourceType().equals(resourceType)
              && a.associationType().equals(associationType)
              && (Association.ANY_NAMESPACE.equals(resourceNamespace)
                  || a.resourceNamespace().equals(resourceNamespace)))
          .toList();
    }
  }

  private static final class Subject {
    final List<Version> versions = new ArrayList<>();
    int lastVersion;

    List<Version> live() {
      return versions.stream().filter(v -> !v.deleted).toList();
    }
  }

  private static final class Version {
    final int number;
    final int id;
    boolean deleted;

    Version(int number, int id) {
      this.number = number;
      this.id = id;
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>Each referenced subject version must exist and define the type it is referenced for; the schema is then
   * held whole, as a registry answers it once its references are resolved. As in Confluent's registry, a schema
   * registered without rules takes the rules of the subject's latest version.
   */
  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    SubjectNames.checked(subject, "register schema");
    synchronized (state) {
      Subject s = state.subjects.get(subject);
      List<Version> live = s == null ? List.of() : s.live();
      DataContract inherited = live.isEmpty() ? DataContract.NONE : contract(idsOf(subject), live.get(live.size() - 1).id);
      return register(subject, schema, references, inherited);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>As in Confluent's registry, the same schema with another contract is another id and a new version; the
   * contract's rules run in the serde, as they would on a real registry.
   */
  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references, DataContract contract) {
    SubjectNames.checked(subject, "register schema");
    synchronized (state) {
      String operation = "register schema under subject '" + subject + "'";
      checkReferences(schema, references, operation);
      SchemaDefaults.check(schema, operation);
      state.requests.increment();
      List<Object> key = List.of(schema.toString(), contract);
      Subject s = state.subjects.computeIfAbsent(subject, k -> new Subject());
      Integer existing = idsOf(subject).idsByContent.get(key);
      if (existing != null) {
        for (Version v : s.live()) {
          if (v.id == existing) {
            return existing;
          }
        }
      }
      checkCompatible(subject, s, schema);
      int id = existing != null ? existing : nextId(idsOf(subject), key, schema, contract);
      s.versions.add(new Version(++s.lastVersion, id));
      return id;
    }
  }

  @Override
  public int register(String subject, Schema schema, Map<String, String> metadata) {
    SubjectNames.checked(subject, "register schema");
    return register(subject, schema, List.of(), new DataContract(new Metadata(Map.of(), metadata, Set.of()),
        RuleSet.EMPTY));
  }

  /**
   * {@inheritDoc}
   *
   * <p>Not counted as a request of its own: a registry answers a schema's contract with the schema itself (by id,
   * by version, or a registration's answer), so a client that has the schema has its contract.
   */
  @Override
  public DataContract contractOf(int id) {
    synchronized (state) {
      if (!ids(context).schemasById.containsKey(id)) {
        throw notFound(40403, "Schema " + id + " not found");
      }
      return contract(ids(context), id);
    }
  }

  /** Not counted as a request of its own, as {@link #contractOf(int)}. */
  @Override
  public DataContract contractOf(java.util.UUID guid) {
    synchronized (state) {
      for (Ids ids : state.contexts.values()) {
        for (Map.Entry<Integer, Schema> known : ids.schemasById.entrySet()) {
          if (guid(known.getValue()).equals(guid)) {
            return contract(ids, known.getKey());
          }
        }
      }
      throw notFound(40403, "Schema guid " + guid + " not found");
    }
  }

  private static DataContract contract(Ids ids, int id) {
    return ids.contractsById.getOrDefault(id, DataContract.NONE);
  }

  private void checkReferences(Schema schema, List<SchemaReference> references, String operation) {
    // The text a registry would store: refuses a reference to a type that the schema does not use.
    ReferencedTypes.text(schema, references, operation);
    for (SchemaReference reference : references) {
      Schema defining = version(reference.subject(), reference.version()).schema();
      if (!ReferencedTypes.namedTypes(defining).containsKey(reference.name())) {
        throw new InvalidSchemaException(operation + " refused: version " + reference.version() + " of subject '"
            + reference.subject() + "' does not define " + reference.name(), 422, 44201, NO_URL, null);
      }
    }
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    SubjectNames.checked(subject, "look up schema");
    synchronized (state) {
      checkReferences(schema, references, "look up schema in subject '" + subject + "'");
      state.requests.increment();
      Subject s = liveSubject(subject);
      String text = schema.toString();
      List<Version> live = s.live();
      for (int i = live.size() - 1; i >= 0; i--) {
        if (idsOf(subject).schemasById.get(live.get(i).id).toString().equals(text)) {
          return toSubjectVersion(subject, live.get(i));
        }
      }
      throw notFound(40403, "Schema not found in subject '" + subject + "'");
    }
  }

  @Override
  public Schema schemaById(int id) {
    synchronized (state) {
      state.requests.increment();
      Schema schema = ids(context).schemasById.get(id);
      if (schema == null) {
        throw notFound(40403, "Schema " + id + " not found");
      }
      return schema;
    }
  }

  /** The GUID of each schema: derived from its text, so the same schema has the same GUID in every scope. */
  private static java.util.UUID guid(Schema schema) {
    return java.util.UUID.nameUUIDFromBytes(schema.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Override
  public Schema schemaByGuid(java.util.UUID guid) {
    synchronized (state) {
      state.requests.increment();
      for (Ids ids : state.contexts.values()) {
        for (Map.Entry<Integer, Schema> known : ids.schemasById.entrySet()) {
          if (guid(known.getValue()).equals(guid)) {
            return known.getValue();
          }
        }
      }
      throw notFound(40403, "Schema guid " + guid + " not found");
    }
  }

  @Override
  public java.util.UUID guidOf(int id) {
    synchronized (state) {
      return guid(schemaById(id));
    }
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    SubjectNames.checked(subject, "get latest version");
    synchronized (state) {
      state.requests.increment();
      List<Version> live = liveSubject(subject).live();
      return toSubjectVersion(subject, live.get(live.size() - 1));
    }
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    SubjectNames.checked(subject, "get latest version with metadata");
    synchronized (state) {
      state.requests.increment();
      List<Version> live = liveSubject(subject).live();
      for (int i = live.size() - 1; i >= 0; i--) {
        if (contract(idsOf(subject), live.get(i).id).metadata().properties().entrySet().containsAll(metadata.entrySet())) {
          return toSubjectVersion(subject, live.get(i));
        }
      }
      throw notFound(40403, "No version of subject '" + subject + "' has metadata " + metadata);
    }
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    SubjectNames.checked(subject, "get a version");
    synchronized (state) {
      state.requests.increment();
      for (Version v : liveSubject(subject).live()) {
        if (v.number == version) {
          return toSubjectVersion(subject, v);
        }
      }
      throw notFound(40402, "Version " + version + " not found in subject '" + subject + "'");
    }
  }

  @Override
  public List<String> subjects() {
    synchronized (state) {
      state.requests.increment();
      return state.subjects.entrySet().stream().filter(e -> !e.getValue().live().isEmpty()).map(Map.Entry::getKey)
          .toList();
    }
  }

  @Override
  public List<Integer> versions(String subject) {
    SubjectNames.checked(subject, "list versions");
    synchronized (state) {
      state.requests.increment();
      return liveSubject(subject).live().stream().map(v -> v.number).toList();
    }
  }

  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    SubjectNames.checked(subject, "test compatibility");
    synchronized (state) {
      state.requests.increment();
      String problem = incompatibility(subject, liveSubject(subject), schema);
      return new CompatibilityCheck(problem == null, problem == null ? List.of() : List.of(problem));
    }
  }

  @Override
  public CompatibilityLevel compatibility() {
    synchronized (state) {
      state.requests.increment();
      return state.globalLevel;
    }
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    SubjectNames.checked(subject, "get compatibility");
    synchronized (state) {
      state.requests.increment();
      CompatibilityLevel own = state.subjectLevels.get(subject);
      return own != null ? new CompatibilityInForce(own, CompatibilityInForce.Scope.SUBJECT)
          : new CompatibilityInForce(state.globalLevel, CompatibilityInForce.Scope.GLOBAL);
    }
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    synchronized (state) {
      state.requests.increment();
      state.globalLevel = level;
    }
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    SubjectNames.checked(subject, "set compatibility");
    synchronized (state) {
      state.requests.increment();
      state.subjectLevels.put(subject, level);
    }
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    SubjectNames.checked(subject, "delete subject");
    synchronized (state) {
      state.requests.increment();
      List<Version> live = liveSubject(subject).live();
      live.forEach(v -> v.deleted = true);
      return live.stream().map(v -> v.number).toList();
    }
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    SubjectNames.checked(subject, "permanently delete subject");
    synchronized (state) {
      state.requests.increment();
      Subject s = state.subjects.get(subject);
      if (s == null || s.versions.isEmpty()) {
        throw notFound(40401, "Subject '" + subject + "' not found");
      }
      if (!s.live().isEmpty()) {
        throw notFound(40405, "Subject '" + subject + "' was not deleted first before being permanently deleted");
      }
      List<Integer> numbers = s.versions.stream().map(v -> v.number).toList();
      state.subjects.remove(subject);
      state.subjectLevels.remove(subject);
      return numbers;
    }
  }

  @Override
  public int deleteVersion(String subject, int version) {
    SubjectNames.checked(subject, "delete a version");
    synchronized (state) {
      state.requests.increment();
      for (Version v : liveSubject(subject).live()) {
        if (v.number == version) {
          v.deleted = true;
          return version;
        }
      }
      throw notFound(40402, "Version " + version + " not found in subject '" + subject + "'");
    }
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    SubjectNames.checked(subject, "permanently delete a version");
    synchronized (state) {
      state.requests.increment();
      Subject s = state.subjects.get(subject);
      Version found = s == null ? null
          : s.versions.stream().filter(v -> v.number == version).findFirst().orElse(null);
      if (found == null) {
        throw notFound(40402, "Version " + version + " not found in subject '" + subject + "'");
      }
      if (!found.deleted) {
        throw notFound(40407, "Version " + version + " of subject '" + subject
            + "' was not deleted first before being permanently deleted");
      }
      s.versions.remove(found);
      return version;
    }
  }

  /** {@code requests} counts every call into this registry, from every client of its scope. */
  @Override
  public RegistryStats stats() {
    return new RegistryStats(state.requests.sum(), state.errors.sum(), 0, 0, 0, 0, Map.of());
  }

  /** Nothing to release: the registry lives as long as its scope. */
  @Override
  public void close() {}

  private static int nextId(Ids ids, List<Object> key, Schema schema, DataContract contract) {
    int id = ids.schemasById.size() + 1;
    ids.idsByContent.put(key, id);
    ids.schemasById.put(id, schema);
    if (!contract.equals(DataContract.NONE)) {
      ids.contractsById.put(id, contract);
    }
    return id;
  }

  private Subject liveSubject(String subject) {
    Subject s = state.subjects.get(subject);
    if (s == null || s.live().isEmpty()) {
      throw notFound(40401, "Subject '" + subject + "' not found");
    }
    return s;
  }

  private SubjectVersion toSubjectVersion(String subject, Version v) {
    return new SubjectVersion(subject, v.number, v.id, idsOf(subject).schemasById.get(v.id),
        contract(idsOf(subject), v.id));
  }

  private void checkCompatible(String subject, Subject s, Schema schema) {
    String problem = incompatibility(subject, s, schema);
    if (problem != null) {
      state.errors.increment();
      throw new IncompatibleSchemaException("Schema being registered is incompatible with an earlier schema for "
          + "subject '" + subject + "': " + problem, 409, 409, NO_URL, null);
    }
  }

  /** Why the schema breaks the subject's level, or {@code null} if it does not. */
  private String incompatibility(String subject, Subject s, Schema schema) {
    CompatibilityLevel level = state.subjectLevels.getOrDefault(subject, state.globalLevel);
    List<SubjectVersion> live = s.live().stream()
        .map(v -> new SubjectVersion(subject, v.number, v.id, idsOf(subject).schemasById.get(v.id))).toList();
    return SchemaIncompatibilities.firstProblem(level, live, schema).orElse(null);
  }

  private SchemaNotFoundException notFound(int errorCode, String message) {
    state.errors.increment();
    return new SchemaNotFoundException(message, 404, errorCode, NO_URL, null);
  }
}
