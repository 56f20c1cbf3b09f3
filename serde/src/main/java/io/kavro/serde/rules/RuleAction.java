package io.kavro.serde.rules;

import java.util.Map;

/**
 * What follows a rule's success or failure ({@code onSuccess}, {@code onFailure}): {@code NONE} and
 * {@code ERROR} are built in, {@code DLQ} comes with {@code kavro-rules}. Found as executors are
 * ({@code rule.actions}, {@code rule.actions.<name>.class}, {@link java.util.ServiceLoader}). Thread-safe.
 */
public interface RuleAction extends AutoCloseable {
  /** The action's name, upper case, as rules name it. */
  String type();

  /** Configures the action once; the parameters are laid over the serde's settings as for executors. */
  default void configure(Map<String, ?> configs) {}

  /**
   * Acts on a rule's outcome.
   *
   * @throws org.apache.kafka.common.errors.SerializationException to fail the record
   */
  void run(RuleOutcome outcome);

  /** Releases what the action holds. */
  @Override
  default void close() {}
}
