/**
 * The in-memory registry behind {@code mock://scope}, for tests: {@link io.kavro.registry.mock.MockRegistries}
 * keeps one {@link io.kavro.registry.mock.MockRegistry} per scope, with the Confluent registry's semantics, data
 * contracts and an in-memory DEK registry (both package-private here).
 *
 * <p>May use: the client API and its values, {@code io.kavro.registry.contract}, and of the implementation the
 * schema rules ({@code internal.schema}) and the DEK registry's checks ({@code internal.dialect},
 * {@code internal.http}), so that it refuses what a real registry refuses. Never the caches: the factory puts
 * them in front.
 */
package io.kavro.registry.mock;
