package io.kavro.serde.subject;

import org.apache.avro.Schema;

/** {@code <topic>-<record full name>}: several record types per topic, one lineage per (topic, type). */
public final class TopicRecordNameStrategy implements SubjectNameStrategy {
  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    return topic + "-" + schema.getFullName();
  }

  /** The record's name is in the subject: it needs the schema. */
  @Override
  public boolean usesSchema() {
    return true;
  }
}
