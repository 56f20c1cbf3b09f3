package io.kavro.registry.internal.dialect;

import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.avro.Schema;

/**
 * The client of a registry whose ids count per subject, as routes: each call that names a subject goes to {@code
 * bySubject}'s client of that subject, the others (the subject list, the registry-wide compatibility, counters) to
 * the registry, and {@link #schemaById} to {@code ids}. A final class that its users hold ({@link
 * io.kavro.registry.internal.cache.PerSubjectClient}) or hand out ({@link SchemaRepoClient#forSubject}), rather than a
 * base they extend. The interface's other default calls keep their defaults, which answer through these routes.
 * {@link #close()} closes nothing: the registry is its owner's. Thread-safe when the clients it routes to are.
 */
public final class SubjectRoutes implements SchemaRegistryClient {
  private final SchemaRegistryClient registry;
  private final Function<String, SchemaRegistryClient> bySubject;
  private final IntFunction<Schema> ids;

  /**
   * @param registry answers the calls that name no subject
   * @param bySubject the client that a call naming a subject goes to
   */
  public SubjectRoutes(SchemaRegistryClient registry, Function<String, SchemaRegistryClient> bySubject) {
    this(registry, bySubject, registry::schemaById);
  }

  /** As the two-argument constructor, with {@link #schemaById} answered by {@code ids}. */
  public SubjectRoutes(SchemaRegistryClient registry, Function<String, SchemaRegistryClient> bySubject,
      IntFunction<Schema> ids) {
    this.registry = registry;
    this.bySubject = bySubject;
    this.ids = ids;
  }

  private SchemaRegistryClient of(String subject) {
    return bySubject.apply(subject);
  }

  /** {@code true}: routes are made only for a registry whose ids count per subject. */
  @Override
  public boolean idsPerSubject() {
    return true;
  }

  /** The client of {@code subject}'s ids, as its route's client gives it. */
  @Override
  public SchemaRegistryClient forSubject(String subject) {
    return of(subject).forSubject(subject);
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references,
      io.kavro.registry.contract.DataContract contract) {
    return of(subject).register(subject, schema, references, contract);
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    return of(subject).register(subject, schema, references);
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    return of(subject).lookup(subject, schema, references);
  }

  @Override
  public Schema schemaById(int id) {
    return ids.apply(id);
  }

  @Override
  public Schema schemaByGuid(UUID guid) {
    return registry.schemaByGuid(guid);
  }

  @Override
  public UUID guidOf(int id) {
    return registry.guidOf(id);
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    return of(subject).latestVersion(subject);
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    return of(subject).latestWithMetadata(subject, metadata);
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    return of(subject).version(subject, version);
  }

  @Override
  public List<String> subjects() {
    return registry.subjects();
  }

  @Override
  public List<Integer> versions(String subject) {
    return of(subject).versions(subject);
  }

  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    return of(subject).checkCompatibility(subject, schema);
  }

  @Override
  public CompatibilityLevel compatibility() {
    return registry.compatibility();
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    return of(subject).compatibilityInForce(subject);
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    registry.setCompatibility(level);
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    of(subject).setCompatibility(subject, level);
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    return of(subject).deleteSubject(subject);
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    return of(subject).deleteSubjectPermanently(subject);
  }

  @Override
  public int deleteVersion(String subject, int version) {
    return of(subject).deleteVersion(subject, version);
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    return of(subject).deleteVersionPermanently(subject, version);
  }

  @Override
  public RegistryStats stats() {
    return registry.stats();
  }

  /** Closes nothing: the registry and the subjects' clients are the owner's. */
  @Override
  public void close() {}
}
