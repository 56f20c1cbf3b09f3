package io.kavro.registry.cache;

import com.github.benmanes.caffeine.cache.AsyncCache;
import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.SchemaRegistryException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * Loads a missing key of an {@link AsyncCache} on the caller's thread, outside every lock of the cache.
 *
 * <p>A load runs a registry request with its whole retry budget. Inside the cache's compute it would hold the
 * map's bin, and a miss for another key that hashes to the same bin would wait behind it. Here the cache only
 * ever holds an incomplete future for the key: callers of that key wait for it, callers of any other key go
 * on. A failed load is removed from the cache (as {@code AsyncCache} removes a failed future), so the next
 * call tries again.
 */
final class CallerLoads {
  private CallerLoads() {}

  /**
   * The cached value of {@code key}, or the one {@code loader} returns on this thread, or the one another
   * thread is loading.
   *
   * @throws RuntimeException what the loader threw, in this thread or the one that ran it
   * @throws RegistryInterruptedException if interrupted while another thread loads the key
   */
  static <K, V> V get(AsyncCache<K, V> cache, K key, Function<? super K, ? extends V> loader) {
    CompletableFuture<V> present = cache.getIfPresent(key);
    if (present == null) {
      CompletableFuture<V> mine = new CompletableFuture<>();
      present = cache.asMap().putIfAbsent(key, mine);
      if (present == null) {
        try {
          V value = loader.apply(key);
          mine.complete(value);
          return value;
        } catch (RuntimeException | Error e) {
          mine.completeExceptionally(e);
          throw e;
        }
      }
    }
    return await(present, key);
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
