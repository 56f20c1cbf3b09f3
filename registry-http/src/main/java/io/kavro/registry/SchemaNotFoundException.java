package io.kavro.registry;

/** A subject, version or schema id that the registry does not know: HTTP 404 with {@code error_code} 40401 (subject), 40402 (version) or 40403 (schema). */
public class SchemaNotFoundException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public SchemaNotFoundException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }

  /** A failure that did not come from a registry response. */
  public SchemaNotFoundException(String message) {
    super(message, -1, -1, null, null);
  }
}
