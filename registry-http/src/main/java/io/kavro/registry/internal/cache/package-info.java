/**
 * The caches in front of every registry client: {@code CachingSchemaRegistryClient} (ids, versions, latest with
 * refresh-after-write, remembered misses), {@code CachingDekRegistry}, the per-subject clients of registries whose
 * ids count per subject ({@code PerSubjectClient}), and the disk store of {@code schema.cache.dir}
 * ({@code SchemaFileStore}). Not exported.
 *
 * <p>May use: the client API, contracts, settings, {@code internal.http} (the contract JSON the disk store
 * writes), {@code internal.schema} and {@code internal.dialect} (the client base it forwards to); it wraps
 * whatever client the factory gives it.
 */
package io.kavro.registry.internal.cache;
