package io.kavro.registry.mock;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import io.kavro.registry.internal.dialect.HttpDekRegistry;
import io.kavro.registry.internal.http.OptionalApi;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

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
 *   <li>A rewrap replaces an existing version's encrypted key material, as Confluent's registry does with
 *       {@code ?rewrap=true}; its timestamp is kept (the key is as old as it was, for rotation); a version that does
 *       not exist is "key not found".</li>
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

  @Override
  public synchronized List<String> dekSubjects(String kekName, boolean deleted) {
    requireKek(kekName, "list the DEK subjects of KEK '" + kekName + "'");
    TreeSet<String> subjects = new TreeSet<>();
    deks.forEach((id, versions) -> {
      if (id.kekName().equals(kekName) && !versions.isEmpty()) {
        subjects.add(id.subject());
      }
    });
    return List.copyOf(subjects);
  }

  @Override
  public synchronized List<Integer> dekVersions(String kekName, String subject, String algorithm, boolean deleted) {
    requireKek(kekName, "list the DEK versions of KEK '" + kekName + "', subject '" + subject + "'");
    NavigableMap<Integer, Dek> versions = deks.get(new DekId(kekName, subject, orDefault(algorithm)));
    return versions == null ? List.of() : List.copyOf(new ArrayList<>(versions.keySet()));
  }

  @Override
  public synchronized Dek rewrapDek(Dek dek, String encryptedKeyMaterial) {
    String operation = "rewrap " + dek;
    Kek kek = requireKek(dek.kekName(), operation);
    NavigableMap<Integer, Dek> versions = deks.get(new DekId(dek.kekName(), dek.subject(), dek.algorithm()));
    Dek existing = versions == null ? null : versions.get(dek.version());
    if (existing == null) {
      throw new SchemaNotFoundException(operation + " failed: Key '" + dek.subject() + "' not found (mock://)", 404,
          KEY_NOT_FOUND, null, null);
    }
    if (encryptedKeyMaterial == null) {
      if (kek.shared()) {
        throw new UnsupportedRegistryApiException(operation + " failed: shared KEKs are not supported by mock://",
            -1, -1, null, null);
      }
      throw new SchemaRegistryException(operation + " failed: the KEK is not shared, so the DEK needs its "
          + "encryptedKeyMaterial (mock://)", 422, INVALID_KEY, null, null);
    }
    Dek rewrapped = new Dek(existing.kekName(), existing.subject(), existing.version(), existing.algorithm(),
        encryptedKeyMaterial, null, existing.timestamp(), existing.deleted());
    versions.put(existing.version(), rewrapped);
    return rewrapped;
  }

  private Kek requireKek(String kekName, String operation) {
    Kek kek = keks.get(kekName);
    if (kek == null) {
      throw new SchemaNotFoundException(operation + " failed: Key '" + kekName + "' not found (mock://)", 404,
          KEY_NOT_FOUND, null, null);
    }
    return kek;
  }
}
