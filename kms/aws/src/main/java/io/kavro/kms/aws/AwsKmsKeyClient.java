package io.kavro.kms.aws;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsResources;
import java.security.GeneralSecurityException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kms.model.DecryptResponse;

/**
 * One AWS KMS key of an {@code aws-kms} KEK (its own or an alternate, which
 * {@link io.kavro.rules.encryption.AlternateKeys} tries in order). Encrypt sends the DEK with no encryption context
 * (Confluent wraps with empty associated data) and keeps AWS's {@code CiphertextBlob} as it is; decrypt names the
 * key ({@code KeyId}) and, for a key ARN, checks that AWS decrypted with that key. An outage is a
 * {@link io.kavro.rules.encryption.KmsUnavailableException}, a refusal names the key and AWS's reason
 * ({@link AwsFaults}). Thread-safe (the SDK's clients are). {@link #close()} releases its share of the SDK client.
 *
 * @param arn the key
 * @param sdk its share of the SDK client of the key's region and settings
 */
record AwsKmsKeyClient(AwsKeyArn arn, KmsResources.Lease<AwsSdk> sdk) implements KmsClient {
  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    try {
      return sdk.get().kms().encrypt(r -> r.keyId(arn.arn()).plaintext(SdkBytes.fromByteArray(plaintext)))
          .ciphertextBlob().asByteArray();
    } catch (SdkException e) {
      throw AwsFaults.of("encrypt", arn, e);
    }
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    DecryptResponse response;
    try {
      response = sdk.get().kms().decrypt(r -> r.keyId(arn.arn()).ciphertextBlob(SdkBytes.fromByteArray(ciphertext)));
    } catch (SdkException e) {
      throw AwsFaults.of("decrypt", arn, e);
    }
    if (arn.keyFormat() && !arn.arn().equals(response.keyId())) {
      throw new GeneralSecurityException("AWS KMS decrypted with key " + response.keyId() + ", not with key "
          + arn + ": decryption failed: wrong key id");
    }
    return response.plaintext().asByteArray();
  }

  /** Releases its share of the SDK client; the last share closes it. A second call does nothing. */
  @Override
  public void close() {
    sdk.close();
  }

  /** The key, never a credential. */
  @Override
  public String toString() {
    return "AWS KMS client of " + arn.arn();
  }
}
