package io.kavro.rules.encryption;

import io.kavro.serde.rules.RuleException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Locale;

/**
 * The DEK algorithms of Confluent's field encryption ({@code encrypt.dek.algorithm}), with the format of their key
 * material: a serialized Tink key proto ({@code AesGcmKey} or {@code AesSivKey}, version 0 left out), which is what
 * the DEK registry holds in {@code keyMaterial} and, encrypted by the KEK, in {@code encryptedKeyMaterial}.
 */
enum DekAlgorithm {
  /** AES-256-GCM, the default: {@code 1A 20 ‖ 32-byte key} ({@code AesGcmKey.key_value}, field 3). */
  AES256_GCM(0x1A, 32),
  /** AES-128-GCM: {@code 1A 10 ‖ 16-byte key}. */
  AES128_GCM(0x1A, 16),
  /** AES-256-SIV, deterministic: {@code 12 40 ‖ 64-byte key} ({@code AesSivKey.key_value}, field 2). */
  AES256_SIV(0x12, 64);

  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte tag;
  private final int keySize;

  DekAlgorithm(int tag, int keySize) {
    this.tag = (byte) tag;
    this.keySize = keySize;
  }

  /**
   * The algorithm a rule names; AES256_GCM when it names none.
   *
   * @throws RuleException when the name is none of the three
   */
  static DekAlgorithm named(String name) {
    if (name == null || name.isBlank()) {
      return AES256_GCM;
    }
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new RuleException("unknown DEK algorithm '" + name + "' (encrypt.dek.algorithm): expected AES256_GCM, "
          + "AES128_GCM or AES256_SIV");
    }
  }

  /** The size of the raw key in bytes. */
  int keySize() {
    return keySize;
  }

  /** New random key material: the key proto of a fresh key. */
  byte[] generateKeyMaterial() {
    byte[] key = new byte[keySize];
    RANDOM.nextBytes(key);
    try {
      return keyMaterial(key);
    } finally {
      Arrays.fill(key, (byte) 0);
    }
  }

  /** The key proto of {@code key}. */
  byte[] keyMaterial(byte[] key) {
    if (key.length != keySize) {
      throw new IllegalArgumentException(this + " takes a " + keySize + "-byte key, not " + key.length);
    }
    byte[] material = new byte[2 + keySize];
    material[0] = tag;
    material[1] = (byte) keySize;
    System.arraycopy(key, 0, material, 2, keySize);
    return material;
  }

  /**
   * The raw key held by key material.
   *
   * @throws RuleException when the material is not this algorithm's key proto (its header or size is wrong); the
   *     message gives the size found and never a byte of the material
   */
  byte[] key(byte[] material) {
    if (material == null || material.length != 2 + keySize || material[0] != tag || material[1] != (byte) keySize) {
      // never a byte of what was found: a raw key, or another algorithm's, starts with key bytes
      String found = material == null ? "none" : material.length + " bytes"
          + (material.length == 2 + keySize ? " with another header" : "");
      throw new RuleException("the DEK's key material is not an " + this + " key: expected "
          + (2 + keySize) + " bytes with header " + String.format("%02X %02X", tag, keySize) + ", found " + found);
    }
    return Arrays.copyOfRange(material, 2, material.length);
  }

  /**
   * The cryptor of key material.
   *
   * @throws RuleException when the material is not this algorithm's key proto
   */
  Cryptor cryptor(byte[] material) {
    byte[] key = key(material);
    try {
      return Cryptor.of(this, key);
    } finally {
      Arrays.fill(key, (byte) 0);
    }
  }
}
