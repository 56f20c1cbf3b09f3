/**
 * The registry protocols: Confluent's REST API with Apicurio's extensions ({@code HttpSchemaRegistryClient}, the
 * DEK registry's {@code HttpDekRegistry}, the compatibility reasons a registry gives), the AVRO-1124 schema-repo
 * ({@code SchemaRepoClient}, {@code SchemaRepoDialect}, {@code SubjectRoutes}), and {@code RegistryHttp}, the
 * HTTP side every protocol shares, set up once from the settings. A new dialect is a class here, a constant of
 * {@code RegistryApi} and its case in {@code SchemaRegistryClients}. Not exported.
 *
 * <p>May use: {@code internal.auth}, {@code internal.http}, {@code internal.schema}, the client API, contracts and
 * settings. Never the caches or the in-memory registry.
 */
package io.kavro.registry.internal.dialect;
