package io.kavro.serde.subject;

import io.kavro.registry.SchemaRegistryClient;
import java.util.concurrent.Executor;
import org.apache.avro.Schema;

/**
 * A {@link SubjectNameStrategy} that asks the registry for its subjects, such as {@link AssociatedNameStrategy}.
 * The serde gives it its registry client once, after making it (and after {@code configure} when it is Kafka
 * {@code Configurable}) and before any record; and the Kafka cluster id whenever the client it runs in learns it.
 * A strategy wrapping another passes all of these on.
 *
 * <p>Unlike other strategies, its answers may change while the serde runs (an association moves, the registry
 * gains the API, the cluster id changes): it tells a caller that keeps a subject how long that subject stands
 * ({@link #standingSubject}, which gives both from one answer) and when every subject may have changed
 * ({@link #onChange}).
 */
public interface RegistryAwareStrategy extends SubjectNameStrategy {

  /** The registry client of the serde that uses this strategy. Called once, before any record. */
  void useRegistry(SchemaRegistryClient client);

  /**
   * The id of the Kafka cluster that the serde's producer or consumer talks to, when it learns it (Kafka's
   * {@code ClusterResourceListener}). This default ignores it.
   */
  default void useKafkaClusterId(String clusterId) {}

  /**
   * The subject for these arguments with how long, in nanoseconds from now, it stands, both from the one answer the
   * strategy holds: what a caller that keeps the subject asks (the serializer's routes, the deserializer's topic
   * contexts), asking again after that time. This default: {@link #subjectName}'s subject, standing for as long as
   * the caller lives ({@link Long#MAX_VALUE}), for a strategy whose answers never change under it; a strategy whose
   * answers do overrides it.
   */
  default StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
    return new StandingSubject(subjectName(topic, isKey, schema), Long.MAX_VALUE);
  }

  /**
   * Whether the subject that {@link #subjectName} has just given for these arguments comes from an answer stored
   * on disk while the registry could not be reached, not from the registry itself: a caller that keeps a subject
   * learnt live then keeps it rather than take this one. This default: {@code false}.
   */
  default boolean subjectIsStored(String topic, boolean isKey, Schema schema) {
    return false;
  }

  /**
   * Has answers whose time is over asked again on {@code executor}, off the caller's thread, the kept answer
   * serving meanwhile (a {@link #standingSubject} time that backs off while the registry cannot be reached), and
   * {@link #onChange} told when an answer asked so is another subject or is withdrawn (a refusal: the next
   * {@link #subjectName} asks in line, and fails as the registry answers). Without it an answer whose time is over is
   * asked again in line. The serializer calls this once, before any record, with the serde's shared background
   * thread, so that no record waits on the registry for a subject it had, and closes what it returns when it is
   * closed: a refresh still queued then returns without asking the registry. This default ignores it.
   *
   * @return what stops the refreshes on {@code executor}: one queued then asks nothing
   */
  default AutoCloseable refreshInBackground(Executor executor) {
    return () -> {};
  }

  /**
   * Has {@code listener} run whenever every subject given so far may have changed (a new Kafka cluster id, so a
   * new namespace of associations; with {@link #refreshInBackground}, an answer asked again that moved or was
   * withdrawn). Returns the listener's removal. This default never runs it.
   */
  default AutoCloseable onChange(Runnable listener) {
    return () -> {};
  }
}
