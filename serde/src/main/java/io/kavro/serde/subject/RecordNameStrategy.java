package io.kavro.serde.subject;

import org.apache.avro.Schema;

/**
 * The record's full name, such as {@code com.acme.Order}: several record types per topic, one lineage per
 * type across all topics. For a schema without a name (a primitive) it is the type's name, such as
 * {@code string}.
 */
public final class RecordNameStrategy implements SubjectNameStrategy {
  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    return schema.getFullName();
  }

  /** The record's name is the subject: it needs the schema. */
  @Override
  public boolean usesSchema() {
    return true;
  }
}
