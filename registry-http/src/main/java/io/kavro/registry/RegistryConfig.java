package io.kavro.registry;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The registry client's configuration: immutable, checked when built, and free of Kafka.
 *
 * <p>Made from a map with Confluent's key names by {@link #from(Map)} (unknown keys are ignored, so the
 * properties of a producer can be passed as they are), or in code:
 *
 * <pre>{@code
 * RegistryConfig config = RegistryConfig.builder()
 *     .urls(List.of("https://registry:8081"))
 *     .maxRetries(2)
 *     .build();
 * RegistryConfig faster = config.newBuilder().readTimeout(Duration.ofSeconds(5)).build();
 * }</pre>
 *
 * <p>Secrets are {@link Secret}s: {@link #toString()} never shows them.
 *
 * @param urls registry base URLs, in failover order (may hold user info: do not log them as they are); empty
 *     when none is configured, which {@link SchemaRegistryClients#create} refuses
 * @param maxSchemasPerSubject bound on each schema cache
 * @param latestCacheTtl how long a subject's latest version is served before a background refresh;
 *     {@link #NO_EXPIRY} (Confluent's {@code -1}, the default) to keep it
 * @param latestCacheSize bound on the latest versions kept
 * @param missingIdCacheTtl how long an unknown schema id is remembered as missing; zero when it is not
 * @param missingCacheSize bound on the ids remembered as missing
 * @param normalizeSchemas whether the registry normalizes schemas on register and lookup
 * @param maxRetries how many times a failed request is repeated
 * @param retriesWait base of the exponential backoff
 * @param retriesMaxWait cap of one backoff wait
 * @param connectTimeout timeout to connect
 * @param readTimeout timeout to read an answer
 * @param basicAuthFromUserInfo whether basic auth credentials come from {@code basicAuthUserInfo} rather than
 *     the URLs
 * @param basicAuthUserInfo {@code user:password}, or {@code null}
 * @param bearerToken a static bearer token, or {@code null}
 * @param tls trust, client keys and hostname checks
 * @param schemaCacheDir folder of the on-disk schema cache, or {@code null}
 */
public record RegistryConfig(
    List<String> urls,
    int maxSchemasPerSubject,
    Duration latestCacheTtl,
    int latestCacheSize,
    Duration missingIdCacheTtl,
    int missingCacheSize,
    boolean normalizeSchemas,
    int maxRetries,
    Duration retriesWait,
    Duration retriesMaxWait,
    Duration connectTimeout,
    Duration readTimeout,
    boolean basicAuthFromUserInfo,
    Secret basicAuthUserInfo,
    Secret bearerToken,
    Tls tls,
    Path schemaCacheDir) {

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String MAX_SCHEMAS_PER_SUBJECT_CONFIG = "max.schemas.per.subject";
  public static final String LATEST_CACHE_TTL_SEC_CONFIG = "latest.cache.ttl.sec";
  public static final String LATEST_CACHE_SIZE_CONFIG = "latest.cache.size";
  public static final String MISSING_ID_CACHE_TTL_SEC_CONFIG = "missing.id.cache.ttl.sec";
  public static final String MISSING_CACHE_SIZE_CONFIG = "missing.cache.size";
  public static final String NORMALIZE_SCHEMAS_CONFIG = "normalize.schemas";
  public static final String MAX_RETRIES_CONFIG = "max.retries";
  public static final String RETRIES_WAIT_MS_CONFIG = "retries.wait.ms";
  public static final String RETRIES_MAX_WAIT_MS_CONFIG = "retries.max.wait.ms";
  public static final String HTTP_CONNECT_TIMEOUT_MS_CONFIG = "http.connect.timeout.ms";
  public static final String HTTP_READ_TIMEOUT_MS_CONFIG = "http.read.timeout.ms";
  public static final String BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG = "basic.auth.credentials.source";
  public static final String BASIC_AUTH_USER_INFO_CONFIG = "basic.auth.user.info";
  public static final String BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG = "bearer.auth.credentials.source";
  public static final String BEARER_AUTH_TOKEN_CONFIG = "bearer.auth.token";
  public static final String SSL_PREFIX = "schema.registry.ssl.";
  public static final String SSL_TRUSTSTORE_LOCATION_CONFIG = SSL_PREFIX + "truststore.location";
  public static final String SSL_TRUSTSTORE_PASSWORD_CONFIG = SSL_PREFIX + "truststore.password";
  public static final String SSL_TRUSTSTORE_TYPE_CONFIG = SSL_PREFIX + "truststore.type";
  public static final String SSL_KEYSTORE_LOCATION_CONFIG = SSL_PREFIX + "keystore.location";
  public static final String SSL_KEYSTORE_PASSWORD_CONFIG = SSL_PREFIX + "keystore.password";
  public static final String SSL_KEYSTORE_TYPE_CONFIG = SSL_PREFIX + "keystore.type";
  public static final String SSL_KEY_PASSWORD_CONFIG = SSL_PREFIX + "key.password";
  public static final String SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG =
      SSL_PREFIX + "endpoint.identification.algorithm";
  public static final String SCHEMA_CACHE_DIR_CONFIG = "schema.cache.dir";

  /** Scheme of the in-memory registry. */
  public static final String MOCK_SCHEME = "mock://";

  /** A {@link #latestCacheTtl()} that never expires: {@code latest.cache.ttl.sec} at {@code -1}. */
  public static final Duration NO_EXPIRY = java.time.temporal.ChronoUnit.FOREVER.getDuration();

  /** Every setting at its default (Confluent's, where Confluent has the key), and no URL. */
  public static final RegistryConfig DEFAULTS = new Builder().build();

  /**
   * TLS settings for the registry's connections.
   *
   * @param truststoreLocation truststore file, or {@code null} for the JDK's trust
   * @param truststorePassword its password, or {@code null}
   * @param truststoreType {@code JKS} or {@code PKCS12}
   * @param keystoreLocation keystore with a client certificate (mutual TLS), or {@code null}
   * @param keystorePassword its password, or {@code null}
   * @param keystoreType {@code JKS} or {@code PKCS12}
   * @param keyPassword the private key's password, or {@code null} for the keystore's
   * @param verifyHostname whether the certificate must match the registry's host name
   */
  public record Tls(String truststoreLocation, Secret truststorePassword, String truststoreType,
      String keystoreLocation, Secret keystorePassword, String keystoreType, Secret keyPassword,
      boolean verifyHostname) {

    /** The JDK's trust, no client keys, host names checked. */
    public static final Tls DEFAULT = new Tls(null, null, "JKS", null, null, "JKS", null, true);

    /** Checks the store types. */
    public Tls {
      truststoreType = storeType(SSL_TRUSTSTORE_TYPE_CONFIG, truststoreType);
      keystoreType = storeType(SSL_KEYSTORE_TYPE_CONFIG, keystoreType);
    }

    private static String storeType(String key, String type) {
      String upper = Objects.requireNonNull(type, key).toUpperCase(java.util.Locale.ROOT);
      if (!upper.equals("JKS") && !upper.equals("PKCS12")) {
        throw new RegistryConfigException(key, "Invalid value " + type + " for configuration " + key
            + ": must be JKS or PKCS12");
      }
      return upper;
    }
  }

  /** Checks every value, naming the key of the first one that is wrong. */
  public RegistryConfig {
    urls = List.copyOf(urls);
    boolean mock = urls.stream().anyMatch(url -> url.startsWith(MOCK_SCHEME));
    if (mock && urls.size() > 1) {
      throw new RegistryConfigException(SCHEMA_REGISTRY_URL_CONFIG, "Invalid value "
          + String.join(",", urls.stream().map(RegistryConfig::redact).toList()) + " for configuration "
          + SCHEMA_REGISTRY_URL_CONFIG + ": a mock:// URL cannot be combined with other URLs");
    }
    if (mock && urls.get(0).length() == MOCK_SCHEME.length()) {
      throw new RegistryConfigException(SCHEMA_REGISTRY_URL_CONFIG, "Invalid value " + urls.get(0)
          + " for configuration " + SCHEMA_REGISTRY_URL_CONFIG + ": mock:// needs a scope name");
    }
    atLeast(MAX_SCHEMAS_PER_SUBJECT_CONFIG, maxSchemasPerSubject, 1);
    if (!latestCacheTtl.equals(NO_EXPIRY)) {
      atLeast(LATEST_CACHE_TTL_SEC_CONFIG, latestCacheTtl.toSeconds(), 1);
    }
    atLeast(LATEST_CACHE_SIZE_CONFIG, latestCacheSize, 1);
    atLeast(MISSING_ID_CACHE_TTL_SEC_CONFIG, missingIdCacheTtl.toSeconds(), 0);
    atLeast(MISSING_CACHE_SIZE_CONFIG, missingCacheSize, 1);
    atLeast(MAX_RETRIES_CONFIG, maxRetries, 0);
    atLeast(RETRIES_WAIT_MS_CONFIG, retriesWait.toMillis(), 0);
    atLeast(RETRIES_MAX_WAIT_MS_CONFIG, retriesMaxWait.toMillis(), 0);
    atLeast(HTTP_CONNECT_TIMEOUT_MS_CONFIG, connectTimeout.toMillis(), 1);
    atLeast(HTTP_READ_TIMEOUT_MS_CONFIG, readTimeout.toMillis(), 1);
    if (retriesMaxWait.compareTo(retriesWait) < 0) {
      throw new RegistryConfigException(RETRIES_MAX_WAIT_MS_CONFIG, "Invalid value " + retriesMaxWait.toMillis()
          + " for configuration " + RETRIES_MAX_WAIT_MS_CONFIG + ": must be at least " + RETRIES_WAIT_MS_CONFIG
          + " (" + retriesWait.toMillis() + ")");
    }
    if (basicAuthFromUserInfo && basicAuthUserInfo == null) {
      throw new RegistryConfigException(BASIC_AUTH_USER_INFO_CONFIG, BASIC_AUTH_USER_INFO_CONFIG
          + " must be set when " + BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + "=USER_INFO");
    }
    if (basicAuthUserInfo != null && basicAuthUserInfo.value().indexOf(':') < 0) {
      throw new RegistryConfigException(BASIC_AUTH_USER_INFO_CONFIG, BASIC_AUTH_USER_INFO_CONFIG
          + " must be 'user:password'");
    }
    Objects.requireNonNull(tls, "tls");
  }

  private static void atLeast(String key, long value, long min) {
    if (value < min) {
      throw new RegistryConfigException(key, "Invalid value " + value + " for configuration " + key
          + ": Value must be at least " + min);
    }
  }

  /**
   * The configuration in a map with Confluent's key names; unknown keys are ignored. Values may be strings
   * (as in a properties file) or typed (numbers, booleans, lists).
   *
   * @throws RegistryConfigException naming the key of a value that is wrong
   */
  public static RegistryConfig from(Map<String, ?> configs) {
    return RegistryConfigParser.parse(configs);
  }

  /** A builder with every setting at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder that starts from this configuration. */
  public Builder newBuilder() {
    return new Builder(this);
  }

  /** The scope name when the URL is {@code mock://scope}, otherwise {@code null}. */
  public String mockScope() {
    return urls.isEmpty() || !urls.get(0).startsWith(MOCK_SCHEME) ? null
        : urls.get(0).substring(MOCK_SCHEME.length());
  }

  /**
   * The URL with any user info ({@code user:password@}) removed, for messages and logs; works on text that
   * is not a valid URL too.
   */
  public static String redact(String url) {
    // The last '@' of all: a password may hold '/' or '@' unescaped, and a message may lose a path, not a secret.
    int scheme = url.indexOf("://");
    int at = url.lastIndexOf('@');
    return scheme >= 0 && at > scheme ? url.substring(0, scheme + 3) + url.substring(at + 1) : url;
  }

  /** Shows every setting, with the URLs' user info and the secrets hidden. */
  @Override
  public String toString() {
    return "RegistryConfig[urls=" + urls.stream().map(RegistryConfig::redact).toList()
        + ", maxSchemasPerSubject=" + maxSchemasPerSubject + ", latestCacheTtl=" + latestCacheTtl
        + ", latestCacheSize=" + latestCacheSize + ", missingIdCacheTtl=" + missingIdCacheTtl + ", missingCacheSize=" + missingCacheSize
        + ", normalizeSchemas=" + normalizeSchemas + ", maxRetries=" + maxRetries + ", retriesWait=" + retriesWait
        + ", retriesMaxWait=" + retriesMaxWait + ", connectTimeout=" + connectTimeout + ", readTimeout="
        + readTimeout + ", basicAuthFromUserInfo=" + basicAuthFromUserInfo + ", basicAuthUserInfo="
        + basicAuthUserInfo + ", bearerToken=" + bearerToken + ", tls=" + tls + ", schemaCacheDir="
        + schemaCacheDir + "]";
  }

  /** Builds a {@link RegistryConfig}; starts from the defaults or from a configuration. Not thread-safe. */
  public static final class Builder {
    private List<String> urls = List.of();
    private int maxSchemasPerSubject = 1000;
    private Duration latestCacheTtl = NO_EXPIRY;
    private int latestCacheSize = 1000;
    private Duration missingIdCacheTtl = Duration.ZERO;
    private int missingCacheSize = 10_000;
    private boolean normalizeSchemas;
    private int maxRetries = 3;
    private Duration retriesWait = Duration.ofMillis(1000);
    private Duration retriesMaxWait = Duration.ofMillis(20_000);
    private Duration connectTimeout = Duration.ofMillis(10_000);
    private Duration readTimeout = Duration.ofMillis(30_000);
    private boolean basicAuthFromUserInfo;
    private Secret basicAuthUserInfo;
    private Secret bearerToken;
    private Tls tls = Tls.DEFAULT;
    private Path schemaCacheDir;

    private Builder() {}

    private Builder(RegistryConfig config) {
      urls = config.urls;
      maxSchemasPerSubject = config.maxSchemasPerSubject;
      latestCacheTtl = config.latestCacheTtl;
      latestCacheSize = config.latestCacheSize;
      missingIdCacheTtl = config.missingIdCacheTtl;
      missingCacheSize = config.missingCacheSize;
      normalizeSchemas = config.normalizeSchemas;
      maxRetries = config.maxRetries;
      retriesWait = config.retriesWait;
      retriesMaxWait = config.retriesMaxWait;
      connectTimeout = config.connectTimeout;
      readTimeout = config.readTimeout;
      basicAuthFromUserInfo = config.basicAuthFromUserInfo;
      basicAuthUserInfo = config.basicAuthUserInfo;
      bearerToken = config.bearerToken;
      tls = config.tls;
      schemaCacheDir = config.schemaCacheDir;
    }

    public Builder urls(List<String> urls) {
      this.urls = urls;
      return this;
    }

    public Builder maxSchemasPerSubject(int maxSchemasPerSubject) {
      this.maxSchemasPerSubject = maxSchemasPerSubject;
      return this;
    }

    public Builder latestCacheTtl(Duration latestCacheTtl) {
      this.latestCacheTtl = latestCacheTtl;
      return this;
    }

    public Builder latestCacheSize(int latestCacheSize) {
      this.latestCacheSize = latestCacheSize;
      return this;
    }

    public Builder missingIdCacheTtl(Duration missingIdCacheTtl) {
      this.missingIdCacheTtl = missingIdCacheTtl;
      return this;
    }

    public Builder missingCacheSize(int missingCacheSize) {
      this.missingCacheSize = missingCacheSize;
      return this;
    }

    public Builder normalizeSchemas(boolean normalizeSchemas) {
      this.normalizeSchemas = normalizeSchemas;
      return this;
    }

    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    public Builder retriesWait(Duration retriesWait) {
      this.retriesWait = retriesWait;
      return this;
    }

    public Builder retriesMaxWait(Duration retriesMaxWait) {
      this.retriesMaxWait = retriesMaxWait;
      return this;
    }

    public Builder connectTimeout(Duration connectTimeout) {
      this.connectTimeout = connectTimeout;
      return this;
    }

    public Builder readTimeout(Duration readTimeout) {
      this.readTimeout = readTimeout;
      return this;
    }

    /** Basic auth from {@code user:password} rather than from the URLs' user info; {@code null} for the latter. */
    public Builder basicAuthUserInfo(Secret userInfo) {
      this.basicAuthFromUserInfo = userInfo != null;
      this.basicAuthUserInfo = userInfo;
      return this;
    }

    public Builder bearerToken(Secret bearerToken) {
      this.bearerToken = bearerToken;
      return this;
    }

    public Builder tls(Tls tls) {
      this.tls = tls;
      return this;
    }

    public Builder schemaCacheDir(Path schemaCacheDir) {
      this.schemaCacheDir = schemaCacheDir;
      return this;
    }

    /** Sets the credential source and the user info apart, as the map's two keys do. */
    Builder basicAuth(boolean fromUserInfo, Secret userInfo) {
      this.basicAuthFromUserInfo = fromUserInfo;
      this.basicAuthUserInfo = userInfo;
      return this;
    }

    /**
     * The configuration.
     *
     * @throws RegistryConfigException naming the key of a value that is wrong
     */
    public RegistryConfig build() {
      return new RegistryConfig(urls, maxSchemasPerSubject, latestCacheTtl, latestCacheSize, missingIdCacheTtl, missingCacheSize,
          normalizeSchemas, maxRetries, retriesWait, retriesMaxWait, connectTimeout, readTimeout,
          basicAuthFromUserInfo, basicAuthUserInfo, bearerToken, tls, schemaCacheDir);
    }
  }
}
