package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import java.util.Collection;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A bounded cache of the record path (routes by schema id, write plans by schema) whose reads leave no trace: a read
 * is one lookup in Caffeine's map, without the access bookkeeping (read buffers, their drain, the frequency sketch,
 * the reordering of the LRU lists) that a read of a Caffeine cache otherwise records. On thousands of schemas read
 * in turn that bookkeeping touched memory of its own on every record and ran the cache's maintenance beside the
 * readers. Eviction, beyond the bound, follows what was written: entries built often (evicted and built again)
 * stay, an entry used once goes first. Thread-safe.
 */
final class QuietCache<K, V> {
  private final Cache<K, V> cache;
  private final Policy<K, V> policy;

  QuietCache(long maximumSize) {
    this.cache = Caffeine.newBuilder().maximumSize(maximumSize).build();
    this.policy = cache.policy();
  }

  /** The value of {@code key}, or {@code null}; recorded nowhere. */
  V getIfPresent(K key) {
    return policy.getIfPresentQuietly(key);
  }

  /** The value of {@code key}, built by {@code build} once when absent, as {@link Cache#get} does. */
  V get(K key, Function<? super K, ? extends V> build) {
    return cache.get(key, build);
  }

  /** Computes {@code key}'s value from the one it has ({@code null}: none), atomically, as {@code Map.compute}. */
  V compute(K key, BiFunction<? super K, ? super V, ? extends V> remap) {
    return cache.asMap().compute(key, remap);
  }

  void put(K key, V value) {
    cache.put(key, value);
  }

  /** Puts {@code value} unless {@code key} has one: the value that stands then, or {@code null} for this one. */
  V putIfAbsent(K key, V value) {
    return cache.asMap().putIfAbsent(key, value);
  }

  /** Removes {@code key}'s entry if it is {@code value} (the same instance or an equal one), as {@code Map.remove}. */
  void remove(K key, V value) {
    cache.asMap().remove(key, value);
  }

  void invalidateAll() {
    cache.invalidateAll();
  }

  /** The values, for a change that concerns them all. */
  Collection<V> values() {
    return cache.asMap().values();
  }

  /** The count of entries, once pending evictions are done. */
  long size() {
    cache.cleanUp();
    return cache.estimatedSize();
  }
}
