package io.kavro.serde.rules;

/**
 * A rule failed, or cannot run: the rule's {@code onFailure} action decides what follows (by default, an error
 * that names the rule). Messages never hold key material, secrets or field values: they go into exceptions, logs
 * and dead letter queue headers, and a field value may be what the contract encrypts.
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

  /**
   * A failure whose cause may quote field values (a script engine's error, a conversion's): its causes are kept as
   * their class names and stack traces, without their messages, so that a log of the whole chain holds no value.
   *
   * @param message what failed, naming the rule and the field, never a value
   * @param cause the failure as the engine threw it, or null
   */
  public static RuleException hidingValues(String message, Throwable cause) {
    return new RuleException(message, withoutMessages(cause));
  }

  /**
   * A stand-in for {@code cause} and its causes that keeps their class names and stack traces, not their messages
   * (which may quote field values): for a failure on a route whose rules may protect the value. A
   * {@link LinkageError}'s stand-in is a {@code LinkageError} too, and a {@link RuleDeploymentException}'s one of
   * those, so that what looks for a deployment fault among the causes (Kavro's Connect converter) still finds it.
   *
   * @param cause the failure, or null
   * @return the stand-in, or null for null
   */
  public static Throwable withoutMessages(Throwable cause) {
    return withoutMessages(cause, 0);
  }

  private static Throwable withoutMessages(Throwable cause, int depth) {
    if (cause == null || depth >= Causes.MAX_CAUSES) {
      return null;
    }
    String text = cause.getClass().getName() + " (its message is left out: it may quote field values)";
    Throwable causes = withoutMessages(cause.getCause(), depth + 1);
    Throwable copy = cause instanceof LinkageError ? new LinkageError(text, causes)
        : cause instanceof RuleDeploymentException ? new RuleDeploymentException(text, causes)
        : new RuleException(text, causes);
    copy.setStackTrace(cause.getStackTrace());
    return copy;
  }
}
