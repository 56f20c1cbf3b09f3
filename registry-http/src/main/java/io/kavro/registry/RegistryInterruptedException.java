package io.kavro.registry;

/**
 * The calling thread was interrupted while waiting for the registry or between retries. The thread's
 * interrupt flag is still set when this is thrown.
 */
public class RegistryInterruptedException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** An interruption during a request to {@code url} (already redacted). */
  public RegistryInterruptedException(String message, String url, Throwable cause) {
    super(message, -1, -1, url, cause);
  }
}
