package io.kavro.serde.subject;

import io.kavro.registry.SchemaContexts;
import io.kavro.registry.SchemaRegistryClient;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.apache.avro.Schema;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The subjects of another strategy, in the context a {@link ContextNameStrategy} gives the topic: {@code :.ctx:}
 * before each, as Confluent's serde qualifies the subject it registers and looks up. A topic whose context is the
 * default one keeps its subject as it is. Immutable and thread-safe, as its two strategies are. The registry client
 * and the Kafka cluster id are passed on to the strategy within, when it asks the registry.
 */
public final class ContextSubjects implements RegistryAwareStrategy {
  private final ContextNameStrategy contexts;
  private final SubjectNameStrategy subjects;

  /**
   * @param contexts gives each topic its context
   * @param subjects names the subject within the context
   */
  public ContextSubjects(ContextNameStrategy contexts, SubjectNameStrategy subjects) {
    this.contexts = Objects.requireNonNull(contexts, "contexts");
    this.subjects = Objects.requireNonNull(subjects, "subjects");
  }

  /** The strategy that names the subject within the context. */
  public SubjectNameStrategy subjects() {
    return subjects;
  }

  /**
   * The qualifier of {@code topic}'s context ({@code :.ctx:}), or empty for the default context.
   *
   * @throws SerializationException naming the topic, the strategy and the name, when the strategy gives a context
   *     name that holds a colon
   */
  public String context(String topic) {
    String name = contexts.contextName(topic);
    try {
      return SchemaContexts.qualifier(name);
    } catch (IllegalArgumentException e) {
      throw new SerializationException("context.name.strategy " + contexts.getClass().getName() + " gave topic '"
          + topic + "' the context '" + name + "', which is not a context name: " + e.getMessage());
    }
  }

  /** Passed on to the strategy within, when it asks the registry. */
  @Override
  public void useRegistry(SchemaRegistryClient client) {
    if (subjects instanceof RegistryAwareStrategy aware) {
      aware.useRegistry(client);
    }
  }

  /** Passed on to the strategy within, when it asks the registry. */
  @Override
  public AutoCloseable refreshInBackground(Executor executor) {
    return subjects instanceof RegistryAwareStrategy aware ? aware.refreshInBackground(executor) : () -> {};
  }

  /** Passed on to the strategy within, when it asks the registry. */
  @Override
  public void useKafkaClusterId(String clusterId) {
    if (subjects instanceof RegistryAwareStrategy aware) {
      aware.useKafkaClusterId(clusterId);
    }
  }

  /** The strategy within's, qualified by the topic's context: one answer's subject and time. */
  @Override
  public StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
    if (!(subjects instanceof RegistryAwareStrategy aware)) {
      return new StandingSubject(subjectName(topic, isKey, schema), Long.MAX_VALUE);
    }
    StandingSubject within = aware.standingSubject(topic, isKey, schema);
    return new StandingSubject(SchemaContexts.qualify(context(topic), within.subject()), within.standsNanos());
  }

  @Override
  public boolean subjectIsStored(String topic, boolean isKey, Schema schema) {
    return subjects instanceof RegistryAwareStrategy aware && aware.subjectIsStored(topic, isKey, schema);
  }

  /** Passed on to the strategy within, when it asks the registry. */
  @Override
  public AutoCloseable onChange(Runnable listener) {
    return subjects instanceof RegistryAwareStrategy aware ? aware.onChange(listener) : () -> {};
  }

  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    String subject = subjects.subjectName(topic, isKey, schema);
    return subject == null ? null : SchemaContexts.qualify(context(topic), subject);
  }

  /** The strategy within's. */
  @Override
  public boolean usesSchema() {
    return subjects.usesSchema();
  }
}
