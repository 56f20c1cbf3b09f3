/**
 * The registry client's API: {@link io.kavro.registry.SchemaRegistryClient} and its values (subject versions,
 * references, compatibility, statistics), the exceptions callers catch (all under
 * {@link io.kavro.registry.SchemaRegistryException}), and the entry points that build the implementation:
 * {@link io.kavro.registry.SchemaRegistryClients}, {@link io.kavro.registry.HeldSchemas} and
 * {@link io.kavro.registry.ContractFiles}.
 *
 * <p>May use: the entry points, every registry package; the interface and its values, only
 * {@code io.kavro.registry.contract}, the exceptions and {@code io.kavro.registry.config}; the exceptions, nothing
 * of Kavro's. docs/architecture.md draws the layers; the architecture tests enforce them.
 */
package io.kavro.registry;
