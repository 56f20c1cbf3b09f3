package io.kavro.kms.gcp;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KEK's key and its alternates ({@code encrypt.alternate.kms.key.ids}), as Confluent's clients try them: each
 * call goes to the KEK's own key, then to each alternate in order while the previous one fails (a warning per
 * failure). When all fail, the failure is temporary ({@link KmsUnavailableException}) if any was, since a later
 * attempt may reach that key; otherwise final, naming every key's reason. Thread-safe.
 */
final class AlternateKeys implements KmsClient {
  private static final Logger LOG = LoggerFactory.getLogger(AlternateKeys.class);

  private final List<CloudKmsKey> keys;

  /** @param keys the KEK's own key first, then the alternates in order */
  AlternateKeys(List<CloudKmsKey> keys) {
    this.keys = List.copyOf(keys);
  }

  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    return each("encrypt", key -> key.encrypt(plaintext));
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    return each("decrypt", key -> key.decrypt(ciphertext));
  }

  private byte[] each(String operation, Call call) throws GeneralSecurityException {
    List<GeneralSecurityException> failures = new ArrayList<>(keys.size());
    for (CloudKmsKey key : keys) {
      try {
        return call.on(key);
      } catch (GeneralSecurityException e) {
        failures.add(e);
        if (failures.size() < keys.size()) {
          LOG.warn("{}; trying the next of the {} keys", e.getMessage(), keys.size());
        }
      }
    }
    StringBuilder reasons = new StringBuilder();
    KmsUnavailableException temporary = null;
    for (GeneralSecurityException failure : failures) {
      reasons.append(reasons.length() == 0 ? "" : "; ").append(failure.getMessage());
      if (temporary == null && failure instanceof KmsUnavailableException unavailable) {
        temporary = unavailable;
      }
    }
    String message = "none of the " + keys.size() + " Cloud KMS keys could " + operation + ": " + reasons;
    GeneralSecurityException thrown = temporary != null
        ? new KmsUnavailableException(message, temporary) : new GeneralSecurityException(message, failures.get(0));
    failures.stream().filter(f -> f != thrown.getCause()).forEach(thrown::addSuppressed);
    throw thrown;
  }

  /** The keys' names. */
  @Override
  public String toString() {
    return "Cloud KMS client of " + keys.stream().map(CloudKmsKey::key).toList();
  }

  @FunctionalInterface
  private interface Call {
    byte[] on(CloudKmsKey key) throws GeneralSecurityException;
  }
}
