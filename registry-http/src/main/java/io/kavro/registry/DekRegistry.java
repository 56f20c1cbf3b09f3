package io.kavro.registry;

import io.kavro.registry.contract.Dek;
import io.kavro.registry.contract.Kek;
import java.util.List;
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

  /**
   * The subjects that have DEKs under a KEK ({@code GET /dek-registry/v1/keks/{kek}/deks}), as the registry lists
   * them; empty when there are none. A KEK the registry does not know is its "key not found"
   * ({@link io.kavro.registry.SchemaNotFoundException}, error code 40470).
   *
   * @param deleted whether subjects whose DEKs are all soft-deleted count
   */
  default List<String> dekSubjects(String kekName, boolean deleted) {
    throw unsupported("list the DEK subjects of KEK '" + kekName + "'");
  }

  /**
   * The versions of one subject's DEKs of one algorithm under a KEK
   * ({@code GET /dek-registry/v1/keks/{kek}/deks/{subject}/versions?algorithm=}), ascending; empty when there are
   * none.
   *
   * @param algorithm {@code AES128_GCM}, {@code AES256_GCM} or {@code AES256_SIV}; null for the registry's default
   * @param deleted whether soft-deleted versions count
   */
  default List<Integer> dekVersions(String kekName, String subject, String algorithm, boolean deleted) {
    throw unsupported("list the DEK versions of KEK '" + kekName + "', subject '" + subject + "'");
  }

  /**
   * Replaces the wrapping of an existing DEK version, its key material unchanged
   * ({@code POST /dek-registry/v1/keks/{kek}/deks/{subject}?rewrap=true}, as Confluent's {@code RewrapDeks} sends
   * it): the registry overwrites the version instead of answering 409. The DEK's soft-deleted state is sent as it
   * is, so a rewrap never undeletes.
   *
   * @param dek the DEK version as the registry holds it
   * @param encryptedKeyMaterial the same key material, wrapped by the KEK's current KMS key version, base64; null
   *     for a shared KEK, whose registry re-wraps the key itself
   * @return the registry's DEK after the rewrap
   */
  default Dek rewrapDek(Dek dek, String encryptedKeyMaterial) {
    throw unsupported("rewrap " + dek);
  }

  private UnsupportedRegistryApiException unsupported(String operation) {
    return new UnsupportedRegistryApiException(operation + " failed: " + getClass().getSimpleName()
        + " does not implement it", -1, -1, null, null);
  }
}
