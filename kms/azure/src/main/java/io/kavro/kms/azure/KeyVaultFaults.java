package io.kavro.kms.azure;

import com.azure.core.exception.HttpResponseException;
import com.azure.identity.CredentialUnavailableException;
import com.microsoft.aad.msal4j.MsalServiceException;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeoutException;

/**
 * Sorts the Azure SDK's failures into Kavro's two kinds: a {@link KmsUnavailableException} when Key Vault or
 * Entra ID could not answer for now (HTTP 408, 429 or 5xx after the SDK's own retries, a timeout, an I/O error),
 * any other {@link GeneralSecurityException} when they refused (401 or 403: access denied or bad credentials; 404:
 * no such key or version; 400: a disabled key, a ciphertext not made by this key; no credential found). The
 * message names the key id, the operation and Azure's reason, with the client secret, if Azure ever echoed it,
 * blanked out. Stateless.
 */
final class KeyVaultFaults {
  private static final int MAX_CAUSES = 16;
  private static final int MAX_REASON = 400;

  private KeyVaultFaults() {}

  /**
   * The exception for a failed call.
   *
   * @param keyId the key called
   * @param operation what was asked ("encrypt", "decrypt", "find the current version of")
   * @param secret the client secret to keep out of the message, or null
   */
  static GeneralSecurityException of(KeyVaultKeyId keyId, String operation, RuntimeException e, String secret) {
    int status = status(e);
    String reason = reason(e, status, secret);
    if (isTemporary(e, status)) {
      return new KmsUnavailableException("Azure Key Vault key " + keyId + " cannot " + operation + " for now: "
          + reason, e);
    }
    return new GeneralSecurityException("Azure Key Vault key " + keyId + " refused to " + operation + ": "
        + reason, e);
  }

  /** Whether an HTTP status says "not now": 408, 429 or a 5xx other than 501 and 505 (the SDK's own rule). */
  static boolean isTemporary(int status) {
    return status == 408 || status == 429 || (status >= 500 && status != 501 && status != 505);
  }

  /**
   * Whether a failure without an HTTP answer, or with Entra ID's, is temporary: an I/O error or a timeout among
   * its causes, or a token endpoint that throttled or failed; never a credential that is missing or refused.
   */
  static boolean isTemporary(Throwable e) {
    return isTemporary(e, status(e));
  }

  private static boolean isTemporary(Throwable e, int status) {
    if (e instanceof CredentialUnavailableException) {
      return false;
    }
    if (status > 0) {
      return isTemporary(status);
    }
    Throwable cause = e;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (cause instanceof IOException || cause instanceof UncheckedIOException
          || cause instanceof TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** The HTTP status of Key Vault's or Entra ID's answer, or 0 when there was none. */
  private static int status(Throwable e) {
    Throwable cause = e;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (cause instanceof HttpResponseException http && http.getResponse() != null) {
        return http.getResponse().getStatusCode();
      }
      if (cause instanceof MsalServiceException msal && msal.statusCode() != null && msal.statusCode() > 0) {
        return msal.statusCode();
      }
    }
    return 0;
  }

  private static String reason(RuntimeException e, int status, String secret) {
    String message = e.getMessage();
    if (message == null || message.isBlank()) {
      Throwable cause = e.getCause();
      message = cause != null && cause.getMessage() != null ? cause.getMessage() : e.getClass().getSimpleName();
    }
    message = message.replaceAll("\\s+", " ").trim();
    if (secret != null && !secret.isEmpty()) {
      message = message.replace(secret, "[client.secret]");
    }
    if (message.length() > MAX_REASON) {
      message = message.substring(0, MAX_REASON) + "...";
    }
    return (status > 0 && !message.contains(Integer.toString(status)) ? "HTTP " + status + ": " : "") + message;
  }
}
