package io.kavro.registry.internal.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.CacheLoader;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DEK registry of {@link CachingSchemaRegistryClient}: another one's answers, cached in bounded caches
 * ({@link CachePolicy#maxSize()} entries each).
 *
 * <ul>
 *   <li>A DEK version (not {@link #LATEST}) never changes: kept until evicted.</li>
 *   <li>A KEK and a latest DEK may change (a KEK made shared, a DEK rotated by another producer): refreshed as a
 *       subject's latest schema is, after {@code latest.cache.ttl.sec} ({@link CachePolicy#latestTtl()}) and
 *       never when it is -1, the default, as Confluent's DEK client keeps them by default. The stale answer is
 *       served while the refresh runs in the background, and kept when the refresh fails.</li>
 *   <li>An absent answer is kept for {@link #MISSING_TTL} only: a reader of records whose key is missing does
 *       not ask once per record, and a key that another client creates is soon found.</li>
 *   <li>A create puts what the registry answered in the cache, and forgets the latest DEK of its subject; so does
 *       a rewrap, whose version holds a new wrapping.</li>
 *   <li>Listings (a KEK's subjects, a subject's versions) are never cached: only the rewrap tool asks.</li>
 * </ul>
 *
 * <p>Misses are loaded on the calling thread, one load per key at a time ({@link CallerLoads}). Thread-safe.
 */
final class CachingDekRegistry implements DekRegistry {
  private static final Logger log = LoggerFactory.getLogger(CachingDekRegistry.class);

  /** How long the answer "no such key" is kept. */
  static final Duration MISSING_TTL = Duration.ofSeconds(5);

  private final Supplier<DekRegistry> delegate;
  private final Cache<KekKey, Optional<Kek>> keks;
  private final CallerLoads<KekKey, Optional<Kek>> kekLoads;
  private final Cache<DekKey, Optional<Dek>> latestDeks;
  private final CallerLoads<DekKey, Optional<Dek>> latestLoads;
  private final Cache<DekKey, Optional<Dek>> deks;
  private final CallerLoads<DekKey, Optional<Dek>> dekLoads;

  /**
   * @param delegate the registry asked on a miss; asked for on each miss, since a client without one throws
   *     {@link io.kavro.registry.UnsupportedRegistryApiException} there
   * @param background where refreshes run
   */
  CachingDekRegistry(Supplier<DekRegistry> delegate, CachePolicy policy, Ticker ticker, Executor background) {
    this.delegate = delegate;
    this.keks = refreshed(policy, ticker, background, this::fetch);
    this.kekLoads = new CallerLoads<>(keks);
    this.latestDeks = refreshed(policy, ticker, background, this::fetch);
    this.latestLoads = new CallerLoads<>(latestDeks);
    this.deks = Caffeine.newBuilder().maximumSize(policy.maxSize()).ticker(ticker)
        .expireAfter(new MissingExpiry<DekKey, Dek>()).build();
    this.dekLoads = new CallerLoads<>(deks);
  }

  /** A cache whose present answers are refreshed after the policy's latest TTL, if any. */
  private static <K, V> LoadingCache<K, Optional<V>> refreshed(CachePolicy policy, Ticker ticker, Executor background,
      Function<K, Optional<V>> fetch) {
    Caffeine<K, Optional<V>> builder = Caffeine.newBuilder().maximumSize(policy.maxSize()).ticker(ticker)
        .executor(background).expireAfter(new MissingExpiry<K, V>());
    if (policy.latestExpires()) {
      builder.refreshAfterWrite(policy.latestTtl());
    }
    return builder.build(new CacheLoader<K, Optional<V>>() {
      @Override
      public Optional<V> load(K key) {
        return fetch.apply(key);
      }

      @Override
      public Optional<V> reload(K key, Optional<V> stale) {
        try {
          return load(key);
        } catch (SchemaRegistryException e) {
          log.warn("Could not refresh {}; still using the one held: {}", key, e.getMessage());
          return stale;
        }
      }
    });
  }

  @Override
  public Optional<Kek> kek(String name, boolean deleted) {
    return kekLoads.get(new KekKey(name, deleted), this::fetch);
  }

  private Optional<Kek> fetch(KekKey key) {
    return delegate.get().kek(key.name(), key.deleted());
  }

  @Override
  public Kek createKek(Kek kek) {
    Kek created = delegate.get().createKek(kek);
    keks.put(new KekKey(created.name(), false), Optional.of(created));
    keks.put(new KekKey(created.name(), true), Optional.of(created));
    return created;
  }

  @Override
  public Optional<Dek> dek(String kekName, String subject, String algorithm, int version, boolean deleted) {
    DekKey key = new DekKey(kekName, subject, algorithm, version, deleted);
    return version == LATEST ? latestLoads.get(key, this::fetch) : dekLoads.get(key, this::fetch);
  }

  private Optional<Dek> fetch(DekKey key) {
    return delegate.get().dek(key.kekName(), key.subject(), key.algorithm(), key.version(), key.deleted());
  }

  @Override
  public Dek createDek(String kekName, String subject, String algorithm, int version, String encryptedKeyMaterial) {
    try {
      Dek created = delegate.get().createDek(kekName, subject, algorithm, version, encryptedKeyMaterial);
      deks.put(new DekKey(kekName, subject, algorithm, version, false), Optional.of(created));
      deks.put(new DekKey(kekName, subject, algorithm, version, true), Optional.of(created));
      return created;
    } finally {
      // A new version, or a conflict that says there is one: the latest held may be older.
      latestDeks.invalidate(new DekKey(kekName, subject, algorithm, LATEST, false));
      latestDeks.invalidate(new DekKey(kekName, subject, algorithm, LATEST, true));
    }
  }

  @Override
  public List<String> dekSubjects(String kekName, boolean deleted) {
    return delegate.get().dekSubjects(kekName, deleted);
  }

  @Override
  public List<Integer> dekVersions(String kekName, String subject, String algorithm, boolean deleted) {
    return delegate.get().dekVersions(kekName, subject, algorithm, deleted);
  }

  @Override
  public Dek rewrapDek(Dek dek, String encryptedKeyMaterial) {
    try {
      return delegate.get().rewrapDek(dek, encryptedKeyMaterial);
    } finally {
      // Forgotten rather than replaced: a soft-deleted DEK must stay absent from lookups without deleted ones.
      deks.invalidate(new DekKey(dek.kekName(), dek.subject(), dek.algorithm(), dek.version(), false));
      deks.invalidate(new DekKey(dek.kekName(), dek.subject(), dek.algorithm(), dek.version(), true));
      latestDeks.invalidate(new DekKey(dek.kekName(), dek.subject(), dek.algorithm(), LATEST, false));
      latestDeks.invalidate(new DekKey(dek.kekName(), dek.subject(), dek.algorithm(), LATEST, true));
    }
  }

  /** A KEK lookup. Its name only: {@link #toString()} goes into log lines. */
  private record KekKey(String name, boolean deleted) {
    @Override
    public String toString() {
      return "KEK '" + name + "'";
    }
  }

  /** A DEK lookup; {@code version} may be {@link #LATEST}. */
  private record DekKey(String kekName, String subject, String algorithm, int version, boolean deleted) {
    @Override
    public String toString() {
      return (version == LATEST ? "the latest DEK" : "DEK version " + version) + " of KEK '" + kekName
          + "', subject '" + subject + "'";
    }
  }

  /** Keeps an absent answer for {@link #MISSING_TTL}, a present one until it is evicted (or refreshed). */
  private static final class MissingExpiry<K, V> implements Expiry<K, Optional<V>> {
    private static final long MISSING_NANOS = MISSING_TTL.toNanos();

    @Override
    public long expireAfterCreate(K key, Optional<V> value, long currentTime) {
      return value.isPresent() ? Long.MAX_VALUE : MISSING_NANOS;
    }

    @Override
    public long expireAfterUpdate(K key, Optional<V> value, long currentTime, long currentDuration) {
      return expireAfterCreate(key, value, currentTime);
    }

    @Override
    public long expireAfterRead(K key, Optional<V> value, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
