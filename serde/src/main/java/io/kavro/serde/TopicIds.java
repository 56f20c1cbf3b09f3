package io.kavro.serde;

import io.kavro.registry.SchemaContexts;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.subject.AssociatedNameStrategy;
import io.kavro.serde.subject.ContextSubjects;
import io.kavro.serde.subject.RecordNameStrategy;
import io.kavro.serde.subject.SubjectNameStrategy;
import io.kavro.serde.subject.TopicNameStrategy;
import io.kavro.serde.subject.TopicRecordNameStrategy;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The registry client whose ids a topic's records carry: the registry's own, or that of the schema context the
 * topic's subject is in ({@link SchemaRegistryClient#inContext}: each context numbers its schemas apart, so id 1 of
 * one context is never read as id 1 of another), or, where ids count per subject
 * (schema-repo: {@link SchemaRegistryClient#idsPerSubject()}), the client of the subject the topic names. Such a
 * registry needs the subject before a record is decoded, so only {@link TopicNameStrategy} works with it:
 * {@link #check} refuses the others at configure, and a context.
 *
 * <p>A topic's context is that of the subject the strategy gives it, as Confluent's deserializer asks for an id
 * with the subject ({@code ?subject=:.ctx:orders-value}): the {@code context.name.strategy}'s, or one that a custom
 * strategy or an association names ({@code :.ctx:orders-value}). A strategy that needs the record's schema
 * ({@link SubjectNameStrategy#usesSchema}) cannot name it before the record is read: its topics are in the context
 * {@code context.name.strategy} gives, else the default one, as in Confluent. Each topic's context is found once
 * and kept. Thread-safe.
 */
final class TopicIds {
  private final SchemaRegistryClient client;
  private final SubjectNameStrategy subjects;
  private final boolean isKey;
  /** Each topic's context qualifier ({@link TopicKey}), found once while kept: at most {@code maxTopics}. */
  private final QuietCache<String, String> contexts;

  /**
   * @param client the serde's client
   * @param subjects the configured strategy
   * @param isKey whether the records' keys are read
   * @param maxTopics how many topics' contexts are kept ({@code max.schemas.per.subject}); an evicted one is
   *     found again
   */
  TopicIds(SchemaRegistryClient client, SubjectNameStrategy subjects, boolean isKey, int maxTopics) {
    this.client = client;
    this.subjects = subjects;
    this.isKey = isKey;
    this.contexts = new QuietCache<>(maxTopics);
  }

  /** The serde's client. */
  SchemaRegistryClient client() {
    return client;
  }

  /** The configured strategy. */
  SubjectNameStrategy subjects() {
    return subjects;
  }

  /** Whether the records' keys are read. */
  boolean isKey() {
    return isKey;
  }

  /** The client whose {@code schemaById} answers {@code topic}'s ids. */
  SchemaRegistryClient of(String topic) {
    if (client.idsPerSubject()) {
      return client.forSubject(subjects.subjectName(topic, isKey, null));
    }
    String context = context(topic);
    return context.equals(SchemaContexts.DEFAULT) ? client : client.inContext(context);
  }

  /**
   * Whether topics may be in another context than the default one: {@code false} for the built-in strategies that
   * never name a qualified subject, and where ids count per subject.
   */
  boolean contextual() {
    return !client.idsPerSubject() && !(subjects instanceof TopicNameStrategy
        || subjects instanceof RecordNameStrategy || subjects instanceof TopicRecordNameStrategy);
  }

  /**
   * The qualifier of {@code topic}'s context ({@code :.ctx:}), {@link SchemaContexts#DEFAULT} for the default one;
   * found once per topic. A registry failure while the strategy asks for an association is thrown and not kept:
   * the next record asks again, and so is a strategy's refusal to name one subject ({@code SerializationException}:
   * several associations, say).
   */
  String context(String topic) {
    String key = TopicKey.of(topic);
    String known = contexts.getIfPresent(key);
    if (known != null) {
      return known;
    }
    String found = null;
    if (!subjects.usesSchema()) {
      // A strategy that names no one subject (several associations, say) fails the record, as in Confluent's
      // deserializer, and nothing is kept: guessing the default context could read another context's id.
      found = SchemaContexts.of(subjects.subjectName(topic, isKey, null));
    }
    if (found == null) {
      found = subjects instanceof ContextSubjects inContexts ? inContexts.context(topic) : SchemaContexts.DEFAULT;
    }
    String raced = contexts.putIfAbsent(key, found);
    return raced != null ? raced : found;
  }

  /**
   * The client whose {@code schemaById} answers {@code subject}'s ids: {@code client} where ids are the registry's,
   * that of the subject's context where it is context-qualified ({@code :.ctx:orders-value}).
   */
  static SchemaRegistryClient ofSubject(SchemaRegistryClient client, String subject) {
    return client.idsPerSubject() ? client.forSubject(subject) : client.inContext(SchemaContexts.of(subject));
  }

  /**
   * Refuses a configuration whose subjects a registry with per-subject ids cannot serve.
   *
   * @throws ConfigException naming the key, when ids count per subject and the subject is not the topic's
   */
  static void check(SchemaRegistryClient client, AvroSerdeConfig config) {
    if (!client.hasContexts() && config.subjectNameStrategy() instanceof ContextSubjects) {
      throw new ConfigException(AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG,
          config.contextNameStrategy().getClass().getName(), "Apicurio Registry has no schema contexts (Kavro "
          + "knows it by its URL, .../apis/ccompat/v<n>): leave " + AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG
          + " at its default");
    }
    if (!client.idsPerSubject()) {
      return;
    }
    if (config.subjectNameStrategy() instanceof ContextSubjects) {
      throw new ConfigException(AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG,
          config.contextNameStrategy().getClass().getName(), "this registry (" + config.registryConfig().api()
          + ") has no schema contexts: leave " + AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG + " at its default");
    }
    if (config.subjectNameStrategy() instanceof TopicNameStrategy) {
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
