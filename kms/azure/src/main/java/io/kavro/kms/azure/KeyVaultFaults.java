package io.kavro.kms.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.identity.CredentialUnavailableException;
import com.microsoft.aad.msal4j.MsalException;
import com.microsoft.aad.msal4j.MsalInteractionRequiredException;
import com.microsoft.aad.msal4j.MsalServiceException;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.RuleDeploymentException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sorts the Azure SDK's failures into Kavro's kinds:
 * <ul>
 *   <li>a {@link KmsUnavailableException} when Key Vault, Entra ID or the managed identity endpoint could not answer
 *       for now: HTTP 408, 429 or 5xx after the SDK's own retries, a timeout, an I/O error; a credential that the
 *       default chain could not find for now ({@code CredentialUnavailableException}: at a pod's start, the
 *       instance metadata endpoint not answering yet, whose cause the chain drops); an answer of the managed
 *       identity endpoint or of a gateway in front of Entra ID whose status msal4j drops (a
 *       {@code MsalServiceException} without one). As with AWS's and Google's default chains, a host with no
 *       credential at all then fails every record retriably, loudly, rather than pass a rule over;
 *   <li>a {@link RuleDeploymentException}, thrown, when the credentials themselves are refused: Entra ID's (or
 *       the managed identity endpoint's, or a proxy's in front of them) 4xx other than 408 and 429
 *       ({@code invalid_client}, an application not in the tenant; its status read from msal4j's message when it
 *       kept none), Key Vault's 401. Every record meets them alike;
 *   <li>any other {@link GeneralSecurityException} when Key Vault refused (403: access denied; 404: no such key or
 *       version; 400: a disabled key, a ciphertext not made by this key).
 * </ul>
 * The message names the key id, the operation and Azure's reason, with the client secret, if Azure ever echoed it,
 * blanked out. Stateless.
 */
final class KeyVaultFaults {
  private static final int MAX_REASON = 400;
  private static final int BAD_REQUEST = 400;
  private static final int UNAUTHORIZED = 401;
  private static final int NOT_FOUND = 404;
  private static final int GONE = 410;
  private static final int SERVER_ERROR = 500;
  /** How msal4j words the status of an answer it could not read as OAuth's JSON (it keeps no statusCode then). */
  private static final Pattern MSAL_STATUS = Pattern.compile("status code:? (\\d{3})", Pattern.CASE_INSENSITIVE);

  private KeyVaultFaults() {}

  /**
   * The exception for a failed call.
   *
   * @param keyId the key called
   * @param operation what was asked ("encrypt", "decrypt", "find the current version of")
   * @param secret the client secret to keep out of the message, or null
   * @throws RuleDeploymentException instead of returning, when the credentials are refused
   */
  static GeneralSecurityException of(KeyVaultKeyId keyId, String operation, RuntimeException e, String secret) {
    int status = status(e);
    String reason = reason(e, status, secret);
    if (isTemporary(e, status)) {
      return new KmsUnavailableException("Azure Key Vault key " + keyId + " cannot " + operation + " for now: "
          + reason, e);
    }
    if (status == UNAUTHORIZED || status >= BAD_REQUEST && status < SERVER_ERROR && msal(e) != null) {
      // no cause: the SDK's exceptions may quote the token request
      throw new RuleDeploymentException("Azure Key Vault key " + keyId + " cannot " + operation
          + ": the credentials are refused: " + reason);
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
   * its causes, a token endpoint that throttled or failed, a credential the default chain found none of for now, an
   * answer whose status msal4j dropped; never a credential that is refused.
   */
  static boolean isTemporary(Throwable e) {
    return isTemporary(e, status(e));
  }

  private static boolean isTemporary(Throwable e, int status) {
    MsalServiceException msal = msal(e);
    if (status > 0) {
      // the managed identity endpoint answers 404 and 410 while it starts or updates: msal4j's retries count them
      return isTemporary(status) || msal != null && (status == NOT_FOUND || status == GONE);
    }
    if (msal != null && !(msal instanceof MsalInteractionRequiredException)) {
      return true; // no status: the managed identity endpoint's answer, or a gateway's that is not OAuth's JSON
    }
    return Causes.first(e, cause -> cause instanceof IOException || cause instanceof UncheckedIOException
        || cause instanceof TimeoutException || cause instanceof CredentialUnavailableException).isPresent();
  }

  /**
   * Whether getting the token failed (a credential, msal4j): the identity client retried its own calls already,
   * and a default chain's every attempt runs the Azure CLI and others again, so Key Vault's retries leave it.
   */
  static boolean isCredentialFailure(Throwable e) {
    return Causes.first(e, cause -> cause instanceof ClientAuthenticationException || cause instanceof MsalException)
        .isPresent();
  }

  /** The first msal4j service exception among the causes, or null. */
  private static MsalServiceException msal(Throwable e) {
    return Causes.find(e, MsalServiceException.class).orElse(null);
  }

  /** The HTTP status of Key Vault's or Entra ID's answer, or 0 when there was none. */
  private static int status(Throwable e) {
    Throwable cause = e;
    for (int depth = 0; cause != null && depth < Causes.MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (cause instanceof HttpResponseException http && http.getResponse() != null) {
        return http.getResponse().getStatusCode();
      }
      if (cause instanceof MsalServiceException msal) {
        if (msal.statusCode() != null && msal.statusCode() > 0) {
          return msal.statusCode();
        }
        Matcher worded = MSAL_STATUS.matcher(String.valueOf(msal.getMessage()));
        if (worded.find()) {
          return Integer.parseInt(worded.group(1));
        }
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
