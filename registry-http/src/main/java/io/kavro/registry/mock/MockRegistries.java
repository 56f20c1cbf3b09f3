package io.kavro.registry.mock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JVM-wide {@code mock://scope} registries, for users' unit tests only.
 *
 * <p>This is the one place with static state in Kavro, and it is reached only when a {@code mock://} URL is
 * configured. Every client configured with the same scope shares one {@link MockRegistry}, so that a serializer
 * and a deserializer configured separately see the same schemas. Call {@link #drop(String)} between tests to start
 * afresh.
 */
public final class MockRegistries {
  private static final Map<String, MockRegistry> SCOPES = new ConcurrentHashMap<>();

  private MockRegistries() {}

  /** The registry of a scope, created on first use. */
  public static MockRegistry scope(String scope) {
    return SCOPES.computeIfAbsent(scope, s -> new InMemorySchemaRegistry());
  }

  /**
   * A new, empty in-memory registry in no scope, with the Confluent registry's semantics and no cache in front: what
   * this class keeps one of per scope. {@link io.kavro.registry.factory.SchemaRegistryClients#inMemory()} gives the
   * same.
   */
  public static MockRegistry inMemory() {
    return new InMemorySchemaRegistry();
  }

  /** Forgets a scope's registry; the next use of the scope starts empty. */
  public static void drop(String scope) {
    SCOPES.remove(scope);
  }
}
