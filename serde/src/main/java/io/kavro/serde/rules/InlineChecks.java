package io.kavro.serde.rules;

import java.util.List;

/**
 * The inline validation rules of one schema version, compiled ({@link InlineValidator#prepare}). Thread-safe.
 */
@FunctionalInterface
public interface InlineChecks {
  /**
   * Checks {@code message}, a generic datum of the schema.
   *
   * @param failFast stop at the first violation
   * @return each violation, as {@code <field path or <root>>: <rule name or unnamed>: <doc, else expression>}
   *     with the reason when the rule failed to run; never a value of the message. Empty when it passes.
   */
  List<String> violations(Object message, boolean failFast);
}
