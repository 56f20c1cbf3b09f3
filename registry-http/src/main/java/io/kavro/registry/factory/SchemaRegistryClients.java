package io.kavro.registry.factory;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.config.RegistryApi;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryConfigException;
import io.kavro.registry.internal.cache.CachePolicy;
import io.kavro.registry.internal.cache.CachingSchemaRegistryClient;
import io.kavro.registry.internal.cache.PerSubjectClient;
import io.kavro.registry.internal.cache.SchemaFileStore;
import io.kavro.registry.internal.dialect.HttpSchemaRegistryClient;
import io.kavro.registry.internal.dialect.RegistryHttp;
import io.kavro.registry.internal.dialect.SchemaRepoClient;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
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
    SchemaRegistryClient backend = scope != null ? MockRegistries.scope(scope)
        : protocol(config, RegistryHttp.of(config, shared));
    CachePolicy policy = new CachePolicy(config.maxSchemasPerSubject(), config.latestCacheTtl(),
        config.missingIdCacheTtl(), config.missingCacheSize(), config.latestCacheSize(), config.contextsCacheSize());
    if (backend.idsPerSubject()) {
      // One cache per subject, on disk in a folder of its own: ids of two subjects never meet.
      java.util.concurrent.ExecutorService background = java.util.concurrent.Executors.newSingleThreadExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "kavro-registry-refresh");
            thread.setDaemon(true);
            return thread;
          });
      return new PerSubjectClient(backend, subject -> new CachingSchemaRegistryClient(backend.forSubject(subject),
          policy, files(config, "|subject:" + subject), com.github.benmanes.caffeine.cache.Ticker.systemTicker(),
          background), background, config.subjectsCacheSize());
    }
    return new CachingSchemaRegistryClient(backend, policy, files(config, ""));
  }

  /** An uncached client of {@code config}'s protocol on {@code http}, which the client's {@code close()} closes. */
  private static SchemaRegistryClient protocol(RegistryConfig config, RegistryHttp http) {
    return switch (config.api()) {
      case CONFLUENT -> new HttpSchemaRegistryClient(config, http);
      case SCHEMA_REPO -> new SchemaRepoClient(config, http);
    };
  }

  /** The disk cache of {@code schema.cache.dir} for the ids of {@code namespace(config) + scope}, or none. */
  private static SchemaFileStore files(RegistryConfig config, String scope) {
    return config.schemaCacheDir() == null ? null
        : new SchemaFileStore(config.schemaCacheDir(), namespace(config) + scope);
  }

  /**
   * A new, empty in-memory registry with the Confluent registry's semantics and no cache in front, for tests:
   * what {@link MockRegistries} keeps one of per {@code mock://} scope.
   */
  public static MockRegistry inMemory() {
    return MockRegistries.inMemory();
  }

  /**
   * What selects the schemas that the ids of this registry name: its protocol, its URLs, every header sent with each request
   * (Confluent Cloud's logical cluster and identity pool among them), and who asks (the basic-auth user, the
   * OAuth client, a hash of a static token, the token provider's class). Two tenants of one URL get two disk
   * caches. No secret is kept in clear: the store hashes the whole key into its folder's name.
   */
  static String namespace(RegistryConfig config) {
    StringBuilder key = new StringBuilder(String.join(",", config.urls().stream().map(RegistryConfig::redact)
        .toList()));
    new java.util.TreeMap<>(config.requestHeaders()).forEach((name, value) ->
        key.append("|header:").append(name.toLowerCase(java.util.Locale.ROOT)).append('=').append(value));
    for (String url : config.urls()) {
      okhttp3.HttpUrl parsed = okhttp3.HttpUrl.parse(url);
      if (parsed != null && !parsed.username().isEmpty()) {
        key.append("|url-user:").append(parsed.username());
      }
    }
    if (config.basicAuthUserInfo() != null) {
      String userInfo = config.basicAuthUserInfo().value();
      key.append("|user:").append(userInfo, 0, Math.max(0, userInfo.indexOf(':')));
    }
    if (config.oauth() != null) {
      key.append("|oauth:").append(config.oauth().clientId()).append('@')
          .append(RegistryConfig.redact(config.oauth().issuerEndpoint()));
    }
    if (config.bearerToken() != null) {
      key.append("|token:").append(sha256(config.bearerToken().value()));
    }
    if (config.bearerTokenProvider() != null) {
      key.append("|provider:").append(config.bearerTokenProvider().getClass().getName());
    }
    if (config.api() != RegistryApi.CONFLUENT) {
      key.append("|api:").append(config.api().configName());
    }
    return key.toString();
  }

  private static String sha256(String text) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
