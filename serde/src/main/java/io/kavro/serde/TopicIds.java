package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.subject.AssociatedNameStrategy;
import io.kavro.serde.subject.SubjectNameStrategy;
import io.kavro.serde.subject.TopicNameStrategy;
import org.apache.kafka.common.config.ConfigException;

/**
 * The registry client whose ids a topic's records carry: the registry's own, or, where ids count per subject
 * (schema-repo: {@link SchemaRegistryClient#idsPerSubject()}), the client of the subject the topic names. Such a
 * registry needs the subject before a record is decoded, so only {@link TopicNameStrategy} works with it:
 * {@link #check} refuses the others at configure. Immutable and thread-safe.
 *
 * @param client the serde's client
 * @param subjects the configured strategy
 * @param isKey whether the records' keys are read
 */
record TopicIds(SchemaRegistryClient client, SubjectNameStrategy subjects, boolean isKey) {

  /** The client whose {@code schemaById} answers {@code topic}'s ids. */
  SchemaRegistryClient of(String topic) {
    return client.idsPerSubject() ? client.forSubject(subjects.subjectName(topic, isKey, null)) : client;
  }

  /** The client whose {@code schemaById} answers {@code subject}'s ids: {@code client} where ids are the registry's. */
  static SchemaRegistryClient ofSubject(SchemaRegistryClient client, String subject) {
    return client.idsPerSubject() ? client.forSubject(subject) : client;
  }

  /**
   * Refuses a configuration whose subjects a registry with per-subject ids cannot serve.
   *
   * @throws ConfigException naming the key, when ids count per subject and the subject is not the topic's
   */
  static void check(SchemaRegistryClient client, AvroSerdeConfig config) {
    if (!client.idsPerSubject() || config.subjectNameStrategy() instanceof TopicNameStrategy) {
      return;
    }
    if (config.subjectNameStrategy() instanceof AssociatedNameStrategy associated
        && associated.fallback() instanceof TopicNameStrategy) {
      return; // the default: such a registry (schema-repo) has no associations, so the subject is the topic's
    }
    String key = config.isKey() ? AvroSerdeConfig.KEY_SUBJECT_NAME_STRATEGY_CONFIG
        : AvroSerdeConfig.VALUE_SUBJECT_NAME_STRATEGY_CONFIG;
    throw new ConfigException(key, config.subjectNameStrategy().getClass().getName(), "this registry ("
        + config.registryConfig().api() + ") numbers schemas per subject, so a record's schema id means a schema "
        + "only with the subject its topic names: only " + TopicNameStrategy.class.getName() + " works with it"
        + " (and " + AvroSerdeConfig.STREAMS_INTERNAL_TOPICS_SUBJECT_CONFIG + "=topic)");
  }
}
