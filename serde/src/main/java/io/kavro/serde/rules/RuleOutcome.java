package io.kavro.serde.rules;

/**
 * How one rule ended on one record, for its {@link RuleAction}.
 *
 * @param target the rule and the schema version it ran against
 * @param input the record
 * @param original what the serde was given: the datum on write, the payload's bytes on read
 * @param failure why the rule failed, or null when it succeeded
 */
public record RuleOutcome(RuleTarget target, RuleInput input, Object original, RuleException failure) {
  /** Whether the rule failed. */
  public boolean failed() {
    return failure != null;
  }
}
