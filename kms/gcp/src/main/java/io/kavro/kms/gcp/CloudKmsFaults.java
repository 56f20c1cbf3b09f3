package io.kavro.kms.gcp;

import com.google.api.client.googleapis.json.GoogleJsonError;
import com.google.api.client.googleapis.json.GoogleJsonResponseException;
import com.google.api.client.http.HttpResponseException;
import com.google.auth.Retryable;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleDeploymentException;
import java.io.IOException;
import java.security.GeneralSecurityException;
import java.util.Set;

/**
 * How a failed Cloud KMS call is classified:
 * <ul>
 *   <li>temporary ({@link KmsUnavailableException}) when Cloud KMS throttled ({@code RESOURCE_EXHAUSTED}, HTTP 429),
 *       was unavailable or timed out ({@code UNAVAILABLE}, {@code DEADLINE_EXCEEDED}, {@code INTERNAL},
 *       {@code ABORTED}, HTTP 408 and 5xx), a proxy answered 404 without Google's error body, the connection
 *       failed, the OAuth token endpoint failed retriably (or answered with neither a status nor an OAuth refusal,
 *       as STS can), or Cloud KMS answered 401 ({@code UNAUTHENTICATED}) even after google-auth's refresh, which
 *       may itself have failed for now (google-auth swallows that);
 *   <li>the deployment's (a {@link RuleDeploymentException}, thrown) when the token endpoint refuses the
 *       credentials ({@code invalid_grant}: a deleted key or account, a wrong private key), which every key and
 *       record meets;
 *   <li>otherwise final (a plain {@link GeneralSecurityException}): {@code PERMISSION_DENIED}, {@code NOT_FOUND},
 *       {@code FAILED_PRECONDITION} (a disabled or destroyed key version), {@code INVALID_ARGUMENT} (a ciphertext
 *       not made by this key).
 * </ul>
 * The message names the key, the operation, the HTTP status and Google's status and reason; never a credential, a
 * token or key material. A final failure carries no cause: the client's exceptions are {@link IOException}s, which
 * kavro-rules reads as temporary. Stateless.
 */
final class CloudKmsFaults {
  private static final Set<String> TEMPORARY_STATUSES =
      Set.of("RESOURCE_EXHAUSTED", "UNAVAILABLE", "DEADLINE_EXCEEDED", "INTERNAL", "ABORTED");
  private static final int TOO_MANY_REQUESTS = 429;
  private static final int REQUEST_TIMEOUT = 408;
  private static final int NOT_FOUND = 404;
  private static final int UNAUTHORIZED = 401;
  /** OAuth's error codes (RFC 6749, 8693) that refuse the request, as STS's failures name them in their message. */
  private static final Set<String> OAUTH_REFUSALS = Set.of("invalid_grant", "invalid_client", "unauthorized_client",
      "invalid_request", "invalid_scope", "invalid_target", "access_denied", "unsupported_grant_type");
  private static final int SERVER_ERROR = 500;

  private CloudKmsFaults() {}

  /**
   * The failure of {@code operation} ({@code encrypt}, {@code decrypt}) on {@code key}, classified.
   *
   * @throws RuleDeploymentException instead of returning, when the credentials are refused
   */
  static GeneralSecurityException of(GcpKeyName key, String operation, Exception e) {
    String what = "Cloud KMS key " + key + " could not " + operation;
    if (e instanceof GoogleJsonResponseException json && json.getDetails() != null) {
      GoogleJsonError details = json.getDetails();
      Object googleStatus = details.get("status");
      String status = googleStatus == null ? null : googleStatus.toString();
      String message = what + ": HTTP " + json.getStatusCode() + (status == null ? "" : " " + status) + ": "
          + oneLine(details.getMessage());
      // A 401 even after google-auth's refresh: that refresh may have failed for now (it swallows the failure),
      // or a metadata server handed the cached token again. A refused account fails at the token endpoint instead.
      return temporary(json.getStatusCode()) || TEMPORARY_STATUSES.contains(status)
          || json.getStatusCode() == UNAUTHORIZED
          ? new KmsUnavailableException(message, e) : new GeneralSecurityException(message);
    }
    if (e instanceof HttpResponseException http) { // without Google's error body: a proxy's, a load balancer's
      String message = what + ": HTTP " + http.getStatusCode() + " " + oneLine(http.getStatusMessage())
          + " without Cloud KMS's error body";
      return temporary(http.getStatusCode()) || http.getStatusCode() == NOT_FOUND
          || http.getStatusCode() == UNAUTHORIZED
          ? new KmsUnavailableException(message, e) : new GeneralSecurityException(message);
    }
    if (e instanceof IOException && e instanceof Retryable auth) { // the token endpoint's, GoogleAuthException
      boolean temporary = tokenFailureIsTemporary(auth, e.getCause(), e.getMessage());
      String message = what + ": no OAuth access token" + (temporary ? " for now" : "") + ": "
          + oneLine(e.getMessage());
      if (!temporary) {
        throw new RuleDeploymentException(message + " (the credentials are refused)");
      }
      return new KmsUnavailableException(message, e);
    }
    if (e instanceof IOException) {
      return new KmsUnavailableException(what + ": " + e.getClass().getSimpleName() + ": " + oneLine(e.getMessage()),
          e);
    }
    return new GeneralSecurityException(what + ": " + e.getClass().getSimpleName() + ": "
        + oneLine(e.getMessage()), e);
  }

  /**
   * Whether the token endpoint's failure is temporary: by its HTTP status when it answered (any 5xx, 408, 429:
   * google-auth's {@code isRetryable()} counts only 500, 503, 408 and 429, so a gateway's 502 or 504 would be
   * final; and a 404, a gateway's, not OAuth's), temporary when it did not answer (an I/O failure), or as
   * google-auth says; with neither a status nor a cause (STS's {@code OAuthException}, for workload identity
   * federation, keeps neither), final only for an OAuth error code that refuses the request.
   */
  private static boolean tokenFailureIsTemporary(Retryable auth, Throwable cause, String message) {
    if (cause instanceof HttpResponseException http) {
      return temporary(http.getStatusCode()) || http.getStatusCode() == NOT_FOUND;
    }
    if (cause instanceof IOException || auth.isRetryable()) {
      return true;
    }
    return cause != null || message == null || OAUTH_REFUSALS.stream().noneMatch(message::contains);
  }

  private static boolean temporary(int status) {
    return status == TOO_MANY_REQUESTS || status == REQUEST_TIMEOUT || status >= SERVER_ERROR;
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", " ");
  }
}
