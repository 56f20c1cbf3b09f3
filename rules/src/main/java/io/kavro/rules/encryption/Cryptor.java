package io.kavro.rules.encryption;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.DeterministicAead;
import com.google.crypto.tink.subtle.AesGcmJce;
import com.google.crypto.tink.subtle.AesSiv;
import io.kavro.serde.rules.RuleException;
import java.security.GeneralSecurityException;

/**
 * One DEK's cipher, on Tink's raw primitives so that the bytes are those of Confluent's clients: AES-GCM gives
 * {@code iv(12, random) ‖ ciphertext ‖ tag(16)}, AES-SIV (RFC 5297) {@code v(16) ‖ ciphertext}, deterministic.
 * The associated data is always empty, and there is no Tink output prefix. Thread-safe; never prints its key.
 */
abstract class Cryptor {
  /** What every cipher of Confluent's encryption authenticates besides the plaintext: nothing. */
  static final byte[] EMPTY_AAD = new byte[0];

  private final DekAlgorithm algorithm;

  private Cryptor(DekAlgorithm algorithm) {
    this.algorithm = algorithm;
  }

  /**
   * The cryptor of a raw key (not key material: see {@link DekAlgorithm#cryptor}).
   *
   * @throws RuleException when Tink refuses the key
   */
  static Cryptor of(DekAlgorithm algorithm, byte[] key) {
    try {
      return switch (algorithm) {
        case AES256_GCM, AES128_GCM -> new Gcm(algorithm, new AesGcmJce(key));
        case AES256_SIV -> new Siv(new AesSiv(key));
      };
    } catch (GeneralSecurityException e) {
      throw new RuleException("cannot make an " + algorithm + " cipher: " + e.getMessage(), e);
    }
  }

  /** The algorithm. */
  final DekAlgorithm algorithm() {
    return algorithm;
  }

  /** Encrypts {@code plaintext}. */
  abstract byte[] encrypt(byte[] plaintext) throws GeneralSecurityException;

  /**
   * Decrypts {@code ciphertext}.
   *
   * @throws GeneralSecurityException when it was not made with this key, or was changed
   */
  abstract byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException;

  /** The algorithm only. */
  @Override
  public final String toString() {
    return algorithm + " cryptor";
  }

  private static final class Gcm extends Cryptor {
    private final Aead aead;

    Gcm(DekAlgorithm algorithm, Aead aead) {
      super(algorithm);
      this.aead = aead;
    }

    @Override
    byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
      return aead.encrypt(plaintext, EMPTY_AAD);
    }

    @Override
    byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
      return aead.decrypt(ciphertext, EMPTY_AAD);
    }
  }

  private static final class Siv extends Cryptor {
    private final DeterministicAead daead;

    Siv(DeterministicAead daead) {
      super(DekAlgorithm.AES256_SIV);
      this.daead = daead;
    }

    @Override
    byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
      return daead.encryptDeterministically(plaintext, EMPTY_AAD);
    }

    @Override
    byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
      return daead.decryptDeterministically(ciphertext, EMPTY_AAD);
    }
  }
}
