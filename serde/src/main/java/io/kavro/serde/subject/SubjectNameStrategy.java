package io.kavro.serde.subject;

import org.apache.avro.Schema;

/**
 * Chooses the registry subject under which a record's schema is registered and looked up.
 *
 * <p>Implementations must be thread-safe and deterministic: the same (topic, isKey, schema) must always give
 * the same subject, because the serializer caches the answer. Name a class with a public no-arg constructor
 * in {@code key.subject.name.strategy} / {@code value.subject.name.strategy} (or give the {@code Class}). A
 * strategy that also implements Kafka's {@code Configurable} receives the serde's configuration once, when it
 * is made.
 */
public interface SubjectNameStrategy {

  /**
   * The subject for a record of {@code topic}.
   *
   * @param topic the topic the record goes to or comes from
   * @param isKey whether the record is a key
   * @param schema the record's (writer) schema
   */
  String subjectName(String topic, boolean isKey, Schema schema);

  /**
   * Whether {@link #subjectName} needs the record's schema, as Confluent's {@code SubjectNameStrategy.usesSchema}:
   * {@code false} (the default) lets the deserializer ask for the subject with a {@code null} schema before a record
   * is decoded, to read its schema id in the context the subject names ({@code :.ctx:orders-value}). A strategy
   * that reads the schema must say {@code true}.
   */
  default boolean usesSchema() {
    return false;
  }
}
