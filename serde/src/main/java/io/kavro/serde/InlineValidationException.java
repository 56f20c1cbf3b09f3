package io.kavro.serde;

import java.util.List;
import org.apache.kafka.common.errors.SerializationException;

/**
 * A record broke inline validation rules ({@code confluent:rules}, run with {@code validation.rules.execution}):
 * not retriable, the same record fails again. The message lists each violation by field path and rule, as
 * Confluent's does, and never a value of the record.
 */
public final class InlineValidationException extends SerializationException {
  private static final long serialVersionUID = 1L;

  /** The violations, as the message lists them. */
  private final List<String> violations;

  InlineValidationException(String record, List<String> violations) {
    super("Validation rule failed (" + violations.size() + (violations.size() == 1 ? " violation)" : " violations)")
        + " on " + record + ":\n  - " + String.join("\n  - ", violations));
    this.violations = List.copyOf(violations);
  }

  /** Each violation: {@code <field path>: <rule name>: <doc or expression>}. */
  public List<String> violations() {
    return violations;
  }
}
