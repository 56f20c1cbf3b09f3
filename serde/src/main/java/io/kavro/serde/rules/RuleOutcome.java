package io.kavro.serde.rules;

/**
 * How one rule ended on one record, for its {@link RuleAction}.
 *
 * @param target the rule and the schema version it ran against
 * @param input the record
 * @param original the record as the rules got it: on write, the message as a generic datum of the writer schema,
 *     before any rule changed it; on read, the payload's bytes
 * @param failure why the rule failed, or null when it succeeded
 */
public record RuleOutcome(RuleTarget target, RuleInput input, Object original, RuleException failure) {
  /** Whether the rule failed. */
  public boolean failed() {
    return failure != null;
  }

  /** The rule, the topic and whether it failed: never the record, which may hold what the contract encrypts. */
  @Override
  public String toString() {
    return "outcome of " + target + " on topic '" + input.topic() + "' (" + (input.isKey() ? "key" : "value") + "): "
        + (failed() ? "failed" : "passed");
  }
}
