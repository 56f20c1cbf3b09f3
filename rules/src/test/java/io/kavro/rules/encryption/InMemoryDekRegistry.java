package io.kavro.rules.encryption;

import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** A DEK registry in memory, for tests: counts its calls, and stamps DEKs with a clock the test sets. */
final class InMemoryDekRegistry implements DekRegistry {
  final Map<String, Kek> keks = new ConcurrentHashMap<>();
  final Map<String, Dek> deks = new ConcurrentHashMap<>();
  final AtomicInteger calls = new AtomicInteger();
  final AtomicLong now = new AtomicLong(System.currentTimeMillis());

  @Override
  public Optional<Kek> kek(String name, boolean deleted) {
    calls.incrementAndGet();
    return Optional.ofNullable(keks.get(name)).filter(k -> deleted || !k.deleted());
  }

  @Override
  public Kek createKek(Kek kek) {
    calls.incrementAndGet();
    return keks.computeIfAbsent(kek.name(), n -> kek);
  }

  @Override
  public Optional<Dek> dek(String kekName, String subject, String algorithm, int version, boolean deleted) {
    calls.incrementAndGet();
    int v = version == LATEST ? latestVersion(kekName, subject, algorithm) : version;
    return Optional.ofNullable(deks.get(key(kekName, subject, algorithm, v))).filter(d -> deleted || !d.deleted());
  }

  @Override
  public Dek createDek(String kekName, String subject, String algorithm, int version, String encryptedKeyMaterial) {
    calls.incrementAndGet();
    return deks.computeIfAbsent(key(kekName, subject, algorithm, version),
        k -> new Dek(kekName, subject, version, algorithm, encryptedKeyMaterial, null, now.get(), false));
  }

  /** The DEK versions stored for a subject, in no order. */
  java.util.List<Integer> versions(String kekName, String subject, String algorithm) {
    String prefix = kekName + "/" + subject + "/" + algorithm + "/";
    return deks.keySet().stream().filter(k -> k.startsWith(prefix))
        .map(k -> Integer.parseInt(k.substring(prefix.length()))).sorted().toList();
  }

  private int latestVersion(String kekName, String subject, String algorithm) {
    return versions(kekName, subject, algorithm).stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  private static String key(String kekName, String subject, String algorithm, int version) {
    return kekName + "/" + subject + "/" + algorithm + "/" + version;
  }
}
