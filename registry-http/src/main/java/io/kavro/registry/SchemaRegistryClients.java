package io.kavro.registry;

import io.kavro.registry.cache.CachePolicy;
import io.kavro.registry.cache.CachingSchemaRegistryClient;
import io.kavro.registry.cache.SchemaFileStore;
import io.kavro.registry.http.HttpSchemaRegistryClient;
import io.kavro.registry.mock.MockRegistries;
import java.util.Map;

/** Creates {@link SchemaRegistryClient}s from a configuration map. */
public final class SchemaRegistryClients {
  private SchemaRegistryClients() {}

  /**
   * A cached client for the registry named by {@code schema.registry.url}: an HTTP client for
   * {@code http(s)://} URLs, or the scope's in-memory registry for {@code mock://scope}. See
   * {@link RegistryConfig} for the keys; unknown keys are ignored.
   *
   * @throws RegistryConfigException naming the key, for a missing or invalid value
   */
  public static SchemaRegistryClient create(Map<String, ?> configs) {
    return create(RegistryConfig.from(configs));
  }

  /**
   * A cached client for a configuration.
   *
   * @throws RegistryConfigException naming the key, when no URL is configured or one is not http(s)
   */
  public static SchemaRegistryClient create(RegistryConfig config) {
    if (config.urls().isEmpty()) {
      throw new RegistryConfigException(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, "Missing required "
          + "configuration \"" + RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG + "\": at least one registry URL is needed");
    }
    String scope = config.mockScope();
    SchemaRegistryClient backend = scope != null
        ? MockRegistries.scope(scope)
        : new HttpSchemaRegistryClient(config);
    SchemaFileStore files = config.schemaCacheDir() == null ? null
        : new SchemaFileStore(config.schemaCacheDir(), String.join(",", redactedUrls(config)));
    CachePolicy policy = new CachePolicy(config.maxSchemasPerSubject(), config.latestCacheTtl(),
        config.missingIdCacheTtl(), config.missingCacheSize());
    return new CachingSchemaRegistryClient(backend, policy, files);
  }

  private static java.util.List<String> redactedUrls(RegistryConfig config) {
    return config.urls().stream().map(RegistryConfig::redact).toList();
  }
}
