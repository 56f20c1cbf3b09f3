package io.kavro.kms.aws;

import io.kavro.rules.encryption.KmsUnavailableException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.GeneralSecurityException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * What an AWS SDK failure is, in one place: an outage ({@link KmsUnavailableException}: throttling, HTTP 429 and
 * 5xx, {@code KMSInternalException}, {@code DependencyTimeoutException}, timeouts, I/O failures) or a refusal (a
 * plain {@link GeneralSecurityException}: access denied, a key not found or disabled, a ciphertext not made by
 * the key, bad credentials). Messages name the key ARN and AWS's reason (its error code and message), never a
 * credential; the SDK's exception is kept as the cause.
 */
final class AwsFaults {
  /** AWS error codes that a later attempt may not meet, besides those the SDK counts as throttling. */
  private static final Set<String> TRANSIENT_CODES = Set.of("ThrottlingException", "KMSInternalException",
      "DependencyTimeoutException", "ServiceUnavailable", "ServiceUnavailableException", "InternalFailure",
      "InternalError", "RequestTimeout", "RequestTimeoutException", "RequestLimitExceeded",
      "TooManyRequestsException", "IDPCommunicationError");
  /** How deep the causes are searched for an I/O failure (a bound against a cycle). */
  private static final int MAX_CAUSES = 16;

  private AwsFaults() {}

  /**
   * The exception a {@link io.kavro.rules.encryption.KmsClient} throws for an SDK failure.
   *
   * @param action "encrypt" or "decrypt"
   */
  static GeneralSecurityException of(String action, AwsKeyArn key, SdkException e) {
    String reason = reason(e);
    if (isTransient(e)) {
      return new KmsUnavailableException("AWS KMS could not " + action + " with key " + key + " for now: " + reason,
          e);
    }
    return new GeneralSecurityException("AWS KMS refused to " + action + " with key " + key + ": " + reason, e);
  }

  static boolean isTransient(SdkException e) {
    if (e instanceof AwsServiceException service) {
      AwsErrorDetails details = service.awsErrorDetails();
      return service.statusCode() == 429 || service.statusCode() >= 500 || service.isThrottlingException()
          || details != null && TRANSIENT_CODES.contains(details.errorCode());
    }
    if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
      return true;
    }
    Throwable cause = e.getCause();
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (cause instanceof IOException || cause instanceof UncheckedIOException) {
        return true;
      }
    }
    return false;
  }

  /** AWS's error code, HTTP status and message; or, for a client-side failure, its class and message. */
  private static String reason(SdkException e) {
    if (e instanceof AwsServiceException service && service.awsErrorDetails() != null) {
      AwsErrorDetails details = service.awsErrorDetails();
      return details.errorCode() + " (HTTP " + service.statusCode() + "): " + details.errorMessage();
    }
    return e.getClass().getSimpleName() + ": " + e.getMessage();
  }
}
