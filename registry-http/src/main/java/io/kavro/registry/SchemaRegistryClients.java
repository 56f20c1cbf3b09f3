package io.kavro.registry;

import io.kavro.registry.internal.cache.CachePolicy;
import io.kavro.registry.internal.cache.CachingSchemaRegistryClient;
import io.kavro.registry.internal.cache.SchemaFileStore;
import io.kavro.registry.internal.http.HttpSchemaRegistryClient;
import io.kavro.registry.mock.MockRegistries;
import java.util.Map;
import okhttp3.OkHttpClient;

/**
 * Creates {@link SchemaRegistryClient}s: the one way to get a registry client. The client is an HTTP client
 * (retries, failover, TLS, auth) behind caches, or the in-memory registry of {@code mock://scope}.
 */
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
    return create(config, null);
  }

  /**
   * A cached client whose HTTP calls share {@code shared}'s connection pool and dispatcher, with timeouts,
   * TLS, auth and retries set from {@code config}. {@link SchemaRegistryClient#close()} leaves {@code shared}
   * to its owner. For an application that already runs an {@code OkHttpClient} and wants one pool.
   *
   * @param shared the application's client, or {@code null} for a client of Kavro's own
   * @throws RegistryConfigException naming the key, when no URL is configured or one is not http(s)
   */
  public static SchemaRegistryClient create(RegistryConfig config, OkHttpClient shared) {
    if (config.urls().isEmpty()) {
      throw new RegistryConfigException(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, "Missing required "
          + "configuration \"" + RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG + "\": at least one registry URL is needed");
    }
    String scope = config.mockScope();
    SchemaRegistryClient backend = scope != null
        ? MockRegistries.scope(scope)
        : shared == null ? new HttpSchemaRegistryClient(config) : new HttpSchemaRegistryClient(config, shared);
    SchemaFileStore files = config.schemaCacheDir() == null ? null
        : new SchemaFileStore(config.schemaCacheDir(), String.join(",", redactedUrls(config)));
    CachePolicy policy = new CachePolicy(config.maxSchemasPerSubject(), config.latestCacheTtl(),
        config.missingIdCacheTtl(), config.missingCacheSize(), config.latestCacheSize());
    return new CachingSchemaRegistryClient(backend, policy, files);
  }

  private static java.util.List<String> redactedUrls(RegistryConfig config) {
    return config.urls().stream().map(RegistryConfig::redact).toList();
  }
}
