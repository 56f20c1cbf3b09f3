package io.kavro.rules.cel;

import io.kavro.serde.rules.RuleException;

/**
 * An inline validation rule ({@code confluent:rules}) whose expression's result type is neither {@code bool} nor
 * {@code string}: refused when its schema version is prepared, as Confluent's {@code CelValidator} refuses it when
 * compiling, rather than failing every record. The message names the rule and its expression.
 */
final class InlineResultTypeException extends RuleException {
  private static final long serialVersionUID = 1L;

  InlineResultTypeException(String message) {
    super(message);
  }
}
