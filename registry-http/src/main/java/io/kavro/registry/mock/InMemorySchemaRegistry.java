package io.kavro.registry.mock;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;

/**
 * An in-memory schema registry with the Confluent registry's semantics, for tests. Reached through a
 * {@code mock://scope} URL (see {@link MockRegistries}) or created directly.
 *
 * <ul>
 *   <li>The same schema text gets the same id in every subject; ids start at 1.</li>
 *   <li>Versions are numbered per subject from 1 and never reused.</li>
 *   <li>New versions are checked against the subject's compatibility level (global default {@code BACKWARD})
 *       with Avro's {@link SchemaCompatibility}, against the latest version or, for the transitive levels,
 *       every live version.</li>
 *   <li>Deletes are soft first; a permanent delete needs a soft delete before it. Ids keep resolving after
 *       any delete, so that old records stay readable.</li>
 * </ul>
 *
 * <p>Thread-safe: every operation holds this registry's lock, which is fine for an in-memory test double.
 */
public final class InMemorySchemaRegistry implements SchemaRegistryClient {
  private static final String NO_URL = null;

  private final Map<String, Integer> idsByText = new HashMap<>();
  private final Map<Integer, Schema> schemasById = new HashMap<>();
  private final Map<String, Subject> subjects = new LinkedHashMap<>();
  private final Map<String, CompatibilityLevel> subjectLevels = new HashMap<>();
  private final LongAdder requests = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private CompatibilityLevel globalLevel = CompatibilityLevel.BACKWARD;

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
    final Map<String, String> metadata;
    boolean deleted;

