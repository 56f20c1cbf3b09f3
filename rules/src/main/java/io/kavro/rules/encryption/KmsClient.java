package io.kavro.rules.encryption;

import java.security.GeneralSecurityException;

/**
 * One KEK of a KMS, as field encryption uses it: it encrypts and decrypts DEKs (their key material), with empty
 * associated data. Thread-safe; never prints key material or credentials.
 */
public interface KmsClient {
  /**
   * Encrypts a DEK's key material with the KEK.
   *
   * @throws GeneralSecurityException when the KMS refuses
   */
  byte[] encrypt(byte[] plaintext) throws GeneralSecurityException;

  /**
   * Decrypts a DEK's key material with the KEK.
   *
   * @throws GeneralSecurityException when the ciphertext was not made by this KEK, or the KMS refuses
   */
  byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException;
}
