package io.kavro.registry.internal.cache;

import io.kavro.registry.config.RegistryConfig;
import java.time.Duration;

/**
 * How much {@link CachingSchemaRegistryClient} keeps, and for how long.
 *
 * @param maxSize bound on each cache (id to schema, schema to id, schema to version, latest versions)
 * @param latestTtl how long a subject's latest version is served before a background refresh;
 *     {@link RegistryConfig#NO_EXPIRY} to keep it until it is evicted
 * @param missingIdTtl how long a schema id the registry answered "not found" for is remembered as missing;
 *     {@link Duration#ZERO} to ask the registry again every time
 * @param missingCacheSize bound on the ids remembered as missing
 * @param latestCacheSize bound on the latest versions kept (per subject, and per subject and metadata)
 * @param contextsCacheSize bound on the schema contexts whose caches are kept
 */
public record CachePolicy(int maxSize, Duration latestTtl, Duration missingIdTtl, int missingCacheSize,
    int latestCacheSize, int contextsCacheSize) {
  /** The default bound on ids remembered as missing (Confluent's client has the same). */
  static final int DEFAULT_MISSING_CACHE_SIZE = 10_000;

  /** Validates the bounds. */
  public CachePolicy {
    if (maxSize < 1) {
      throw new IllegalArgumentException("maxSize must be at least 1, was " + maxSize);
    }
    if (latestTtl.isNegative() || latestTtl.isZero()) {
      throw new IllegalArgumentException("latestTtl must be positive, was " + latestTtl);
    }
    if (missingIdTtl.isNegative()) {
      throw new IllegalArgumentException("missingIdTtl must not be negative, was " + missingIdTtl);
    }
    if (latestCacheSize < 1) {
      throw new IllegalArgumentException("latestCacheSize must be at least 1, was " + latestCacheSize);
    }
    if (contextsCacheSize < 1) {
      throw new IllegalArgumentException("contextsCacheSize must be at least 1, was " + contextsCacheSize);
    }
    if (missingCacheSize < 1) {
      throw new IllegalArgumentException("missingCacheSize must be at least 1, was " + missingCacheSize);
    }
  }

  /** With as many contexts kept as schemas. */
  public CachePolicy(int maxSize, Duration latestTtl, Duration missingIdTtl, int missingCacheSize,
      int latestCacheSize) {
    this(maxSize, latestTtl, missingIdTtl, missingCacheSize, latestCacheSize, maxSize);
  }

  /** With as many latest versions and contexts kept as schemas. */
  public CachePolicy(int maxSize, Duration latestTtl, Duration missingIdTtl, int missingCacheSize) {
    this(maxSize, latestTtl, missingIdTtl, missingCacheSize, maxSize, maxSize);
  }

  /** {@code maxSize} and {@code latestTtl}, with unknown ids not remembered. */
  static CachePolicy of(int maxSize, Duration latestTtl) {
    return new CachePolicy(maxSize, latestTtl, Duration.ZERO, DEFAULT_MISSING_CACHE_SIZE);
  }

  /** Whether latest versions are refreshed at all: false for {@link RegistryConfig#NO_EXPIRY}. */
  boolean latestExpires() {
    return !latestTtl.equals(RegistryConfig.NO_EXPIRY);
  }

  /** Whether unknown ids are remembered at all. */
  boolean remembersMissingIds() {
    return !missingIdTtl.isZero();
  }
}
