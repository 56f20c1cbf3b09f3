package io.kavro.registry;

/**
 * No registry answered usefully within the retry budget: every attempt ended in an I/O error, a timeout,
 * HTTP 408, 429 or 5xx, or the calling thread was interrupted.
 *
 * <p>This is a transient condition: the same call may succeed later. The serde turns it into a retriable
 * Kafka exception, distinct from corrupt data. {@link #status()} and {@link #errorCode()} describe the last
 * attempt; the cause is the last I/O error, if any.
 */
public class RegistryUnavailableException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public RegistryUnavailableException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }
}
