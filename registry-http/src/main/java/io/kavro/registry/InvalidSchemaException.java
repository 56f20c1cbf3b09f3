package io.kavro.registry;

/** A schema that the registry (or this client) cannot parse or accept: HTTP 422 with {@code error_code} 42201, or a non-Avro schema. */
public class InvalidSchemaException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public InvalidSchemaException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }

  /** A failure that did not come from a registry response. */
  public InvalidSchemaException(String message) {
    super(message, -1, -1, null, null);
  }
}
