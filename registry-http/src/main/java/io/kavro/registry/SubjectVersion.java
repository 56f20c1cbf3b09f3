package io.kavro.registry;

import java.util.Objects;
import org.apache.avro.Schema;

/**
 * One version of a subject: the subject name, its version number, the global schema id and the schema.
 *
 * @param subject the subject name
 * @param version the version number within the subject, starting at 1
 * @param id the registry-wide schema id, the one written in the 5-byte header
 * @param schema the parsed Avro schema
 */
public record SubjectVersion(String subject, int version, int id, Schema schema) {
  /** Checks that no component is null. */
  public SubjectVersion {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(schema, "schema");
  }
}
