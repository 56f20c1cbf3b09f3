package io.kavro.kms.aws;

import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.RuleDeploymentException;
import java.security.GeneralSecurityException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * What an AWS SDK failure is, in one place: an outage ({@link KmsUnavailableException}: throttling, HTTP 429 and
 * 408 and 5xx, {@code KMSInternalException}, {@code DependencyTimeoutException}; and every client-side failure,
 * which is not AWS's answer: timeouts, I/O failures, an interrupted call, credentials that could not be loaded for
 * now, as when the SDK's chain finds its container or instance credentials endpoint or STS silent, for the SDK then
 * throws a cause-less {@code SdkClientException}); a refusal (a plain {@link GeneralSecurityException}: AWS's
 * answer that access is denied, a key is not found or disabled, a ciphertext was not made by the key); or a
 * deployment fault (a {@link RuleDeploymentException}, thrown: AWS refused the credentials themselves, or an
 * explicit {@code profile} is in no profile file, found when the SDK fails to load it, while the default chain
 * failing stays an outage). Other settings that Kavro finds missing or wrong are refused before any call
 * ({@link AwsCredentialSettings}). Messages name the key ARN and AWS's reason (its error code and the first line of
 * its message, cut short), never a credential; an outage keeps the SDK's exception as its cause, a refusal and a
 * deployment fault drop it (an {@code InvalidSignatureException}'s message quotes the signed request).
 */
final class AwsFaults {
  /**
   * AWS error codes that a later attempt may not meet, besides those the SDK counts as throttling. Expired
   * credentials are among them: a refreshing provider (a web identity whose token file is not rotated yet, cached
   * credentials after a refresh that failed for now) meets them for a while; static session credentials meet them
   * for good, and retry loudly until they are replaced, never passing a rule over.
   */
  private static final Set<String> TRANSIENT_CODES = Set.of("ThrottlingException", "KMSInternalException",
      "DependencyTimeoutException", "ServiceUnavailable", "ServiceUnavailableException", "InternalFailure",
      "InternalError", "RequestTimeout", "RequestTimeoutException", "RequestLimitExceeded",
      "TooManyRequestsException", "IDPCommunicationError", "ExpiredTokenException", "ExpiredToken");
  /**
   * AWS's answers, KMS's and (under a {@code role.arn}) STS's, that the credentials themselves are refused
   * (unknown, wrongly signed; STS's {@code AccessDenied}: a role they may not assume): a setting of the deployment,
   * not an answer about the key (KMS's own {@code AccessDeniedException} is one). The SDK retries a signature refused
   * for clock skew itself, with its clock corrected, before this sees it.
   */
  private static final Set<String> CREDENTIALS_REFUSED = Set.of("UnrecognizedClientException",
      "InvalidSignatureException", "IncompleteSignatureException", "InvalidClientTokenId", "SignatureDoesNotMatch",
      "AccessDenied");
  private static final int TOO_MANY_REQUESTS = 429;
  private static final int REQUEST_TIMEOUT = 408;
  private static final int SERVER_ERROR = 500;
  /** The longest reason quoted, as Vault's driver cuts its. */
  private static final int MAX_REASON = 300;

  private AwsFaults() {}

  /**
   * The exception a {@link io.kavro.rules.encryption.KmsClient} throws for an SDK failure.
   *
   * @param action "encrypt" or "decrypt"
   * @throws RuleDeploymentException instead of returning, for an explicit profile that no profile file has or
   *     credentials AWS refuses: a setting of this deployment, which every key of it meets, not an answer about
   *     the key
   */
  static GeneralSecurityException of(String action, AwsKeyArn key, SdkException e) {
    if (e instanceof AbortedException) {
      Thread.currentThread().interrupt(); // the SDK cleared the flag when it gave up: give it back to the caller
    }
    AwsCredentialSettings.MissingProfile missingProfile = missingProfile(e);
    if (missingProfile != null) {
      throw new RuleDeploymentException("AWS KMS cannot " + action + " with key " + key + ": "
          + missingProfile.getMessage());
    }
    String reason = reason(e);
    if (e instanceof AwsServiceException service && service.awsErrorDetails() != null
        && CREDENTIALS_REFUSED.contains(service.awsErrorDetails().errorCode())) {
      // No cause, as for any refusal: AWS's whole message may quote the signed request's headers.
      throw new RuleDeploymentException("AWS KMS refused the credentials to " + action + " with key " + key + ": "
          + reason);
    }
    if (isTransient(e)) {
      return new KmsUnavailableException("AWS KMS could not " + action + " with key " + key + " for now: " + reason,
          e);
    }
    // No cause: the SDK's exception holds AWS's whole message, which may quote the signed request's headers.
    return new GeneralSecurityException("AWS KMS refused to " + action + " with key " + key + ": " + reason);
  }

  /** The explicit profile that does not exist, among the causes; null when none. */
  private static AwsCredentialSettings.MissingProfile missingProfile(Throwable e) {
    return Causes.find(e, AwsCredentialSettings.MissingProfile.class).orElse(null);
  }

  static boolean isTransient(SdkException e) {
    if (e instanceof AwsServiceException service) {
      AwsErrorDetails details = service.awsErrorDetails();
      return service.statusCode() == TOO_MANY_REQUESTS || service.statusCode() == REQUEST_TIMEOUT
          || service.statusCode() >= SERVER_ERROR || service.isThrottlingException()
          || details != null && TRANSIENT_CODES.contains(details.errorCode());
    }
    return true; // not AWS's answer: the SDK could not make the call (no connection, no credentials for now)
  }

  /**
   * AWS's error code, HTTP status and message; or, for a client-side failure, its class and message. Only the
   * message's first line, cut to {@link #MAX_REASON}: an {@code InvalidSignatureException} goes on with the
   * canonical request, whose signed headers hold the session token ({@code x-amz-security-token}).
   */
  private static String reason(SdkException e) {
    if (e instanceof AwsServiceException service && service.awsErrorDetails() != null) {
      AwsErrorDetails details = service.awsErrorDetails();
      return details.errorCode() + " (HTTP " + service.statusCode() + "): " + firstLine(details.errorMessage());
    }
    return e.getClass().getSimpleName() + ": " + firstLine(e.getMessage());
  }

  private static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    String line = text.strip().lines().findFirst().orElse("");
    return line.length() > MAX_REASON ? line.substring(0, MAX_REASON) + "..." : line;
  }
}
