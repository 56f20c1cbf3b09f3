package io.kavro.registry;

/**
 * The configured registry URL does not lead to a registry's API: a core endpoint (subjects, schemas by id,
 * registration, lookup, config, compatibility) answered HTTP 404 that is not the registry's own "not found" (no
 * 404xx {@code error_code} in its JSON, no Apicurio {@code ...NotFoundException}). Typically
 * {@code schema.registry.url} is not the registry's base URL (Apicurio's is {@code http://host:port/apis/ccompat/v7},
 * not {@code http://host:port}), or a proxy or gateway in between answers for a path it does not route.
 *
 * <p>This is a configuration error, not an outage, as long as the URL has never answered as a registry (a 2xx, or
 * its own "not found"): the next URL is tried, and once every URL has answered so it is raised at once, without
 * waiting out the retries. From a URL that has answered as a registry before, such a 404 is an outage (a proxy in
 * between, a restart), retried and failed over. The message names the request URL, without user info, and the
 * configured base URL; {@link #base()} and {@link #answer()} give them apart. The serde turns it into a
 * non-retriable Kafka {@code SerializationException}; the Connect converter into a Connect
 * {@code RetriableException} whose message says it is a configuration error (see docs/connect.md).
 *
 * <p>An optional API (Confluent's GUIDs, metadata and DEK registry, Apicurio's own API) that answers such a 404 is
 * not this: the client then asks the core API, and only if that answers such a 404 too is the URL wrong.
 */
public class WrongRegistryUrlException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  private final String base;
  private final String answer;

  /**
   * See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}.
   *
   * @param base the configured base URL that answered so, without user info
   * @param answer what it answered, shortened: {@code HTTP 404: (empty body)}
   */
  public WrongRegistryUrlException(String message, String base, String answer, int status, int errorCode,
      String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
    this.base = base;
    this.answer = answer;
  }

  /** With the request URL for the base URL, and the status alone for the answer. */
  public WrongRegistryUrlException(String message, int status, int errorCode, String url, Throwable cause) {
    this(message, url, "HTTP " + status, status, errorCode, url, cause);
  }

  /** The configured base URL that answered so, without user info ({@code http://host:8080/}). */
  public String base() {
    return base;
  }

  /** What it answered, shortened, without user info: {@code HTTP 404: non-JSON body (text/html): <html>...}. */
  public String answer() {
    return answer;
  }
}
