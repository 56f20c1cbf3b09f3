/**
 * The registry client's entry points, which build the implementation from settings:
 * {@link io.kavro.registry.factory.SchemaRegistryClients} (a caching client for {@code http(s)://}, schema-repo or
 * {@code mock://} URLs), {@link io.kavro.registry.factory.HeldSchemas} (schema texts as the client parses them) and
 * {@link io.kavro.registry.factory.ContractFiles} (data contracts read from JSON files).
 *
 * <p>The top layer: may use every registry package, and none uses it.
 */
package io.kavro.registry.factory;
