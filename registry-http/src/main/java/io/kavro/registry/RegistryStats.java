package io.kavro.registry;

/**
 * Counters of a {@link SchemaRegistryClient}, for tests and metrics. All counts are since creation.
 *
 * @param cacheHits lookups answered from the client's caches
 * @param cacheMisses lookups that had to ask the registry
 * @param requests requests sent to the registry (HTTP requests, or calls into a {@code mock://} registry)
 * @param retries requests repeated after a retriable failure
 * @param failovers switches from one registry URL to the next
 */
public record RegistryStats(long cacheHits, long cacheMisses, long requests, long retries, long failovers) {
  /** All zero. */
  public static final RegistryStats EMPTY = new RegistryStats(0, 0, 0, 0, 0);

  /** These counters with the cache counts replaced. */
  public RegistryStats withCache(long hits, long misses) {
    return new RegistryStats(hits, misses, requests, retries, failovers);
  }
}
