package io.kavro.serde.subject;

import io.kavro.registry.SchemaRegistryClient;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.apache.avro.Schema;

/**
 * Subjects for a Kafka Streams application's internal topics ({@code <application.id>-...-changelog} and
 * {@code <application.id>-...-repartition}) named after the record ({@link RecordNameStrategy}), and the
 * application's other topics named as configured. A topology then registers one subject per record type, shared by
 * all its stores and repartition steps, instead of one per internal topic; since registries give one schema one id
 * in every subject, a record that goes through a store unchanged keeps the id it came with. Set by
 * {@code streams.internal.topics.subject=record}.
 */
public final class StreamsInternalTopicSubjects implements RegistryAwareStrategy {
  private static final SubjectNameStrategy RECORD = new RecordNameStrategy();

  private final String prefix;
  private final SubjectNameStrategy others;

  /**
   * @param applicationId the Streams application's {@code application.id}, the prefix of its internal topics
   * @param others the strategy for every other topic
   */
  public StreamsInternalTopicSubjects(String applicationId, SubjectNameStrategy others) {
    this.prefix = Objects.requireNonNull(applicationId, "applicationId") + "-";
    this.others = Objects.requireNonNull(others, "others");
  }

  /** Whether Kafka Streams names this topic for one of the application's stores or repartition steps. */
  public boolean isInternal(String topic) {
    return topic.startsWith(prefix) && (topic.endsWith("-changelog") || topic.endsWith("-repartition"));
  }

  /** Passed on to the strategy of the other topics, when it asks the registry. */
  @Override
  public void useRegistry(SchemaRegistryClient client) {
    if (others instanceof RegistryAwareStrategy aware) {
      aware.useRegistry(client);
    }
  }

  /** Passed on to the strategy of the other topics, when it asks the registry. */
  @Override
  public AutoCloseable refreshInBackground(Executor executor) {
    return others instanceof RegistryAwareStrategy aware ? aware.refreshInBackground(executor) : () -> {};
  }

  /** Passed on to the strategy of the other topics, when it asks the registry. */
  @Override
  public void useKafkaClusterId(String clusterId) {
    if (others instanceof RegistryAwareStrategy aware) {
      aware.useKafkaClusterId(clusterId);
    }
  }

  /** The other topics' strategy's, one answer's subject and time; an internal topic's subject stands for good. */
  @Override
  public StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
    return !isInternal(topic) && others instanceof RegistryAwareStrategy aware
        ? aware.standingSubject(topic, isKey, schema)
        : new StandingSubject(subjectName(topic, isKey, schema), Long.MAX_VALUE);
  }

  @Override
  public boolean subjectIsStored(String topic, boolean isKey, Schema schema) {
    return !isInternal(topic) && others instanceof RegistryAwareStrategy aware && aware.subjectIsStored(topic, isKey, schema);
  }

  /** Passed on to the strategy of the other topics, when it asks the registry. */
  @Override
  public AutoCloseable onChange(Runnable listener) {
    return others instanceof RegistryAwareStrategy aware ? aware.onChange(listener) : () -> {};
  }

  /** The strategy of the application's other topics. */
  public SubjectNameStrategy others() {
    return others;
  }

  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    return isInternal(topic) ? RECORD.subjectName(topic, isKey, schema) : others.subjectName(topic, isKey, schema);
  }

  /** Internal topics are named after the record: it needs the schema. */
  @Override
  public boolean usesSchema() {
    return true;
  }
}
