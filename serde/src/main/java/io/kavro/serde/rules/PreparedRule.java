package io.kavro.serde.rules;

/** A rule prepared for one schema version and phase by its {@link RuleExecutor}: what runs per record. */
@FunctionalInterface
public interface PreparedRule {
  /**
   * Runs the rule on one message.
   *
   * <p>The message is an Avro {@link org.apache.avro.generic.GenericData generic} datum of the target schema
   * ({@link RuleTarget#schema()}); for a migration rule, its Avro JSON form ({@code JsonNode}); for an encoding
   * rule, the encoded body ({@code byte[]}). A transform returns the new message, and must not change the one it
   * was given: the serde hands it its own copy, but a failed rule leaves it to the next one as it was. A condition
   * returns {@link Boolean#FALSE} to fail; anything else passes.
   *
   * @throws RuleException when the rule fails (a field that cannot be decrypted, a script error): the rule's
   *     {@code onFailure} action follows
   */
  Object apply(RuleInput input, Object message);
}
