package io.kavro.kms.azure;

import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RequestRetryCondition;
import com.azure.core.http.policy.RetryOptions;
import java.time.Duration;

/**
 * How the driver reaches Key Vault and Entra ID: one HTTP client for the process, azure-core's transport over the
 * JDK's {@code java.net.http.HttpClient}, which trusts the JVM's trust store ({@code javax.net.ssl.trustStore}) and
 * takes the JVM's proxy settings ({@code https.proxyHost}, {@code java.net.useSystemProxies}, or
 * {@code HTTPS_PROXY}) through azure-core's configuration; and the retries of one call.
 *
 * <p>Retries: the SDK retries throttling (429), 408, 5xx other than 501/505, timeouts and I/O errors itself (and,
 * by default, any other exception, such as a refused credential: Kavro does not; nor a failure to get a token,
 * which the identity client retried itself). Kavro bounds it to {@value #MAX_RETRIES} retries with exponential
 * backoff from {@code 0.5 s} to {@code 4 s}
 * (Confluent's driver: 5 retries from 1 s to 16 s, about 30 s), so a KMS that keeps throttling fails the record
 * after about 4 s of waiting (plus Key Vault's {@code Retry-After}, which the SDK honours) with a retriable
 * exception, well within a producer's {@code delivery.timeout.ms}, and the application or Kafka retries it.
 * Timeouts: 10 s to connect, 30 s for an answer.
 */
final class KeyVaultTransport {
  static final int MAX_RETRIES = 3;
  static final Duration BASE_DELAY = Duration.ofMillis(500);
  static final Duration MAX_DELAY = Duration.ofSeconds(4);
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(30);

  private KeyVaultTransport() {}

  /** The process's HTTP client, made on first use. */
  static HttpClient http() {
    return Holder.HTTP;
  }

  /**
   * The retries of one call, backing off from {@code baseDelay}: {@link #BASE_DELAY}, or a shorter one that the
   * driver's own tests give its constructor to run the retries without waiting them out (capped at
   * {@link #MAX_DELAY} as ever).
   */
  static RetryOptions retries(Duration baseDelay) {
    return new RetryOptions(new ExponentialBackoffOptions().setMaxRetries(MAX_RETRIES).setBaseDelay(baseDelay)
        .setMaxDelay(MAX_DELAY)).setShouldRetryCondition(KeyVaultTransport::isRetried);
  }

  /**
   * Retried: Key Vault's temporary answers (408, 429, 5xx but 501 and 505, as the SDK's default), and failures
   * without an answer only when they are temporary (I/O, timeouts); not a refused credential, which the SDK's
   * default would retry as any exception, nor any failure to get a token ({@link KeyVaultFaults#isCredentialFailure}:
   * the identity client retried it, the managed identity endpoint for about a minute).
   */
  static boolean isRetried(RequestRetryCondition condition) {
    if (condition.getResponse() != null) {
      return KeyVaultFaults.isTemporary(condition.getResponse().getStatusCode());
    }
    Throwable failure = condition.getThrowable();
    return failure != null && !KeyVaultFaults.isCredentialFailure(failure) && KeyVaultFaults.isTemporary(failure);
  }

  private static final class Holder {
    static final HttpClient HTTP = new JdkHttpClientBuilder().connectionTimeout(CONNECT_TIMEOUT)
        .responseTimeout(RESPONSE_TIMEOUT).build();
  }
}
