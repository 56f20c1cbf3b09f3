package io.kavro.kms.aws;

import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.services.kms.KmsClient;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The AWS SDK's KMS client of one region and one set of credential settings, with its credentials provider (and the
 * STS client of an assumed role): what the driver's key clients of that region and settings share
 * ({@link io.kavro.rules.encryption.KmsResources}), since a key id is per request. {@link #close()} closes the
 * SDK client, then the provider (the SDK does not close a provider it was given). Thread-safe.
 */
final class AwsSdk implements AutoCloseable {
  /** The SDK clients made and not yet closed, in this JVM: for tests. */
  private static final AtomicInteger OPEN = new AtomicInteger();

  private final KmsClient kms;
  private final AwsCredentialsProvider credentials;

  AwsSdk(KmsClient kms, AwsCredentialsProvider credentials) {
    this.kms = kms;
    this.credentials = credentials;
    OPEN.incrementAndGet();
  }

  KmsClient kms() {
    return kms;
  }

  /** The SDK clients made and not yet closed, in this JVM. */
  static int open() {
    return OPEN.get();
  }

  @Override
  public void close() {
    try {
      kms.close();
    } finally {
      OPEN.decrementAndGet();
      if (credentials instanceof SdkAutoCloseable closeable) {
        closeable.close();
      }
    }
  }

  /** What it is, never a credential. */
  @Override
  public String toString() {
    return "AWS KMS SDK client";
  }
}
