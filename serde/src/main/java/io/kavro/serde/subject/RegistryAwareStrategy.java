package io.kavro.serde.subject;

import io.kavro.registry.SchemaRegistryClient;

/**
 * A {@link SubjectNameStrategy} that asks the registry for its subjects, such as {@link AssociatedNameStrategy}.
 * The serde gives it its registry client once, after making it (and after {@code configure} when it is Kafka
 * {@code Configurable}) and before any record; and the Kafka cluster id whenever the client it runs in learns it.
 * A strategy wrapping another passes both on.
 */
public interface RegistryAwareStrategy extends SubjectNameStrategy {

  /** The registry client of the serde that uses this strategy. Called once, before any record. */
  void useRegistry(SchemaRegistryClient client);

  /**
   * The id of the Kafka cluster that the serde's producer or consumer talks to, when it learns it (Kafka's
   * {@code ClusterResourceListener}). This default ignores it.
   */
  default void useKafkaClusterId(String clusterId) {}
}
