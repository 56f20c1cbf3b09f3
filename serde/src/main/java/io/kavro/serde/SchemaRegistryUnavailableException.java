package io.kavro.serde;

import org.apache.kafka.common.errors.RetriableException;

/**
 * The schema registry could not be reached within the retry budget (I/O errors, timeouts, 408, 429, 5xx).
 *
 * <p>Retriable: the record itself is fine, so retrying the send, or polling again, can succeed once the
 * registry is back. Distinct from {@link MalformedPayloadException}, which no retry fixes.
 */
public class SchemaRegistryUnavailableException extends RetriableException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the topic, side and schema id where known. */
  public SchemaRegistryUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
