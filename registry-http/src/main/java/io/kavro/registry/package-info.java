/**
 * The registry client's API: {@link io.kavro.registry.SchemaRegistryClient} and its values (subject versions,
 * references, compatibility, statistics), the DEK registry interface {@link io.kavro.registry.DekRegistry}, and the
 * exceptions callers catch (all under {@link io.kavro.registry.SchemaRegistryException}). Clients are built by
 * {@code io.kavro.registry.factory}.
 *
 * <p>May use: {@code io.kavro.registry.contract} (the values a registry holds beside a schema) and
 * {@code io.kavro.registry.config}. docs/modules-and-tests.md draws the layers; ArchitectureTest enforces them.
 */
package io.kavro.registry;
