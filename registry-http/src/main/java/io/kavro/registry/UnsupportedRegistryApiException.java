package io.kavro.registry;


/**
 * The registry answers, but lacks an optional API that the call needs: Confluent 8's GUIDs, or the metadata
 * API of Confluent 7.4. Apicurio, Karapace, Redpanda and older Confluent registries answer such a request
 * with a 404 that carries no registry error code, while their core API answers as usual.
 *
 * <p>This is the registry's own answer, not an outage: it is not retried, and the client remembers it for a
 * bounded time (five minutes), sending no request to that API meanwhile, then asks again. The serde turns it into
 * a non-retriable Kafka {@code SerializationException}. The DEK registry is never found missing so: a 404 that
 * is not its own answer is an outage ({@link RegistryUnavailableException}), so that field encryption fails
 * closed.
 */
public class UnsupportedRegistryApiException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /**
   * How long the client remembers a registry's answer that it lacks an API, sending no request to that API
   * meanwhile, before it asks again: five minutes. What a caller learnt from this exception (a fallback it chose)
   * should be kept no longer.
   */
  public static final java.time.Duration REMEMBERED_FOR = java.time.Duration.ofMinutes(5);

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public UnsupportedRegistryApiException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }
}
