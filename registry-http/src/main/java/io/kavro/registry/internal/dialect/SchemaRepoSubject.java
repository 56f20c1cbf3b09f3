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
final class SchemaRepoSubject extends ForwardingSchemaRegistryClient {
  private final SchemaRepoClient repository;
  private final String subject;

  SchemaRepoSubject(SchemaRepoClient repository, String subject) {
    super(repository);
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

  /** Closes nothing: the repository client owns the connection. */
  @Override
  public void close() {}
}
