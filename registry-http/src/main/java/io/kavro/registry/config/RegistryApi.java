package io.kavro.registry.config;

import java.util.Arrays;
import java.util.List;

/**
 * The protocol a registry speaks ({@code schema.registry.api}). Each one is a class that speaks through the shared
 * HTTP side (retries, failover, TLS, auth) and sits behind the same cache and disk cache: a new protocol is a new
 * class, a constant here, and its case in {@link io.kavro.registry.factory.SchemaRegistryClients}.
 */
public enum RegistryApi {
  /** Confluent's REST API, which Confluent's registry, Apicurio's ccompat API, Karapace and Redpanda speak. */
  CONFLUENT("confluent"),
  /**
   * The AVRO-1124 schema repository (schema-repo 0.1.x), whose ids count per subject: see {@link
   * io.kavro.registry.SchemaRegistryClient#idsPerSubject()}.
   */
  SCHEMA_REPO("schema-repo");

  private final String configName;

  RegistryApi(String configName) {
    this.configName = configName;
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

  @Override
  public String toString() {
    return configName;
  }
}
