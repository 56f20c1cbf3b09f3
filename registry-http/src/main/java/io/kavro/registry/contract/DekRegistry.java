package io.kavro.registry.contract;

import java.util.Optional;

/**
 * Confluent's DEK registry ({@code /dek-registry/v1}), at the schema registry's own URLs: where field encryption
 * keeps its keys. Reached through {@link io.kavro.registry.SchemaRegistryClient#dekRegistry()}, on the schema
 * registry client's transport (auth, TLS, retries, failover and fault classes alike), with its answers cached.
 *
 * <p>Only the DEK registry's own answer (its error code 40470, "Key not found") says that a key does not exist:
 * an empty lookup. Any other 404 (a proxy's page, a registry without the API: Apicurio, Karapace, Confluent
 * before 7.5) is an outage, {@link io.kavro.registry.RegistryUnavailableException}, retried and never remembered,
 * so that a transient answer never switches encryption off. Thread-safe.
 */
public interface DekRegistry {
  /** A DEK version that means "the latest". */
  int LATEST = -1;

  /**
   * The KEK of this name, or empty when the registry has none.
   *
   * @param deleted whether a soft-deleted KEK counts (a reader of old records may need it)
   */
  Optional<Kek> kek(String name, boolean deleted);

  /**
   * Creates a KEK, or returns the one that another client created first under the same name.
   *
   * @return the registry's KEK
   */
  Kek createKek(Kek kek);

  /**
   * A DEK version, or empty when the registry has none.
   *
   * @param version the version, or {@link #LATEST}
   * @param deleted whether a soft-deleted DEK counts
   */
  Optional<Dek> dek(String kekName, String subject, String algorithm, int version, boolean deleted);

  /**
   * Creates a DEK version, or returns the one that another client created first.
   *
   * @param version the version to create, from 1
   * @param encryptedKeyMaterial the key encrypted by the KEK, base64; null for a shared KEK, whose registry
   *     makes the key
   * @return the registry's DEK
   */
  Dek createDek(String kekName, String subject, String algorithm, int version, String encryptedKeyMaterial);
}
