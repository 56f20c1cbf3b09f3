package io.kavro.kms.azure;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The self-describing form of a wrapped DEK that Confluent's Azure driver writes when
 * {@code encrypt.azure.key.version.save} is on: ASCII {@code azure:v1:}, the 32 hex characters of the Key Vault
 * key version that wrapped it, {@code :}, then the raw RSA-OAEP-256 ciphertext. Without the setting the raw
 * ciphertext is stored. Stateless.
 */
final class VersionedCiphertext {
  private static final byte[] PREFIX = "azure:v1:".getBytes(StandardCharsets.US_ASCII);
  private static final int VERSION_LENGTH = 32;
  private static final int HEADER_LENGTH = PREFIX.length + VERSION_LENGTH + 1;

  private VersionedCiphertext() {}

  /** Whether a key version can be written in the prefix: 32 hex characters. */
  static boolean isVersion(String version) {
    if (version == null || version.length() != VERSION_LENGTH) {
      return false;
    }
    for (int i = 0; i < VERSION_LENGTH; i++) {
      if (Character.digit(version.charAt(i), 16) < 0) {
        return false;
      }
    }
    return true;
  }

  /** The prefixed form of a ciphertext; {@code version} is one that {@link #isVersion} accepts. */
  static byte[] of(String version, byte[] ciphertext) {
    byte[] out = new byte[HEADER_LENGTH + ciphertext.length];
    System.arraycopy(PREFIX, 0, out, 0, PREFIX.length);
    byte[] versionBytes = version.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(versionBytes, 0, out, PREFIX.length, VERSION_LENGTH);
    out[HEADER_LENGTH - 1] = ':';
    System.arraycopy(ciphertext, 0, out, HEADER_LENGTH, ciphertext.length);
    return out;
  }

  /** The key version a stored DEK names, or null when it is raw ciphertext (no {@code azure:v1:} header). */
  static String versionOf(byte[] stored) {
    if (stored.length < HEADER_LENGTH
        || Arrays.mismatch(stored, 0, PREFIX.length, PREFIX, 0, PREFIX.length) != -1
        || stored[HEADER_LENGTH - 1] != ':') {
      return null;
    }
    return new String(stored, PREFIX.length, VERSION_LENGTH, StandardCharsets.US_ASCII);
  }

  /** The raw ciphertext of a stored DEK that {@link #versionOf} found a version in. */
  static byte[] ciphertextOf(byte[] stored) {
    return Arrays.copyOfRange(stored, HEADER_LENGTH, stored.length);
  }
}
