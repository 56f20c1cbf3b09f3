package io.kavro.rules.cel;

/**
 * A failure of one of Kavro's CEL functions whose message says what was wrong without quoting any value (a type, a
 * byte offset, a position in a path, a line and column of JSON): the one message of a function's failure that a
 * rule's {@link io.kavro.serde.rules.RuleException} carries on ({@link CelScript}), where the messages of CEL's own
 * errors are left out, as they may quote a field's value.
 */
final class CelFunctionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** @param message what was wrong, never a value */
  CelFunctionException(String message) {
    super(message);
  }

  /** @param message what was wrong, never a value; @param cause the failure beneath, whose message may quote one */
  CelFunctionException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The message of the first {@code CelFunctionException} in {@code failure}'s causes, or null. */
  static String messageIn(Throwable failure) {
    int depth = 0;
    for (Throwable t = failure; t != null && depth < 16; t = t.getCause(), depth++) {
      if (t instanceof CelFunctionException e) {
        return e.getMessage();
      }
    }
    return null;
  }
}
