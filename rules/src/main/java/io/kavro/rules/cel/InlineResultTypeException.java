package io.kavro.rules.cel;

import io.kavro.serde.rules.RuleException;

/**
 * An inline validation rule ({@code confluent:rules}) whose expression's result type is neither {@code bool} nor
 * {@code string}, {@code dyn} included (a value only the record would say: a map's value, a union of several
 * branches, a logical type): refused when its schema version is prepared, as Confluent's {@code CelValidator}
 * refuses it when compiling, rather than checked on each record. The message names the rule, its expression and
 * its type.
 */
final class InlineResultTypeException extends RuleException {
  private static final long serialVersionUID = 1L;

  InlineResultTypeException(String message) {
    super(message);
  }
}
