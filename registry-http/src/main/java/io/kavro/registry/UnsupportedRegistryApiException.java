package io.kavro.registry;

/**
 * The registry answers, but lacks an optional API that the call needs: Confluent 8's GUIDs, or the metadata
 * API of Confluent 7.4. Apicurio, Karapace, Redpanda and older Confluent registries answer such a request
 * with a 404 that carries no registry error code, while their core API answers as usual.
 *
 * <p>This is a permanent answer, not an outage: it is never retried, and the client remembers it, so that it
 * sends no further request to that API. The serde turns it into a non-retriable Kafka
 * {@code SerializationException}.
 */
public class UnsupportedRegistryApiException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public UnsupportedRegistryApiException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }
}
