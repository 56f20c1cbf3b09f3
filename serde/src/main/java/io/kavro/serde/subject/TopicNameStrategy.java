package io.kavro.serde.subject;

import org.apache.avro.Schema;

/**
 * {@code <topic>-key} or {@code <topic>-value}: one schema lineage per topic. The subject of a topic without an
 * association under the default, {@link AssociatedNameStrategy}; name it to pin it.
 */
public final class TopicNameStrategy implements SubjectNameStrategy {
  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    return topic + (isKey ? "-key" : "-value");
  }
}
