package io.kavro.registry;

/** The registry rejected a schema because it breaks the subject's compatibility level: HTTP 409. */
public class IncompatibleSchemaException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  private final String reason;

  /**
   * See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}; the reason
   * is the whole message.
   */
  public IncompatibleSchemaException(String message, int status, int errorCode, String url, Throwable cause) {
    this(message, message, status, errorCode, url, cause);
  }

  /**
   * A rejection with the registry's own words for why, apart from the message that names the call and the URL.
   *
   * @param reason why the registry rejected the schema, as it said it (its error message)
   */
  public IncompatibleSchemaException(String message, String reason, int status, int errorCode, String url,
      Throwable cause) {
    super(message, status, errorCode, url, cause);
    this.reason = reason == null || reason.isBlank() ? message : reason;
  }

  /** A failure that did not come from a registry response; the reason is the whole message. */
  public IncompatibleSchemaException(String message) {
    this(message, -1, -1, null, null);
  }

  /**
   * Why the registry rejected the schema, in its words ("Schema being registered is incompatible with an earlier
   * schema for subject ..."), without the call and URL that the message adds; the message when it said nothing.
   */
  public String reason() {
    return reason;
  }
}