    Version(int number, int id, Map<String, String> metadata) {
      this.number = number;
      this.id = id;
      this.metadata = metadata;
    }
  }

  @Override
  public synchronized int register(String subject, Schema schema) {
    return register(subject, schema, Map.of());
  }

  /**
   * Registers {@code schema} with metadata properties, as Confluent's registry does for a schema whose
   * {@code metadata.properties} are set: the same schema with other metadata is a new version. For tests of
   * {@code use.latest.with.metadata}.
   */
  public synchronized int register(String subject, Schema schema, Map<String, String> metadata) {
    io.kavro.registry.internal.schema.SchemaDefaults.check(schema, "register schema under subject '" + subject + "'");
    requests.increment();
    Map<String, String> properties = Map.copyOf(metadata);
    String text = schema.toString();
    Subject s = subjects.computeIfAbsent(subject, k -> new Subject());
    Integer existing = idsByText.get(text);
    if (existing != null) {
      for (Version v : s.live()) {
        if (v.id == existing && v.metadata.equals(properties)) {
          return existing;
        }
      }
    }
    checkCompatible(subject, s, schema);
    int id = existing != null ? existing : nextId(text, schema);
    s.versions.add(new Version(++s.lastVersion, id, properties));
    return id;
  }

  @Override
  public synchronized SubjectVersion lookup(String subject, Schema schema) {
    requests.increment();
    Subject s = liveSubject(subject);
    Integer id = idsByText.get(schema.toString());
    for (Version v : s.live()) {
      if (id != null && v.id == id) {
        return new SubjectVersion(subject, v.number, v.id, schemasById.get(v.id));
      }
    }
    throw notFound(40403, "Schema not found in subject '" + subject + "'");
  }

  @Override
  public synchronized Schema schemaById(int id) {
    requests.increment();
    Schema schema = schemasById.get(id);
    if (schema == null) {
      throw notFound(40403, "Schema " + id + " not found");
    }
    return schema;
  }

  /** The GUID of each schema: derived from its text, so the same schema has the same GUID in every scope. */
  private static java.util.UUID guid(Schema schema) {
    return java.util.UUID.nameUUIDFromBytes(schema.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Override
  public synchronized Schema schemaByGuid(java.util.UUID guid) {
    requests.increment();
    for (Schema schema : schemasById.values()) {
      if (guid(schema).equals(guid)) {
        return schema;
      }
    }
    throw notFound(40403, "Schema guid " + guid + " not found");
  }

  @Override
  public synchronized java.util.UUID guidOf(int id) {
    return guid(schemaById(id));
  }

  @Override
  public synchronized SubjectVersion latestVersion(String subject) {
    requests.increment();
    List<Version> live = liveSubject(subject).live();
    return toSubjectVersion(subject, live.get(live.size() - 1));
  }

  @Override
  public synchronized SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    requests.increment();
    List<Version> live = liveSubject(subject).live();
    for (int i = live.size() - 1; i >= 0; i--) {
      if (live.get(i).metadata.entrySet().containsAll(metadata.entrySet())) {
        return toSubjectVersion(subject, live.get(i));
      }
    }
    throw notFound(40403, "No version of subject '" + subject + "' has metadata " + metadata);
  }

  @Override
  public synchronized SubjectVersion version(String subject, int version) {
    requests.increment();
    for (Version v : liveSubject(subject).live()) {
      if (v.number == version) {
        return toSubjectVersion(subject, v);
      }
    }
    throw notFound(40402, "Version " + version + " not found in subject '" + subject + "'");
  }

  @Override
  public synchronized List<String> subjects() {
    requests.increment();
    return subjects.entrySet().stream().filter(e -> !e.getValue().live().isEmpty()).map(Map.Entry::getKey).toList();
  }

  @Override
  public synchronized List<Integer> versions(String subject) {
    requests.increment();
    return liveSubject(subject).live().stream().map(v -> v.number).toList();
  }

  @Override
  public synchronized boolean isCompatible(String subject, Schema schema) {
    requests.increment();
    return incompatibility(subject, liveSubject(subject), schema) == null;
  }

  @Override
  public synchronized CompatibilityLevel compatibility() {
    requests.increment();
    return globalLevel;
  }

  @Override
  public synchronized CompatibilityLevel compatibility(String subject) {
    requests.increment();
    return subjectLevels.getOrDefault(subject, globalLevel);
  }

  @Override
  public synchronized void setCompatibility(CompatibilityLevel level) {
    requests.increment();
    globalLevel = level;
  }

  @Override
  public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
    requests.increment();
    subjectLevels.put(subject, level);
  }

  @Override
  public synchronized List<Integer> deleteSubject(String subject) {
    requests.increment();
    List<Version> live = liveSubject(subject).live();
    live.forEach(v -> v.deleted = true);
    return live.stream().map(v -> v.number).toList();
  }

  @Override
  public synchronized List<Integer> deleteSubjectPermanently(String subject) {
    requests.increment();
    Subject s = subjects.get(subject);
    if (s == null || s.versions.isEmpty()) {
      throw notFound(40401, "Subject '" + subject + "' not found");
    }
    if (!s.live().isEmpty()) {
      throw notFound(40405, "Subject '" + subject + "' was not deleted first before being permanently deleted");
    }
    List<Integer> numbers = s.versions.stream().map(v -> v.number).toList();
    subjects.remove(subject);
    subjectLevels.remove(subject);
    return numbers;
  }

  @Override
  public synchronized int deleteVersion(String subject, int version) {
    requests.increment();
    for (Version v : liveSubject(subject).live()) {
      if (v.number == version) {
        v.deleted = true;
        return version;
      }
    }
    throw notFound(40402, "Version " + version + " not found in subject '" + subject + "'");
  }

  @Override
  public synchronized int deleteVersionPermanently(String subject, int version) {
    requests.increment();
    Subject s = subjects.get(subject);
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

  /** {@code requests} counts every call into this registry, from every client of its scope. */
  @Override
  public RegistryStats stats() {
    return new RegistryStats(requests.sum(), errors.sum(), 0, 0, 0, 0, Map.of());
  }

  /** Nothing to release: the registry lives as long as its scope. */
  @Override
  public void close() {}

  private int nextId(String text, Schema schema) {
    int id = schemasById.size() + 1;
    idsByText.put(text, id);
    schemasById.put(id, schema);
    return id;
  }

  private Subject liveSubject(String subject) {
    Subject s = subjects.get(subject);
    if (s == null || s.live().isEmpty()) {
      throw notFound(40401, "Subject '" + subject + "' not found");
    }
    return s;
  }

  private SubjectVersion toSubjectVersion(String subject, Version v) {
    return new SubjectVersion(subject, v.number, v.id, schemasById.get(v.id));
  }

  private void checkCompatible(String subject, Subject s, Schema schema) {
    String problem = incompatibility(subject, s, schema);
    if (problem != null) {
      errors.increment();
      throw new IncompatibleSchemaException("Schema being registered is incompatible with an earlier schema for "
          + "subject '" + subject + "': " + problem, 409, 409, NO_URL, null);
    }
  }

  /** Why the schema breaks the subject's level, or {@code null} if it does not. */
  private String incompatibility(String subject, Subject s, Schema schema) {
    CompatibilityLevel level = subjectLevels.getOrDefault(subject, globalLevel);
    List<Version> live = s.live();
    if (level == CompatibilityLevel.NONE || live.isEmpty()) {
      return null;
    }
    List<Version> against = level.transitive() ? live : List.of(live.get(live.size() - 1));
    for (Version v : against) {
      Schema old = schemasById.get(v.id);
      if (level.backward()) {
        String problem = problem(schema, old, "new schema cannot read version " + v.number);
        if (problem != null) {
          return level + ": " + problem;
        }
      }
      if (level.forward()) {
        String problem = problem(old, schema, "version " + v.number + " cannot read the new schema");
        if (problem != null) {
          return level + ": " + problem;
        }
      }
    }
    return null;
  }

  private static String problem(Schema reader, Schema writer, String what) {
    SchemaCompatibility.SchemaPairCompatibility result =
        SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
    if (result.getType() == SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
      return null;
    }
    return what + " (" + result.getResult().getIncompatibilities().stream()
        .map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage()).toList() + ")";
  }

  private SchemaNotFoundException notFound(int errorCode, String message) {
    errors.increment();
    return new SchemaNotFoundException(message, 404, errorCode, NO_URL, null);
  }
}
