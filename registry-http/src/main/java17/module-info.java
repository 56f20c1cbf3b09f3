/**
 * Kavro's schema registry client: the {@link io.kavro.registry.SchemaRegistryClient} interface, its value types
 * and exceptions, the factory {@link io.kavro.registry.factory.SchemaRegistryClients}, its settings
 * ({@code io.kavro.registry.config}), data contracts ({@code io.kavro.registry.contract}) and the scopes of the
 * in-memory registry behind {@code mock://} ({@code io.kavro.registry.mock}).
 *
 * <p>The implementation lives in {@code io.kavro.registry.internal.*}, one package per concept (HTTP transport,
 * retry and failover; TLS and OAuth; the registry dialects; the caches and the disk store; schema texts), and is
 * not exported: no sibling module names it, so no qualified export is needed. A sibling that comes to need an
 * internal package gets it as {@code exports io.kavro.registry.internal.x to io.kavro.y;}, which the architecture
 * tests read and enforce on the class path too.
 */
module io.kavro.registry {
  // Schema, the type the whole client interface speaks in. Avro declares this name in its manifest
  // (Automatic-Module-Name), 1.11.4 and 1.12.2 alike, so it holds for every Avro users bring.
  requires transitive org.apache.avro;
  requires okhttp3;
  requires com.github.benmanes.caffeine;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.kavro.registry;
  exports io.kavro.registry.config;
  exports io.kavro.registry.contract;
  exports io.kavro.registry.factory;
  exports io.kavro.registry.mock;
}
