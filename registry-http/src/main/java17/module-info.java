/**
 * Kavro's schema registry client: the {@link io.kavro.registry.SchemaRegistryClient} interface, its value types,
 * exceptions and settings, the factory {@link io.kavro.registry.SchemaRegistryClients}, and the scopes of the
 * in-memory registry behind {@code mock://}.
 *
 * <p>The HTTP transport, the cache, the schema rules and the in-memory registry itself live package-private in
 * {@code io.kavro.registry}, beside the factory that builds them: no other package, and no sibling module, names
 * them.
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
  exports io.kavro.registry.contract;
  exports io.kavro.registry.mock;
}
