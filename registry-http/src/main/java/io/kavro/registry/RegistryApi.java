package io.kavro.registry;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The protocol a registry speaks ({@code schema.registry.api}). Each one is a class that speaks through the shared
 * HTTP side (retries, failover, TLS, auth) and sits behind the same cache and disk cache: a new protocol is a new
 * class and a constant here.
 */
public enum RegistryApi {
  /** Confluent's REST API, which Confluent's registry, Apicurio's ccompat API, Karapace and Redpanda speak. */
  CONFLUENT("confluent", HttpSchemaRegistryClient::new),
  /**
   * The AVRO-1124 schema repository (schema-repo 0.1.x), whose ids count per subject: see {@link
   * SchemaRegistryClient#idsPerSubject()}.
   */
  SCHEMA_REPO("schema-repo", SchemaRepoClient::new);

  private final String configName;
  private final BiFunction<RegistryConfig, RegistryHttp, SchemaRegistryClient> protocol;

  RegistryApi(String configName, BiFunction<RegistryConfig, RegistryHttp, SchemaRegistryClient> protocol) {
    this.configName = configName;
    this.protocol = protocol;
  }

  /** Its value of {@code schema.registry.api}. */
  public String configName() {
    return configName;
  }

  /** The protocol named {@code name} (any case). */
  static RegistryApi fromConfigName(String name) {
    return Arrays.stream(values()).filter(api -> api.configName.equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> new RegistryConfigException(RegistryConfig.SCHEMA_REGISTRY_API_CONFIG, "Invalid value "
            + name + " for configuration " + RegistryConfig.SCHEMA_REGISTRY_API_CONFIG + ": one of "
            + configNames()));
  }

  static List<String> configNames() {
    return Arrays.stream(values()).map(RegistryApi::configName).toList();
  }

  /** An uncached client of this protocol on {@code http}, which the client's {@code close()} closes. */
  SchemaRegistryClient client(RegistryConfig config, RegistryHttp http) {
    return protocol.apply(config, http);
  }

  @Override
  public String toString() {
    return configName;
  }
}
