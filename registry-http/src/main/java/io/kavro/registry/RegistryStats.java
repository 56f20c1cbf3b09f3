package io.kavro.registry;

import java.util.Map;

/**
 * Counters of a {@link SchemaRegistryClient}, for tests and metrics. All counts are since creation.
 *
 * @param requests requests sent to the registry (HTTP requests, or calls into a {@code mock://} registry)
 * @param errors calls that failed for good: after their retries, or at once for a refusal such as "not found" or a
 *     401 or 403; not the registry's own answer that it lacks an optional API, nor the answers to the client's own
 *     check that the core API answers (a 401 or a 403 there says the registry is there, and fails no call; an outage
 *     there, which fails the call, counts once)
 * @param retries requests repeated after a retriable failure
 * @param failovers switches from one registry URL to the next
 * @param requestNanos time spent in requests, in total
 * @param maxRequestNanos the longest request
 * @param caches counters of each cache of the client, by name: {@code schemas-by-id}, {@code latest},
 *     {@code registrations}, {@code lookups}, {@code schemas-by-guid}
 */
public record RegistryStats(long requests, long errors, long retries, long failovers, long requestNanos,
    long maxRequestNanos, Map<String, CacheStats> caches) {

  /** All zero, no cache. */
  public static final RegistryStats EMPTY = new RegistryStats(0, 0, 0, 0, 0, 0, Map.of());

  /**
   * One cache's counters.
   *
   * @param hits lookups it answered
   * @param misses lookups that had to ask the registry
   * @param evictions entries it dropped to stay within its bound
   * @param staleServes answers it gave from an entry whose refresh had failed (the registry was down)
   */
  public record CacheStats(long hits, long misses, long evictions, long staleServes) {}

  /** Copies the map. */
  public RegistryStats {
    caches = Map.copyOf(caches);
  }

  /** Hits of every cache. */
  public long cacheHits() {
    return caches.values().stream().mapToLong(CacheStats::hits).sum();
  }

  /** Misses of every cache. */
  public long cacheMisses() {
    return caches.values().stream().mapToLong(CacheStats::misses).sum();
  }

  /** These counters with the caches' counters replaced. */
  public RegistryStats withCaches(Map<String, CacheStats> caches) {
    return new RegistryStats(requests, errors, retries, failovers, requestNanos, maxRequestNanos, caches);
  }
}
