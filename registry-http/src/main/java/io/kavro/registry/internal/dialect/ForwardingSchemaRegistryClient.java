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
 * A {@link SchemaRegistryClient} that hands each of the interface's own calls, and {@link #stats()}, to another
 * client, a call that names a subject to {@link #of}'s client of that subject: the base of a client that changes a
 * few of them (a cache, one subject's view of a registry, the client of a registry whose ids count per subject) and
 * passes the rest on as they are. The interface's other default calls keep their defaults, which answer through this client
 * ({@link #contractOf(int)} through its {@link #schemaById}), so a subclass that changes {@code schemaById} changes
 * them too. {@link #close()} closes the other client. Thread-safe when the other client is.
 */
public abstract class ForwardingSchemaRegistryClient implements SchemaRegistryClient {
  /** The client the calls go to. */
  protected final SchemaRegistryClient delegate;

  protected ForwardingSchemaRegistryClient(SchemaRegistryClient delegate) {
    this.delegate = delegate;
  }

  /** The client that a call naming {@code subject} goes to: {@link #delegate} unless a subclass says otherwise. */
  protected SchemaRegistryClient of(String subject) {
    return delegate;
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
    return delegate.schemaById(id);
  }

  @Override
  public Schema schemaByGuid(UUID guid) {
    return delegate.schemaByGuid(guid);
  }

  @Override
  public UUID guidOf(int id) {
    return delegate.guidOf(id);
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
    return delegate.subjects();
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
    return delegate.compatibility();
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    return of(subject).compatibilityInForce(subject);
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    delegate.setCompatibility(level);
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
    return delegate.stats();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
