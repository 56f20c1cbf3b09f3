package io.kavro.kms.hcvault;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KEK's key and its alternates ({@code encrypt.alternate.kms.key.ids}), as Confluent's clients try them: each
 * call goes to the KEK's own key, then to each alternate in turn while the previous one fails (a warning per
 * failure). When all fail, the failure is temporary ({@link KmsUnavailableException}) if any of them was, since a
 * later attempt may reach that key; otherwise it is the KEK's own key's refusal, naming every key's reason.
 * Thread-safe.
 */
final class AlternateKeysClient implements KmsClient {
  private static final Logger LOG = LoggerFactory.getLogger(AlternateKeysClient.class);

  private final List<VaultTransitClient> keys;

  /** @param keys the KEK's own key first, then the alternates in order */
  AlternateKeysClient(List<VaultTransitClient> keys) {
    this.keys = List.copyOf(keys);
  }

  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    return each("encrypt", client -> client.encrypt(plaintext));
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    return each("decrypt", client -> client.decrypt(ciphertext));
  }

  private byte[] each(String operation, Call call) throws GeneralSecurityException {
    List<GeneralSecurityException> failures = new ArrayList<>(keys.size());
    for (VaultTransitClient client : keys) {
      try {
        return call.on(client);
      } catch (GeneralSecurityException e) {
        failures.add(e);
        if (failures.size() < keys.size()) {
          LOG.warn("Vault key {} failed to {} ({}); trying the next of the {} keys", client.key(), operation,
              e.getMessage(), keys.size());
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
    String message = "none of the " + keys.size() + " Vault keys could " + operation + ": " + reasons;
    GeneralSecurityException thrown = temporary != null
        ? new KmsUnavailableException(message, temporary)
        : new GeneralSecurityException(message, failures.get(0));
    failures.stream().filter(f -> f != thrown.getCause()).forEach(thrown::addSuppressed);
    throw thrown;
  }

  /** The KEK's own key and its alternates. */
  @Override
  public String toString() {
    return "Vault transit client of " + keys.stream().map(VaultTransitClient::key).toList();
  }

  @FunctionalInterface
  private interface Call {
    byte[] on(VaultTransitClient client) throws GeneralSecurityException;
  }
}
