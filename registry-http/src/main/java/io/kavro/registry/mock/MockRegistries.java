package io.kavro.registry.mock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JVM-wide {@code mock://scope} registries, for users' unit tests only.
 *
 * <p>This is the one place with static state in Kavro, and it is reached only when a {@code mock://} URL is
 * configured. Every client configured with the same scope shares one {@link InMemorySchemaRegistry}, so that
 * a serializer and a deserializer configured separately see the same schemas. Call {@link #drop(String)}
 * between tests to start afresh.
 */
public final class MockRegistries {
  private static final Map<String, InMemorySchemaRegistry> SCOPES = new ConcurrentHashMap<>();

  private MockRegistries() {}

  /** The registry of a scope, created on first use. */
  public static InMemorySchemaRegistry scope(String scope) {
    return SCOPES.computeIfAbsent(scope, s -> new InMemorySchemaRegistry());
  }

  /** Forgets a scope's registry; the next use of the scope starts empty. */
  public static void drop(String scope) {
    SCOPES.remove(scope);
  }
}
