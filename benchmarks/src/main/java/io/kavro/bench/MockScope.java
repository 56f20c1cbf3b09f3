package io.kavro.bench;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.util.UUID;

/**
 * A {@code mock://} registry scope of a benchmark's own, which counts requests so that the benchmark can prove it
 * made none while measuring.
 */
public final class MockScope implements AutoCloseable {
  private final String name = "bench-" + UUID.randomUUID();
  private long requestsAtMark;

  /** The {@code schema.registry.url} of the scope. */
  public String url() {
    return "mock://" + name;
  }

  /** The scope's registry, for a benchmark to register schemas in before it measures. */
  public MockRegistry registry() {
    return MockRegistries.scope(name);
  }

  /** Remembers the registry's request count. */
  public void mark() {
    requestsAtMark = MockRegistries.scope(name).stats().requests();
  }

  /** @throws IllegalStateException if any registry request was made since {@link #mark()} */
  public void assertNoRequestsSinceMark() {
    long now = MockRegistries.scope(name).stats().requests();
    if (now != requestsAtMark) {
      throw new IllegalStateException((now - requestsAtMark) + " registry request(s) during a measured iteration");
    }
  }

  @Override
  public void close() {
    MockRegistries.drop(name);
  }
}
