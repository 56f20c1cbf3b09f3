package io.kavro.registry;

import io.kavro.registry.contract.DataContract;
import java.util.Objects;
import org.apache.avro.Schema;

/**
 * One version of a subject: the subject name, its version number, the global schema id and the schema.
 *
 * @param subject the subject name
 * @param version the version number within the subject, starting at 1
 * @param id the registry-wide schema id, the one written in the 5-byte header
 * @param schema the parsed Avro schema
 * @param contract the version's metadata and rules; {@link DataContract#NONE} where the registry keeps none
 */
public record SubjectVersion(String subject, int version, int id, Schema schema, DataContract contract) {
  /** Checks that no component is null. */
  public SubjectVersion {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(contract, "contract");
  }

  /** A version without metadata or rules. */
  public SubjectVersion(String subject, int version, int id, Schema schema) {
    this(subject, version, id, schema, DataContract.NONE);
  }
}
