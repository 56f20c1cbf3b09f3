package io.kavro.examples;

/**
 * Where the examples find Kafka and the schema registry.
 *
 * @param bootstrapServers Kafka's {@code bootstrap.servers}
 * @param registryUrl Kavro's {@code schema.registry.url}
 */
public record Endpoints(String bootstrapServers, String registryUrl) {}
