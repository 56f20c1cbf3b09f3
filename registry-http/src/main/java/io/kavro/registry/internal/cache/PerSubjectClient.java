package io.kavro.registry.internal.cache;

import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.internal.dialect.SubjectRoutes;
import io.kavro.registry.internal.schema.SubjectNames;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.avro.Schema;

/**
 * The cached client of a registry whose ids count per subject ({@link SchemaRegistryClient#idsPerSubject()}):
 * one cache per subject, each over the registry's client of that subject's ids, so that id 0 of one subject is
 * never taken for id 0 of another, in memory or on disk. Calls that name a subject go to its cache; the others
 * (the subject list, ids without a subject) to the registry: both by {@link SubjectRoutes}, which it holds.
 *
 * <p>Thread-safe. A subject's cache is made on first use, once, and kept until {@link #close()} or until it is
 * evicted: at most {@code maxSubjects} caches are kept ({@code schema.registry.subjects.cache.size}). An evicted
 * subject's cache is dropped, not closed (its client is the registry's, which {@link #close()} closes, and its
 * background thread is this client's); the subject's next call makes a new one, which asks the registry again: an
 * evicted id is re-fetched, never answered from another subject's cache. Its counters stay in {@link #stats()} and
 * {@link #replacedSchemas()}, which only grow.
 */
public final class PerSubjectClient implements SchemaRegistryClient {
  private final SchemaRegistryClient registry;
  /** Calls naming a subject to its cache ({@link #forSubject}), the others to the registry. */
  private final SubjectRoutes routes;
  private final Function<String, SchemaRegistryClient> cacheOf;
  private final com.github.benmanes.caffeine.cache.Cache<String, SchemaRegistryClient> bySubject;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final java.util.concurrent.ExecutorService background;
  /** The counters of the evicted subjects' caches, per cache name: hits, misses, evictions, stale serves. */
  private final Map<String, LongAdder[]> evictedCounts = new java.util.concurrent.ConcurrentHashMap<>();
  /** The schemas the evicted subjects' caches replaced: see {@link #replacedSchemas()}. */
  private final LongAdder evictedReplaced = new LongAdder();

  /**
   * @param registry the registry's uncached client, which {@link #close()} closes
   * @param cacheOf makes the cache of one subject's ids, over {@code registry.forSubject(subject)}
   * @param background the caches' background thread (refreshes, disk rechecks), which {@link #close()} stops
   * @param maxSubjects how many subjects' caches are kept at most
   */
  public PerSubjectClient(SchemaRegistryClient registry, Function<String, SchemaRegistryClient> cacheOf,
      java.util.concurrent.ExecutorService background, int maxSubjects) {
    if (maxSubjects < 1) {
      throw new IllegalArgumentException("maxSubjects must be at least 1, was " + maxSubjects);
    }
    this.registry = registry;
    this.routes = new SubjectRoutes(registry, this::forSubject);
    this.cacheOf = cacheOf;
    this.background = background;
    // Evictions on the calling thread: no pool of the JVM's, and a test sees them at once.
    this.bySubject = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(maxSubjects)
        .executor(Runnable::run)
        .<String, SchemaRegistryClient>evictionListener((subject, cache, cause) -> {
          if (cache != null) {
            fold(cache);
          }
        })
        .build();
  }

  @Override
  public boolean idsPerSubject() {
    return true;
  }

  @Override
  public SchemaRegistryClient forSubject(String subject) {
    SchemaRegistryClient known = bySubject.getIfPresent(SubjectNames.present(subject, "read the ids"));
    if (known != null) {
      return known; // checked when its cache was made
    }
    SubjectNames.checked(subject, "read the ids");
    return bySubject.get(subject, name -> {
      SchemaRegistryClient cache = cacheOf.apply(name);
      // Each cache tells this client, which tells the listeners of the moment: one added before or while a subject
      // is first used hears of that subject's changes too, with no race between the two.
      cache.onChange(this::changed);
      return cache;
    });
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references,
      io.kavro.registry.contract.DataContract contract) {
    return routes.register(subject, schema, references, contract);
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    return routes.register(subject, schema, references);
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    return routes.lookup(subject, schema, references);
  }

