package io.kavro.registry;

/**
 * Base of every error raised by a {@link SchemaRegistryClient}.
 *
 * <p>Unchecked, so that it can travel through Kafka's serializer interfaces. Each instance carries the
 * HTTP status ({@code -1} when no response was received), the registry's {@code error_code} ({@code -1}
 * when the registry sent none) and the request URL with any user info removed, so that it can be logged
 * as is: no password or token ever appears in the message or in {@link #toString()}.
 *
 * <p>Catch a subclass to react to one kind of failure:
 * <ul>
 *   <li>{@link SchemaNotFoundException}: subject, version or schema id unknown (404);</li>
 *   <li>{@link IncompatibleSchemaException}: rejected by the compatibility level (409);</li>
 *   <li>{@link InvalidSchemaException}: the registry could not parse the schema (422 / 42201);</li>
 *   <li>{@link RegistryAccessDeniedException}: wrong or missing credentials (401, 403; an HTTP proxy's 407);</li>
 *   <li>{@link WrongRegistryUrlException}: the URL does not lead to a registry's API (a 404 that is not the
 *       registry's own "not found"); a configuration error, not retried;</li>
 *   <li>{@link RegistryUnavailableException}: no registry answered usefully within the retry budget.</li>
 * </ul>
 */
public class SchemaRegistryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final int errorCode;
  private final String url;

  /** A failure with the registry's HTTP status, error code and the redacted request URL. */
  public SchemaRegistryException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, cause);
    this.status = status;
    this.errorCode = errorCode;
    this.url = url;
  }

  /** A failure that did not come from a registry response. */
  public SchemaRegistryException(String message, Throwable cause) {
    this(message, -1, -1, null, cause);
  }

  /** A failure that did not come from a registry response. */
  public SchemaRegistryException(String message) {
    this(message, -1, -1, null, null);
  }

  /** The HTTP status of the registry's answer, or {@code -1} if no answer was received. */
  public int status() {
    return status;
  }

  /** The registry's {@code error_code} (such as 40403), or {@code -1} if it sent none. */
  public int errorCode() {
    return errorCode;
  }

  /** The request URL without user info, or {@code null} when no request was made. */
  public String url() {
    return url;
  }
}
