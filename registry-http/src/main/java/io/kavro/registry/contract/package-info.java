/**
 * Data contracts as a registry holds them beside a schema version: {@link io.kavro.registry.contract.Metadata},
 * {@link io.kavro.registry.contract.RuleSet} and its {@link io.kavro.registry.contract.Rule}s, and the keys of the
 * DEK registry ({@link io.kavro.registry.contract.Dek}, {@link io.kavro.registry.contract.Kek}) that field
 * encryption keeps its keys in; the DEK registry itself is {@link io.kavro.registry.DekRegistry}. The rules
 * themselves run in the serde ({@code io.kavro.serde.rules}) and in {@code kavro-rules}.
 *
 * <p>May use: nothing of Kavro's (plain values).
 */
package io.kavro.registry.contract;
