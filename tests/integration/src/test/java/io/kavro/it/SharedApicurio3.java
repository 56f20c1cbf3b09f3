package io.kavro.it;

import io.kavro.testkit.EmbeddedRegistry;

/**
 * Apicurio Registry 3 ({@link EmbeddedRegistry#startApicurio3}, a child JVM of Java 21 or later), one for every test
 * class of this JVM that uses it: started on first use, stopped by the registry's shutdown hook when the test JVM
 * exits. Its users take subjects and topics of their own.
 */
final class SharedApicurio3 {
  private static EmbeddedRegistry registry;

  private SharedApicurio3() {}

  static synchronized EmbeddedRegistry registry() {
    if (registry == null) {
      registry = EmbeddedRegistry.startApicurio3(0);
    }
    return registry;
  }
}
