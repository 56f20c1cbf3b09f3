package io.kavro.rules.encryption;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link KmsDriver}'s clients share: one resource (an SDK client with its HTTP client, connections and
 * threads) per key (the settings it was made with: a region and credentials, say), made when the first client asks
 * for it and closed when the last client that {@link #acquire acquired} it {@link Lease#close() releases} it. A
 * driver shares a resource only where that is safe: when nothing a client sets on it (a key id, a timeout) differs
 * between the clients that share it.
 *
 * <pre>{@code
 * private final KmsResources<SdkKey, SdkClient> sdks = new KmsResources<>("AWS KMS SDK client");
 *
 * public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
 *   KmsResources.Lease<SdkClient> sdk = sdks.acquire(new SdkKey(region, configs), key -> build(key));
 *   return new KeyClient(kekUrl, sdk);   // its close() calls sdk.close()
 * }
 * }</pre>
 * Thread-safe. A resource is made outside any lock; two clients that ask for a new key at once may both make one,
 * and the one made second is closed at once.
 *
 * @param <K> the key: a value with {@code equals} and {@code hashCode} (a record, a map of settings); kept in memory
 *     only, never printed
 * @param <R> the resource
 */
public final class KmsResources<K, R extends AutoCloseable> {
  private static final Logger LOG = LoggerFactory.getLogger(KmsResources.class);

  private final String what;
  private final Map<K, Shared<R>> byKey = new HashMap<>();

  /**
   * No resource yet.
   *
   * @param what the resources' name for the log ("AWS KMS SDK client"), when one fails to close
   */
  public KmsResources(String what) {
    this.what = what;
  }

  /**
   * A share of the resource of {@code key}: the one already open, else a new one from {@code factory}.
   *
   * @throws RuntimeException what {@code factory} throws, with nothing acquired
   */
  public Lease<R> acquire(K key, Function<? super K, ? extends R> factory) {
    synchronized (this) {
      Shared<R> shared = byKey.get(key);
      if (shared != null) {
        shared.leases++;
        return new Lease<>(this, key, shared);
      }
    }
    R made = factory.apply(key);
    Shared<R> kept;
    synchronized (this) {
      kept = byKey.computeIfAbsent(key, k -> new Shared<>(made));
      kept.leases++;
    }
    if (kept.resource != made) {
      close(made); // another client made the same one first
    }
    return new Lease<>(this, key, kept);
  }

  /** How many resources are open: made and not yet released by all their clients. */
  public synchronized int open() {
    return byKey.size();
  }

  private void release(K key, Shared<R> shared) {
    synchronized (this) {
      if (--shared.leases > 0) {
        return;
      }
      byKey.remove(key, shared);
    }
    close(shared.resource);
  }

  private void close(R resource) {
    try {
      resource.close();
    } catch (Exception e) {
      LOG.warn("cannot close a {} ({}); its connections are left to the JVM", what, e.getClass().getName());
    }
  }

  /** A resource and how many clients hold it. Guarded by its {@link KmsResources}. */
  private static final class Shared<R> {
    final R resource;
    int leases;

    Shared(R resource) {
      this.resource = resource;
    }
  }

  /**
   * One client's share of a resource: {@link #get()} while the client lives; {@link #close()} when it closes (once
   * counts: a second call does nothing).
   *
   * @param <R> the resource
   */
  public static final class Lease<R extends AutoCloseable> implements AutoCloseable {
    private final KmsResources<?, R> owner;
    private final Object key;
    private final Shared<R> shared;
    private final AtomicBoolean released = new AtomicBoolean();

    private <K> Lease(KmsResources<K, R> owner, K key, Shared<R> shared) {
      this.owner = owner;
      this.key = key;
      this.shared = shared;
    }

    /** The resource. */
    public R get() {
      return shared.resource;
    }

    /** Whether this share was released. */
    public boolean isReleased() {
      return released.get();
    }

    /** Releases this share; the last share of a resource closes it. A second call does nothing. */
    @Override
    public void close() {
      if (released.compareAndSet(false, true)) {
        releaseFrom(owner);
      }
    }

    @SuppressWarnings("unchecked")
    private <K> void releaseFrom(KmsResources<K, R> resources) {
      resources.release((K) key, shared);
    }

    /** What the resource is, never its key (settings may hold secrets). */
    @Override
    public String toString() {
      return "a share of a " + owner.what + (released.get() ? " (released)" : "");
    }
  }
}
