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
import org.apache.avro.Schema;

/**
 * One subject's ids of a {@link SchemaRepoClient}: {@link #schemaById} answers that subject's schema of an id; every
 * other call is the repository client's. Closing it closes nothing: the repository client owns the connection.
 */
final class SchemaRepoSubject implements SchemaRegistryClient {
  private final SchemaRepoClient repository;
  private final String subject;

  SchemaRepoSubject(SchemaRepoClient repository, String subject) {
    this.repository = repository;
    this.subject = subject;
  }

  @Override
  public Schema schemaById(int id) {
    return repository.schemaById(subject, id);
  }

  @Override
  public boolean idsPerSubject() {
    return true;
  }

  @Override
  public SchemaRegistryClient forSubject(String other) {
    return subject.equals(other) ? this : repository.forSubject(other);
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    return repository.register(subject, schema, references);
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    return repository.lookup(subject, schema, references);
  }

  @Override
  public Schema schemaByGuid(UUID guid) {
    return repository.schemaByGuid(guid);
  }

  @Override
  public UUID guidOf(int id) {
    return repository.guidOf(id);
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    return repository.latestVersion(subject);
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    return repository.latestWithMetadata(subject, metadata);
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    return repository.version(subject, version);
  }

  @Override
  public List<String> subjects() {
    return repository.subjects();
  }

  @Override
  public List<Integer> versions(String subject) {
    return repository.versions(subject);
  }

  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    return repository.checkCompatibility(subject, schema);
  }

  @Override
  public CompatibilityLevel compatibility() {
    return repository.compatibility();
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    return repository.compatibilityInForce(subject);
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    repository.setCompatibility(level);
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    repository.setCompatibility(subject, level);
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    return repository.deleteSubject(subject);
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    return repository.deleteSubjectPermanently(subject);
  }

  @Override
  public int deleteVersion(String subject, int version) {
    return repository.deleteVersion(subject, version);
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    return repository.deleteVersionPermanently(subject, version);
  }

  @Override
  public RegistryStats stats() {
    return repository.stats();
  }

  /** Closes nothing: the repository client owns the connection. */
  @Override
  public void close() {}
}
