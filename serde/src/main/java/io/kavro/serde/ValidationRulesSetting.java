package io.kavro.serde;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * Confluent's serializer setting {@code validation.rules.execution}, which runs the inline validation rules of a
 * schema ({@code confluent:rules}, CEL CHECK constraints on a record or a field) before or after its domain rules.
 * Kavro does not run them: a serializer configured to ({@code BEFORE_DOMAIN_RULES}, {@code AFTER_DOMAIN_RULES}) is
 * refused, rather than writing records that those rules would have stopped. Its default, {@code DISABLED}, is
 * accepted. Stateless.
 */
final class ValidationRulesSetting {
  static final String EXECUTION = "validation.rules.execution";

  private ValidationRulesSetting() {}

  /** @throws ConfigException when {@code originals} ask for the rules to run */
  static void refuseEnabled(Map<String, ?> originals) {
    Object value = originals.get(EXECUTION);
    if (value != null && !String.valueOf(value).trim().toUpperCase(Locale.ROOT).equals("DISABLED")) {
      throw new ConfigException(EXECUTION, value, "Kavro does not run Confluent's inline validation rules"
          + " (confluent:rules in the schema); remove the setting or set it to DISABLED");
    }
  }
}
