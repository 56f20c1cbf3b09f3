package io.kavro.serde.rules;

import java.util.Map;
import org.apache.avro.Schema;

/**
 * Runs Confluent's inline validation rules: the {@code confluent:rules} of a schema's records and fields, each a
 * CEL check of {@code this}. The serde finds one by {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.kavro.serde.rules.InlineValidator}, as {@code kavro-rules} declares its own) or by
 * {@code validation.rules.executor.class}, only when {@code validation.rules.execution} is not {@code DISABLED}.
 * Thread-safe.
 */
public interface InlineValidator extends AutoCloseable {
  /** Configures the validator, once, with the serde's settings (with {@code rule.executors._CEL_.param.*}). */
  default void configure(Map<String, ?> configs) {}

  /**
   * Compiles the inline rules of {@code writer}, once per schema version.
   *
   * @return the checks, or null when the schema has no inline rule
   */
  InlineChecks prepare(Schema writer);

  /**
   * Compiles the inline rules of {@code writer}, once per schema version and binding, with {@code this} bound as
   * {@code binding} says (the data model the serializer writes with). The default ignores the binding.
   *
   * @return the checks, or null when the schema has no inline rule
   * @throws RuleException naming the rule, when a rule is refused outright (its result can never be a bool or a
   *     string); the serializer then refuses the records of that schema version
   */
  default InlineChecks prepare(Schema writer, InlineBinding binding) {
    return prepare(writer);
  }

  @Override
  default void close() {}
}
