package io.kavro.serde;

import io.kavro.serde.rules.InlineBinding;
import io.kavro.serde.rules.InlineChecks;
import io.kavro.serde.rules.InlineValidator;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;

/**
 * Confluent's inline validation rules ({@code confluent:rules}) as this serializer runs them: when
 * ({@code validation.rules.execution}), whether the first violation stops the walk ({@code validation.rules.fail.fast})
 * and the validator that compiles them, made once by {@code configure()}. Only made when the execution is not
 * {@code DISABLED}, so a serde without it pays nothing. Thread-safe.
 */
final class InlineValidation implements AutoCloseable {
  /** Confluent's default validator class: stands for the validator found on the class path (kavro-rules'). */
  static final String CONFLUENT_VALIDATOR = "io.confluent.kafka.schemaregistry.rules.cel.CelValidator";

  /** When inline rules run, relative to the domain rules of the rule set. */
  enum Execution { DISABLED, BEFORE_DOMAIN_RULES, AFTER_DOMAIN_RULES }

  private final Execution execution;
  private final boolean failFast;
  private final InlineValidator validator;

  private InlineValidation(Execution execution, boolean failFast, InlineValidator validator) {
    this.execution = execution;
    this.failFast = failFast;
    this.validator = validator;
  }

  /**
   * The inline validation of a serializer, or null when {@code execution} is {@code DISABLED}.
   *
   * @param validatorClass {@code validation.rules.executor.class}: Confluent's default (or blank) takes the
   *     validator on the class path, another name a class implementing {@link InlineValidator}
   * @param configs what the validator is configured with
   * @throws ConfigException when no validator can be had: kavro-rules is not on the class path, or the class named
   *     is not a validator
   */
  static InlineValidation of(Execution execution, boolean failFast, String validatorClass, Map<String, ?> configs) {
    if (execution == Execution.DISABLED) {
      return null;
    }
    InlineValidator validator = validator(execution, validatorClass);
    validator.configure(configs);
    return new InlineValidation(execution, failFast, validator);
  }

  private static InlineValidator validator(Execution execution, String className) {
    String key = AvroSerdeConfig.VALIDATION_RULES_EXECUTOR_CLASS_CONFIG;
    if (className == null || className.isBlank() || className.trim().equals(CONFLUENT_VALIDATOR)) {
      Iterator<InlineValidator> found = ServiceLoader.load(InlineValidator.class,
          InlineValidation.class.getClassLoader()).iterator();
      if (!found.hasNext()) {
        throw new ConfigException(AvroSerdeConfig.VALIDATION_RULES_EXECUTION_CONFIG, execution.name(), "needs an inline "
            + "validator on the class path: add " + RuleEngine.RULES_ARTIFACT + " (its CEL validator), or name one "
            + "with " + key);
      }
      return found.next();
    }
    try {
      Class<?> type = Class.forName(className.trim(), true, InlineValidation.class.getClassLoader());
      return InlineValidator.class.cast(type.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
      throw new ConfigException(key, className, "cannot make an " + InlineValidator.class.getName() + " of it: " + e);
    }
  }

  /** The compiled inline rules of {@code writer}, {@code this} bound as {@code binding}; null when it has none. */
  InlineChecks prepare(Schema writer, InlineBinding binding) {
    return validator.prepare(writer, binding);
  }

  boolean beforeDomainRules() {
    return execution == Execution.BEFORE_DOMAIN_RULES;
  }

  boolean failFast() {
    return failFast;
  }

  @Override
  public void close() {
    validator.close();
  }
}
