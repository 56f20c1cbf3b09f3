package io.kavro.serde.rules;

/**
 * A rule failed, or cannot run: the rule's {@code onFailure} action decides what follows (by default, an error
 * that names the rule). Messages never hold key material or secrets.
 */
public class RuleException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** @param message what failed, naming the field where there is one */
  public RuleException(String message) {
    super(message);
  }

  /** @param message what failed; @param cause why */
  public RuleException(String message, Throwable cause) {
    super(message, cause);
  }
}
