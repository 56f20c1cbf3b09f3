package io.kavro.registry.contract;

import java.util.Objects;

/**
 * A data-encryption key as the DEK registry holds it: one per KEK, subject, algorithm and version.
 *
 * @param kekName the KEK that encrypts it
 * @param subject the subject whose fields it encrypts
 * @param version its version, from 1; a new one on rotation ({@code encrypt.dek.expiry.days})
 * @param algorithm {@code AES256_GCM}, {@code AES128_GCM} or {@code AES256_SIV}
 * @param encryptedKeyMaterial the key, encrypted by the KEK, base64; null when the registry has none yet
 * @param keyMaterial the key in clear, base64, which only a shared KEK's registry answers; null otherwise
 * @param timestamp when it was made, in milliseconds since the epoch (for rotation)
 * @param deleted whether it is soft-deleted
 */
public record Dek(String kekName, String subject, int version, String algorithm, String encryptedKeyMaterial,
    String keyMaterial, long timestamp, boolean deleted) {
  /** Checks the components. */
  public Dek {
    Objects.requireNonNull(kekName, "kekName");
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(algorithm, "algorithm");
  }

  /** Without key material. */
  @Override
  public String toString() {
    return "DEK of KEK '" + kekName + "', subject '" + subject + "', version " + version + " (" + algorithm + ")";
  }
}
