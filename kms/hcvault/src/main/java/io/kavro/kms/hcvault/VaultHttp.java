package io.kavro.kms.hcvault;

import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;

/**
 * The OkHttp client of one set of settings (its TLS stores among them), with a connection pool of its own: what the
 * driver's transit clients of those settings share ({@link io.kavro.rules.encryption.KmsResources}).
 * {@link #close()} closes its idle connections (a call still running finishes, and its connection is not kept).
 * Calls are synchronous, so OkHttp's dispatcher never starts a thread for it. Thread-safe.
 */
final class VaultHttp implements AutoCloseable {
  /** The clients made and not yet closed, in this JVM: for tests. */
  private static final AtomicInteger OPEN = new AtomicInteger();

  private final OkHttpClient client;

  VaultHttp(OkHttpClient client) {
    this.client = client;
    OPEN.incrementAndGet();
  }

  OkHttpClient client() {
    return client;
  }

  /** The clients made and not yet closed, in this JVM. */
  static int open() {
    return OPEN.get();
  }

  @Override
  public void close() {
    OPEN.decrementAndGet();
    client.connectionPool().evictAll();
  }

  /** What it is; no setting. */
  @Override
  public String toString() {
    return "Vault HTTP client";
  }
}
