/**
 * The HTTP transport: requests ({@code RestRequest}), sending with retry and exponential backoff
 * ({@code RetryPolicy}) and failover between the configured URLs ({@code RestTransport}, {@code Endpoint}), the
 * mapping of answers to exceptions ({@code ErrorMapping}, a dialect's own reading in {@code RegistryDialect}), the
 * optional APIs a registry may lack ({@code OptionalApi}), and the JSON of answers, schemas with references and
 * data contracts ({@code JsonBodies}, {@code RegisteredSchemaParser}, {@code ContractJson}). Not exported.
 *
 * <p>May use: {@code internal.schema}, the client API, contracts, settings and the exceptions. Never TLS or OAuth
 * (the client it is given carries them) or a dialect.
 */
package io.kavro.registry.internal.http;
