package io.kavro.kms.aws;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.kms.model.DecryptResponse;

/**
 * One {@code aws-kms} KEK: its key, then its alternates ({@code encrypt.alternate.kms.key.ids}), each tried in
 * that order until one answers, on encrypt and on decrypt, as Confluent's clients do. Encrypt sends the DEK with no
 * encryption context (Confluent wraps with empty associated data) and keeps AWS's {@code CiphertextBlob} as it is;
 * decrypt names the key ({@code KeyId}) and, for a key ARN, checks that AWS decrypted with that key.
 *
 * <p>When every key fails, the failure is an outage ({@link KmsUnavailableException}) if any key's was, so that
 * the record is retried; else it is a refusal naming every key and AWS's reason. Thread-safe (the SDK's clients
 * are).
 */
final class AwsKmsKeyClient implements KmsClient {
  private static final Logger LOG = LoggerFactory.getLogger(AwsKmsKeyClient.class);

  /** A key and the SDK client of its region. */
  record Key(AwsKeyArn arn, software.amazon.awssdk.services.kms.KmsClient sdk) {}

  private final List<Key> keys;

  /** @param keys the KEK's key first, then its alternates; at least one */
  AwsKmsKeyClient(List<Key> keys) {
    this.keys = List.copyOf(keys);
  }

  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    List<GeneralSecurityException> failures = new ArrayList<>();
    for (Key key : keys) {
      try {
        return key.sdk().encrypt(r -> r.keyId(key.arn().arn()).plaintext(SdkBytes.fromByteArray(plaintext)))
            .ciphertextBlob().asByteArray();
      } catch (SdkException e) {
        failures.add(failed(AwsFaults.of("encrypt", key.arn(), e), key, failures.size()));
      }
    }
    throw allFailed("encrypt", failures);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    List<GeneralSecurityException> failures = new ArrayList<>();
    for (Key key : keys) {
      try {
        DecryptResponse response = key.sdk().decrypt(r -> r.keyId(key.arn().arn())
            .ciphertextBlob(SdkBytes.fromByteArray(ciphertext)));
        if (key.arn().keyFormat() && !key.arn().arn().equals(response.keyId())) {
          throw new GeneralSecurityException("AWS KMS decrypted with key " + response.keyId() + ", not with key "
              + key.arn() + ": decryption failed: wrong key id");
        }
        return response.plaintext().asByteArray();
      } catch (SdkException e) {
        failures.add(failed(AwsFaults.of("decrypt", key.arn(), e), key, failures.size()));
      } catch (GeneralSecurityException e) {
        failures.add(failed(e, key, failures.size()));
      }
    }
    throw allFailed("decrypt", failures);
  }

  private GeneralSecurityException failed(GeneralSecurityException e, Key key, int index) {
    if (index + 1 < keys.size()) {
      LOG.warn("{}; trying the next of the KEK's keys ({})", e.getMessage(), keys.get(index + 1).arn());
    }
    return e;
  }

  private static GeneralSecurityException allFailed(String action, List<GeneralSecurityException> failures) {
    if (failures.size() == 1) {
      return failures.get(0);
    }
    StringBuilder message = new StringBuilder("AWS KMS could not ").append(action).append(" with any of the KEK's ")
        .append(failures.size()).append(" keys: ");
    GeneralSecurityException outage = null;
    for (int i = 0; i < failures.size(); i++) {
      message.append(i == 0 ? "" : "; ").append(failures.get(i).getMessage());
      if (outage == null && failures.get(i) instanceof KmsUnavailableException) {
        outage = failures.get(i);
      }
    }
    GeneralSecurityException all = outage != null
        ? new KmsUnavailableException(message.toString(), outage)
        : new GeneralSecurityException(message.toString(), failures.get(0));
    failures.stream().filter(f -> f != all.getCause()).forEach(all::addSuppressed);
    return all;
  }

  /** The keys, never a credential. */
  @Override
  public String toString() {
    return "AWS KMS client of " + keys.stream().map(k -> k.arn().arn()).toList();
  }
}
