package io.kavro.registry.contract;

import java.util.Map;
import java.util.Objects;

/**
 * A key-encryption key as the DEK registry knows it: a name for a key that lives in a KMS. The key itself never
 * leaves the KMS (or, for a shared KEK, the registry).
 *
 * @param name the KEK's name ({@code encrypt.kek.name})
 * @param kmsType the KMS ({@code local-kms}, {@code aws-kms}, ...)
 * @param kmsKeyId the key's id in the KMS
 * @param kmsProps the KMS driver's properties; may hold secrets, so never printed
 * @param doc what it is for, or null
 * @param shared whether the registry may use the KMS itself, and hands out DEKs in clear
 * @param deleted whether the KEK is soft-deleted
 */
public record Kek(String name, String kmsType, String kmsKeyId, Map<String, String> kmsProps, String doc,
    boolean shared, boolean deleted) {
  /** Checks the components and copies the properties. */
  public Kek {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kmsType, "kmsType");
    Objects.requireNonNull(kmsKeyId, "kmsKeyId");
    kmsProps = Map.copyOf(kmsProps == null ? Map.of() : kmsProps);
  }

  /** Without the KMS properties, which may hold secrets. */
  @Override
  public String toString() {
    return "KEK '" + name + "' (" + kmsType + ", shared " + shared + (deleted ? ", deleted" : "") + ")";
  }
}