  @Override
  public Schema schemaById(int id) {
    return routes.schemaById(id);
  }

  @Override
  public java.util.UUID guidOf(int id) {
    return routes.guidOf(id);
  }

  @Override
  public Schema schemaByGuid(java.util.UUID guid) {
    return routes.schemaByGuid(guid);
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    return routes.latestVersion(subject);
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    return routes.latestWithMetadata(subject, metadata);
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    return routes.version(subject, version);
  }

  @Override
  public List<String> subjects() {
    return routes.subjects();
  }

  @Override
  public List<Integer> versions(String subject) {
    return routes.versions(subject);
  }

  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    return routes.checkCompatibility(subject, schema);
  }

  @Override
  public CompatibilityLevel compatibility() {
    return routes.compatibility();
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    return routes.compatibilityInForce(subject);
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    routes.setCompatibility(level);
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    routes.setCompatibility(subject, level);
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    return routes.deleteSubject(subject);
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    return routes.deleteSubjectPermanently(subject);
  }

  @Override
  public int deleteVersion(String subject, int version) {
    return routes.deleteVersion(subject, version);
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    return routes.deleteVersionPermanently(subject, version);
  }

  /** The sum over the subjects' caches, those evicted included. */
  @Override
  public long replacedSchemas() {
    return evictedReplaced.sum()
        + bySubject.asMap().values().stream().mapToLong(SchemaRegistryClient::replacedSchemas).sum();
  }

  /** Keeps the counters of an evicted subject's cache, so that the sums never go down. */
  private void fold(SchemaRegistryClient cache) {
    evictedReplaced.add(cache.replacedSchemas());
    cache.stats().caches().forEach((name, stats) -> {
      LongAdder[] counts = evictedCounts.computeIfAbsent(name,
          n -> new LongAdder[] {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()});
      counts[0].add(stats.hits());
      counts[1].add(stats.misses());
      counts[2].add(stats.evictions());
      counts[3].add(stats.staleServes());
    });
  }

  /** Told of a change in any subject's cache, those made later included. */
  @Override
  public AutoCloseable onChange(Runnable listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** A subject's cache told of a change: every listener is told, each apart, as the caches tell theirs. */
  private void changed() {
    for (Runnable listener : listeners) {
      try {
        listener.run();
      } catch (RuntimeException e) {
        org.slf4j.LoggerFactory.getLogger(PerSubjectClient.class).warn(
            "A change listener of the schema registry client failed: {}", e.toString());
      }
    }
  }

  /** The registry's request counters, and each cache's counters summed over the subjects, those evicted included. */
  @Override
  public RegistryStats stats() {
    Map<String, RegistryStats.CacheStats> caches = new java.util.TreeMap<>();
    evictedCounts.forEach((name, counts) -> caches.put(name, new RegistryStats.CacheStats(counts[0].sum(),
        counts[1].sum(), counts[2].sum(), counts[3].sum())));
    for (SchemaRegistryClient cache : bySubject.asMap().values()) {
      cache.stats().caches().forEach((name, stats) -> caches.merge(name, stats, PerSubjectClient::sum));
    }
    return registry.stats().withCaches(caches);
  }

  private static RegistryStats.CacheStats sum(RegistryStats.CacheStats a, RegistryStats.CacheStats b) {
    return new RegistryStats.CacheStats(a.hits() + b.hits(), a.misses() + b.misses(), a.evictions() + b.evictions(),
        a.staleServes() + b.staleServes());
  }

  /** The subjects whose caches are kept now, for tests that check the bound. */
  java.util.Set<String> cachedSubjects() {
    bySubject.cleanUp();
    return java.util.Set.copyOf(bySubject.asMap().keySet());
  }

  /** Closes every subject's cache, then the registry's client. */
  @Override
  public void close() {
    background.shutdownNow();
    bySubject.asMap().values().forEach(SchemaRegistryClient::close);
    bySubject.invalidateAll();
    registry.close();
  }
}
