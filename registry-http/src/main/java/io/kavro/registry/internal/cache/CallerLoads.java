package io.kavro.registry.internal.cache;

import com.github.benmanes.caffeine.cache.Cache;
import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.SchemaRegistryException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Loads the missing keys of one {@link Cache} on the caller's thread, outside every lock of the cache.
 *
 * <p>A load runs a registry request with its whole retry budget. Inside the cache's compute it would hold the
 * map's bin, and a miss for another key that hashes to the same bin would wait behind it. Here a load in
 * flight is a future in a map of its own: callers of that key wait for it, callers of any other key go on.
 * A failed load is not cached (the next call tries again) and is not logged here: the caller reports it.
 * Thread-safe.
 *
 * @param <K> the key
 * @param <V> the value
 */
final class CallerLoads<K, V> {
  private final Cache<K, V> cache;
  private final ConcurrentMap<K, CompletableFuture<V>> inFlight = new ConcurrentHashMap<>();

  CallerLoads(Cache<K, V> cache) {
    this.cache = cache;
  }

  /**
   * The cached value of {@code key}, or the one {@code loader} returns on this thread, or the one another
   * thread is loading.
   *
   * @throws RuntimeException what the loader threw, in this thread or the one that ran it
   * @throws RegistryInterruptedException if interrupted while another thread loads the key
   */
  V get(K key, Function<? super K, ? extends V> loader) {
    V value = cache.getIfPresent(key);
    if (value != null) {
      return value;
    }
    CompletableFuture<V> mine = new CompletableFuture<>();
    CompletableFuture<V> other = inFlight.putIfAbsent(key, mine);
    if (other != null) {
      return await(other, key);
    }
    try {
      value = cache.asMap().get(key); // loaded and put by a thread that finished since (not a second miss)
      if (value == null) {
        value = loader.apply(key);
        cache.put(key, value);
      }
      mine.complete(value);
      return value;
    } catch (RuntimeException | Error e) {
      mine.completeExceptionally(e);
      throw e;
    } finally {
      inFlight.remove(key, mine);
    }
  }

  private static <V> V await(CompletableFuture<V> future, Object key) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryInterruptedException("interrupted while another thread loads " + key, null, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw new SchemaRegistryException("loading " + key + " failed: " + cause, -1, -1, null, cause);
    }
  }
}
