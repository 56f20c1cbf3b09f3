package io.kavro.registry.internal.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.apache.avro.Schema;

/**
 * A bounded cache keyed by (subject, schema): an identity fast path for a {@link Schema} instance seen
 * before, then the schema's text, so that equal schemas parsed twice share one registry call.
 *
 * <p>The identity map holds schemas weakly: a schema that the application drops is forgotten. Concurrent
 * misses for one key make one call to the loader, on the calling thread ({@link CallerLoads}). Thread-safe.
 */
final class SchemaKeyedCache<V> {
  private record Key(String subject, String schemaText) {}

  private final Cache<Schema, Map<String, V>> byInstance;
  private final Cache<Key, V> byText;
  private final CallerLoads<Key, V> byTextLoads;
  private final int maxSubjectsPerInstance;
  private final LongAdder hits;
  private final LongAdder misses;

  SchemaKeyedCache(int maxSize) {
    this.byInstance = Caffeine.newBuilder().weakKeys().maximumSize(maxSize).build();
    this.byText = Caffeine.newBuilder().maximumSize(maxSize).recordStats().build();
    this.byTextLoads = new CallerLoads<>(byText);
    this.maxSubjectsPerInstance = maxSize;
    this.hits = new LongAdder();
    this.misses = new LongAdder();
  }

  /** Hits and misses of {@link #get}, and the entries dropped to stay within the bound. */
  io.kavro.registry.RegistryStats.CacheStats stats() {
    return new io.kavro.registry.RegistryStats.CacheStats(hits.sum(), misses.sum(), byText.stats().evictionCount(), 0);
  }

  V get(String subject, Schema schema, Supplier<V> loader) {
    Map<String, V> bySubject = byInstance.get(schema, s -> new ConcurrentHashMap<>());
    V value = bySubject.get(subject);
    if (value != null) {
      hits.increment();
      return value;
    }
    boolean[] loaded = {false};
    value = byTextLoads.get(new Key(subject, schema.toString()), key -> {
      loaded[0] = true;
      return loader.get();
    });
    (loaded[0] ? misses : hits).increment();
    if (bySubject.size() < maxSubjectsPerInstance) {
      bySubject.put(subject, value);
    }
    return value;
  }

  /** Forgets every entry of a subject (after it is deleted). */
  void invalidateSubject(String subject) {
    byText.asMap().keySet().removeIf(key -> key.subject().equals(subject));
    byInstance.asMap().values().forEach(map -> map.remove(subject));
  }

  long size() {
    byText.cleanUp();
    return byText.estimatedSize();
  }
}
