package io.kavro.rules.cel;

import io.kavro.serde.rules.RuleException;
import java.util.Set;

/**
 * An inline validation rule ({@code confluent:rules}) whose expression reads a field its record's type does not have
 * (a misspelt name): refused when its schema version is prepared, rather than failing every record that reaches it,
 * or passing them where the read is guarded ({@code has(this.nmae)}). The message names the rule, its expression and
 * the field.
 */
final class InlineUnknownFieldException extends RuleException {
  private static final long serialVersionUID = 1L;

  /** The fields read that the record lacks, as the checker named them. */
  private final transient Set<String> fields;

  InlineUnknownFieldException(String message, Set<String> fields) {
    super(message);
    this.fields = Set.copyOf(fields);
  }

  /** The fields read that the record lacks (the message names the first). */
  Set<String> fields() {
    return fields;
  }
}
