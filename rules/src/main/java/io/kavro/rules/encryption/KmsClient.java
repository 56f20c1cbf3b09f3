package io.kavro.rules.encryption;

import java.security.GeneralSecurityException;

/**
 * One KEK of a KMS, as field encryption uses it: it encrypts and decrypts DEKs (their key material), with empty
 * associated data. Thread-safe; never prints key material or credentials.
 *
 * <p>Failures come in two kinds, and a driver must tell them apart: a {@link KmsUnavailableException} when the
 * KMS could not answer for now (throttled, timed out, unreachable, a server error), which the serde retries and
 * never passes over; any other {@link GeneralSecurityException} when the KMS refused for good (a wrong key, a
 * ciphertext not made by this KEK, access denied), which the rule's {@code onFailure} action handles.
 *
 * <p>An unchecked exception that escapes a call (an SDK's own timeout or throttle, an
 * {@link java.io.UncheckedIOException}) is classified the same way: unavailable for now when it is, or is caused
 * by, a {@link KmsUnavailableException}, an {@link java.io.IOException} or a Kafka {@code RetriableException};
 * else the KMS's refusal. Its message is left out of the rule's (an SDK's may say anything): a driver that wants
 * its words shown throws a {@link GeneralSecurityException}. A {@link io.kavro.serde.rules.RuleDeploymentException}
 * is the exception: a setting or credentials of this deployment that the KMS refuses (an AWS profile that no profile
 * file has, a wrong secret), which the rule gets with its type and message kept, wrapped with the KEK and the DEK
 * it was for; an alternate key is still tried on it (another region's or vault's credentials may differ).
 *
 * <p>Lifecycle: the encryption executor that asked a {@link KmsDriver} for the client owns it, keeps it for as long
 * as the serde lives (one per KEK URL and settings), and {@link #close() closes} it once when the serde closes; no
 * call follows. A client that holds an SDK client, connections or threads releases them there (or its share of
 * them, when its driver shares them among clients: {@link KmsResources}); the default closes nothing.
 */
public interface KmsClient extends AutoCloseable {
  /**
   * Encrypts a DEK's key material with the KEK.
   *
   * @throws KmsUnavailableException when the KMS could not answer for now
   * @throws GeneralSecurityException when the KMS refuses
   */
  byte[] encrypt(byte[] plaintext) throws GeneralSecurityException;

  /**
   * Decrypts a DEK's key material with the KEK.
   *
   * @throws KmsUnavailableException when the KMS could not answer for now
   * @throws GeneralSecurityException when the ciphertext was not made by this KEK, or the KMS refuses
   */
  byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException;

  /**
   * Releases what the client holds (an SDK client, its connections and threads), or its share of what its driver's
   * clients share. Called once, by the owner, when the serde closes; a second call should do nothing. Never throws:
   * a failure to release is the driver's to log. Does nothing by default.
   */
  @Override
  default void close() {}
}
