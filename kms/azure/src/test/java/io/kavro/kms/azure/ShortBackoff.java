package io.kavro.kms.azure;

import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Has the SDK's retries back off from 5 ms instead of {@link KeyVaultTransport#BASE_DELAY} in a test class, so that
 * a test of a throttling or unreachable Key Vault runs every retry (as many as ever) without waiting seconds for
 * them; the class's clients are made while it holds, and the driver's own backoff is put back after the class.
 */
final class ShortBackoff implements BeforeAllCallback, AfterAllCallback {
  static final Duration BASE = Duration.ofMillis(5);

  @Override
  public void beforeAll(ExtensionContext context) {
    KeyVaultTransport.backOffFrom(BASE);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    KeyVaultTransport.backOffFrom(KeyVaultTransport.BASE_DELAY);
  }
}
