package io.kavro.registry;

import io.kavro.registry.contract.Dek;
import io.kavro.registry.contract.DekRegistry;
import io.kavro.registry.contract.Kek;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The DEK registry of a {@code mock://} scope, with the semantics of Confluent's: one per
 * {@link InMemorySchemaRegistry}, so shared by every client of the scope and gone when the scope is dropped.
 *
 * <ul>
 *   <li>Creating a KEK or a DEK version that exists returns the one there (what Confluent's clients get after
 *       their 409 and a lookup).</li>
 *   <li>A DEK needs its KEK (else "key not found", 404 / 40470) and, the KEK not being shared, its encrypted key
 *       material (else 422 / 42271, as Confluent's registry answers).</li>
 *   <li>DEK versions start at 1; a DEK's timestamp is its creation time on this registry's clock.</li>
 *   <li>A shared KEK's DEKs would be made and decrypted by the registry, through the KMS: not done here, so a
 *       DEK without material under a shared KEK is {@link UnsupportedRegistryApiException}.</li>
 *   <li>Without an algorithm, a DEK is {@code AES256_GCM}, the registry's default.</li>
 * </ul>
 *
 * <p>Nothing is ever deleted, so {@code deleted} lookups answer what the others do. Thread-safe: each operation
 * holds this registry's lock.
 */
final class InMemoryDekRegistry implements DekRegistry {
  private static final String DEFAULT_ALGORITHM = "AES256_GCM";
  private static final int KEY_NOT_FOUND = OptionalApi.DEK_KEY_NOT_FOUND;
  private static final int INVALID_KEY = 42271;

  private final Clock clock;
  private final Map<String, Kek> keks = new HashMap<>();
  private final Map<DekId, NavigableMap<Integer, Dek>> deks = new HashMap<>();

  InMemoryDekRegistry() {
    this(Clock.systemUTC());
  }

  /** With the clock that stamps DEKs. */
  InMemoryDekRegistry(Clock clock) {
    this.clock = clock;
  }

  /** The DEKs of one KEK, subject and algorithm, by version. */
  private record DekId(String kekName, String subject, String algorithm) {}

  @Override
  public synchronized Optional<Kek> kek(String name, boolean deleted) {
    return Optional.ofNullable(keks.get(name));
  }

  @Override
  public synchronized Kek createKek(Kek kek) {
    return keks.computeIfAbsent(kek.name(), name -> new Kek(name, kek.kmsType(), kek.kmsKeyId(), kek.kmsProps(),
        kek.doc(), kek.shared(), false));
  }

  @Override
  public synchronized Optional<Dek> dek(String kekName, String subject, String algorithm, int version,
      boolean deleted) {
    NavigableMap<Integer, Dek> versions = deks.get(new DekId(kekName, subject, orDefault(algorithm)));
    if (versions == null || versions.isEmpty()) {
      return Optional.empty();
    }
    return Optional.ofNullable(version == LATEST ? versions.lastEntry().getValue() : versions.get(version));
  }

  @Override
  public synchronized Dek createDek(String kekName, String subject, String algorithm, int version,
      String encryptedKeyMaterial) {
    String operation = "create DEK version " + version + " of KEK '" + kekName + "', subject '" + subject + "'";
    HttpDekRegistry.checkedVersion(version, kekName, subject);
    Kek kek = keks.get(kekName);
    if (kek == null) {
      throw new SchemaNotFoundException(operation + " failed: Key '" + kekName + "' not found (mock://)", 404,
          KEY_NOT_FOUND, null, null);
    }
    NavigableMap<Integer, Dek> versions = deks.computeIfAbsent(new DekId(kekName, subject, orDefault(algorithm)),
        id -> new TreeMap<>());
    Dek existing = versions.get(version);
    if (existing != null) {
      return existing;
    }
    if (encryptedKeyMaterial == null) {
      if (kek.shared()) {
        throw new UnsupportedRegistryApiException(operation + " failed: shared KEKs are not supported by mock:// "
            + "(the registry would make the key through the KMS); use a KEK with shared=false", -1, -1, null, null);
      }
      throw new SchemaRegistryException(operation + " failed: the KEK is not shared, so the DEK needs its "
          + "encryptedKeyMaterial (mock://)", 422, INVALID_KEY, null, null);
    }
    Dek created = new Dek(kekName, subject, version, orDefault(algorithm), encryptedKeyMaterial, null,
        clock.millis(), false);
    versions.put(version, created);
    return created;
  }

  private static String orDefault(String algorithm) {
    return algorithm == null ? DEFAULT_ALGORITHM : algorithm;
  }
}
