package io.kavro.registry;

/**
 * The registry refused the credentials, or they are missing: HTTP 401 or 403; or the HTTP proxy in front of it
 * ({@code proxy.host}) asks for credentials of its own: HTTP 407; or no OAuth token could be had
 * ({@link OAuthTokenRefusedException}, with the issuer's own status).
 */
public class RegistryAccessDeniedException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public RegistryAccessDeniedException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }

  /** A failure that did not come from a registry response. */
  public RegistryAccessDeniedException(String message) {
    super(message, -1, -1, null, null);
  }
}
