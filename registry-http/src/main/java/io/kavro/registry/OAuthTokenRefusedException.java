package io.kavro.registry;

/**
 * No OAuth token could be had: the issuer refused the client's credentials ({@link #status()} is the issuer's own
 * HTTP status, a 403 included), or answered without a token the client can use. Unlike a registry's own 403, which
 * may refuse what one request names, this refuses every request until the client's OAuth settings are fixed.
 */
public class OAuthTokenRefusedException extends RegistryAccessDeniedException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public OAuthTokenRefusedException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }
}
