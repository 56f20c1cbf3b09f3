package io.kavro.kms.azure;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KEK's key and its alternates ({@code encrypt.alternate.kms.key.ids}), tried as Confluent's clients try them:
 * the KEK's own key first, then each alternate in order while the previous one fails, with a warning per failure.
 * When all fail, the failure is temporary ({@link KmsUnavailableException}) if any was, since a later attempt may
 * reach that key; otherwise it is final, with the KEK's own key's failure as cause and every key's reason in the
 * message. Thread-safe.
 */
final class AlternateKeysClient implements KmsClient {
  private static final Logger LOG = LoggerFactory.getLogger(AlternateKeysClient.class);

  private final List<KeyVaultKmsClient> keys;

  /** @param keys the KEK's own key first, then the alternates in order; two or more */
  AlternateKeysClient(List<KeyVaultKmsClient> keys) {
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
    for (KeyVaultKmsClient key : keys) {
      try {
        return call.on(key);
      } catch (GeneralSecurityException e) {
        failures.add(e);
        if (failures.size() < keys.size()) {
          LOG.warn("Azure Key Vault key {} failed to {} ({}); trying the next of the KEK's {} keys", key.keyId(),
              operation, e.getMessage(), keys.size());
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
    String message = "none of the KEK's " + keys.size() + " Azure Key Vault keys could " + operation + ": "
        + reasons;
    GeneralSecurityException thrown = temporary != null
        ? new KmsUnavailableException(message, temporary)
        : new GeneralSecurityException(message, failures.get(0));
    for (GeneralSecurityException failure : failures) {
      if (failure != thrown.getCause()) {
        thrown.addSuppressed(failure);
      }
    }
    throw thrown;
  }

  /** The key ids, in the order tried. */
  @Override
  public String toString() {
    return "Azure Key Vault client of " + keys.stream().map(KeyVaultKmsClient::keyId).toList();
  }

  @FunctionalInterface
  private interface Call {
    byte[] on(KeyVaultKmsClient key) throws GeneralSecurityException;
  }
}
