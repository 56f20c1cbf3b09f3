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
 * its words shown throws a {@link GeneralSecurityException}.
 */
public interface KmsClient {
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
}
