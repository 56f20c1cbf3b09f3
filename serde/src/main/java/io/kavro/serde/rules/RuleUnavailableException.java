package io.kavro.serde.rules;

/**
 * A rule could not run because something it needs is unavailable for now: a KMS that throttles, times out or
 * cannot be reached. Not the rule's failure: the serde never runs the rule's {@code onFailure} action on it (a
 * {@code NONE} would pass plaintext to the wire or ciphertext to a reader), and fails the record with a retriable
 * Kafka exception ({@code io.kavro.serde.RetriableSerdeException}) instead, as it does for a registry outage.
 *
 * <p>An executor throws it, or has it among the causes of the {@link RuleException} it throws. Messages never
 * hold key material or secrets.
 */
public class RuleUnavailableException extends RuleException {
  private static final long serialVersionUID = 1L;

  /** @param message what could not be reached, naming the rule or the key; @param cause why */
  public RuleUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
