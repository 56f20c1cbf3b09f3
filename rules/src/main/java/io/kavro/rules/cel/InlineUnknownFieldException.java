package io.kavro.rules.cel;

import io.kavro.serde.rules.RuleException;

/**
 * An inline validation rule ({@code confluent:rules}) whose expression reads a field its record's type does not have
 * (a misspelt name): refused when its schema version is prepared, rather than failing every record that reaches it,
 * or passing them where the read is guarded ({@code has(this.nmae)}). The message names the rule, its expression and
 * the field.
 */
final class InlineUnknownFieldException extends RuleException {
  private static final long serialVersionUID = 1L;

  InlineUnknownFieldException(String message) {
    super(message);
  }
}
