/**
 * Data contracts as a registry holds them beside a schema version: {@link io.kavro.registry.contract.Metadata},
 * {@link io.kavro.registry.contract.RuleSet} and its {@link io.kavro.registry.contract.Rule}s, and the DEK
 * registry ({@link io.kavro.registry.contract.DekRegistry}) that field encryption keeps its keys in. The rules
 * themselves run in the serde ({@code io.kavro.serde.rules}) and in {@code kavro-rules}.
 *
 * <p>May use: the exceptions of {@code io.kavro.registry} only (a DEK registry that lacks an operation says so).
 */
package io.kavro.registry.contract;
