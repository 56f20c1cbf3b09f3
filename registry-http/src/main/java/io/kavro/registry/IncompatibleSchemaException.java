package io.kavro.registry;

/** The registry rejected a schema because it breaks the subject's compatibility level: HTTP 409. */
public class IncompatibleSchemaException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public IncompatibleSchemaException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }

  /** A failure that did not come from a registry response. */
  public IncompatibleSchemaException(String message) {
    super(message, -1, -1, null, null);
  }
}
