package io.kavro.serde;

import org.apache.kafka.common.errors.RetriableException;

/**
 * The record is fine, but it could not be serialized or deserialized now; the same call can succeed later.
 *
 * <p>Kafka's own {@link RetriableException}, so a producer reports it through the send's future and
 * callback, and a consumer can poll again. The cause says why: today always an
 * {@link io.kavro.registry.RegistryUnavailableException}, the registry could not be reached within the
 * retry budget (I/O errors, timeouts, 408, 429, 5xx, a 404 that is not the registry's own). Distinct from
 * {@link MalformedPayloadException} and the other {@code SerializationException}s, which no retry fixes.
 */
public class RetriableSerdeException extends RetriableException {
  private static final long serialVersionUID = 1L;

  /** With a message that names the topic, side and schema id where known, and the registry's exception. */
  public RetriableSerdeException(String message, Throwable cause) {
    super(message, cause);
  }
}
