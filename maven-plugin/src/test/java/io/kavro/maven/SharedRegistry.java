package io.kavro.maven;

import io.kavro.testkit.EmbeddedRegistry;

/**
 * The testkit's Apicurio registry (a child JVM), one for every integration test class of this JVM: started on first
 * use, stopped by its child JVM's shutdown hook when the test JVM exits. Each class takes subjects of its own
 * ({@code it-*-value} for {@link MavenBuildsIT}'s samples, {@code transitive-<uuid>-value} for
 * {@link TestCompatibilityOnApicurioIT}), and none changes the registry's global settings.
 */
final class SharedRegistry {
  private static EmbeddedRegistry registry;

  private SharedRegistry() {}

  static synchronized EmbeddedRegistry registry() {
    if (registry == null) {
      registry = EmbeddedRegistry.start(0);
    }
    return registry;
  }
}
