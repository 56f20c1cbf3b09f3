package io.kavro.registry;

import io.kavro.registry.cache.CachePolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The registry client's configuration: Confluent's key names, validated and parsed once.
 *
 * <p>Unknown keys are ignored, so the same map can configure a producer, a serializer and this client.
 * Secrets ({@code basic.auth.user.info}, {@code bearer.auth.token}, SSL passwords) are {@link Password}s and
 * never appear in {@link #toString()} or in logs.
 */
public final class RegistryConfig extends AbstractConfig {

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  private static final String SCHEMA_REGISTRY_URL_DOC = "Required. Comma-separated base URLs of the schema registry, "
      + "tried in order with failover. 'mock://<scope>' selects an in-memory registry shared by every client "
      + "of that scope in the JVM, for unit tests.";

  public static final String MAX_SCHEMAS_PER_SUBJECT_CONFIG = "max.schemas.per.subject";
  private static final String MAX_SCHEMAS_PER_SUBJECT_DOC = "Bound on each schema cache (id to schema, "
      + "schema to id, latest versions, readers and writers).";

  public static final String LATEST_CACHE_TTL_SEC_CONFIG = "latest.cache.ttl.sec";
  private static final String LATEST_CACHE_TTL_SEC_DOC = "Seconds a subject's latest version is cached. "
      + "After that it is refreshed in the background; while the registry fails, the stale value is served.";

  public static final String MISSING_ID_CACHE_TTL_SEC_CONFIG = "missing.id.cache.ttl.sec";
  private static final String MISSING_ID_CACHE_TTL_SEC_DOC = "Seconds a schema id the registry does not know "
      + "is remembered as missing, so that records carrying it fail without a request each. 0: ask every time. "
      + "Registering or looking up the schema of that id forgets it at once.";

  public static final String MISSING_CACHE_SIZE_CONFIG = "missing.cache.size";
  private static final String MISSING_CACHE_SIZE_DOC = "Bound on the schema ids remembered as missing.";

  public static final String NORMALIZE_SCHEMAS_CONFIG = "normalize.schemas";
  private static final String NORMALIZE_SCHEMAS_DOC = "Ask the registry to normalize schemas before "
      + "registering or looking them up.";

  public static final String MAX_RETRIES_CONFIG = "max.retries";
  private static final String MAX_RETRIES_DOC = "Retries after an I/O error, a timeout, HTTP 408, 429 or 5xx.";

  public static final String RETRIES_WAIT_MS_CONFIG = "retries.wait.ms";
  private static final String RETRIES_WAIT_MS_DOC = "Base of the exponential backoff between retries; each "
      + "wait is random between 0 and min(retries.max.wait.ms, retries.wait.ms * 2^retry) (full jitter).";

  public static final String RETRIES_MAX_WAIT_MS_CONFIG = "retries.max.wait.ms";
  private static final String RETRIES_MAX_WAIT_MS_DOC = "Upper bound of one backoff wait.";

  public static final String HTTP_CONNECT_TIMEOUT_MS_CONFIG = "http.connect.timeout.ms";
  private static final String HTTP_CONNECT_TIMEOUT_MS_DOC = "Timeout to open a connection to the registry.";

  public static final String HTTP_READ_TIMEOUT_MS_CONFIG = "http.read.timeout.ms";
  private static final String HTTP_READ_TIMEOUT_MS_DOC = "Timeout to read the registry's answer.";

  public static final String BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG = "basic.auth.credentials.source";
  private static final String BASIC_AUTH_CREDENTIALS_SOURCE_DOC = "Where basic auth credentials come from: "
      + "URL (the user info of each registry URL, if any) or USER_INFO (basic.auth.user.info).";

  public static final String BASIC_AUTH_USER_INFO_CONFIG = "basic.auth.user.info";
  private static final String BASIC_AUTH_USER_INFO_DOC = "'user:password' for basic auth, with "
      + "basic.auth.credentials.source=USER_INFO.";

  public static final String BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG = "bearer.auth.credentials.source";
  private static final String BEARER_AUTH_CREDENTIALS_SOURCE_DOC = "STATIC_TOKEN to send bearer.auth.token; "
      + "empty for no bearer auth. Setting bearer.auth.token alone also selects STATIC_TOKEN.";

  public static final String BEARER_AUTH_TOKEN_CONFIG = "bearer.auth.token";
  private static final String BEARER_AUTH_TOKEN_DOC = "A static bearer token sent as 'Authorization: Bearer'.";

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
  private static final String SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_DOC = "'https' verifies that the "
      + "registry's certificate matches its host name; an empty value turns the check off.";

  public static final String SCHEMA_CACHE_DIR_CONFIG = "schema.cache.dir";
  private static final String SCHEMA_CACHE_DIR_DOC = "Folder where schemas fetched by id are also kept on "
      + "disk, so that a consumer restarted while the registry is down still decodes every id it saw before. "
      + "Unset: memory only.";

  /** Scheme of the in-memory registry. */
  public static final String MOCK_SCHEME = "mock://";

  private static final ConfigDef CONFIG = define(new ConfigDef());

  private final List<String> urls;
  private final int maxSchemasPerSubject;
  private final Duration latestCacheTtl;
  private final Duration missingIdCacheTtl;
  private final int missingCacheSize;
  private final boolean normalizeSchemas;
  private final int maxRetries;
  private final Duration retriesWait;
  private final Duration retriesMaxWait;
  private final Duration connectTimeout;
  private final Duration readTimeout;

  /** Parses and validates a config map; unknown keys are ignored. */
  public RegistryConfig(Map<String, ?> originals) {
    super(CONFIG, originals, false);
    this.urls = parseUrls(getList(SCHEMA_REGISTRY_URL_CONFIG));
    this.maxSchemasPerSubject = getInt(MAX_SCHEMAS_PER_SUBJECT_CONFIG);
    this.latestCacheTtl = Duration.ofSeconds(getLong(LATEST_CACHE_TTL_SEC_CONFIG));
    this.missingIdCacheTtl = Duration.ofSeconds(getLong(MISSING_ID_CACHE_TTL_SEC_CONFIG));
    this.missingCacheSize = getInt(MISSING_CACHE_SIZE_CONFIG);
    this.normalizeSchemas = getBoolean(NORMALIZE_SCHEMAS_CONFIG);
    this.maxRetries = getInt(MAX_RETRIES_CONFIG);
    this.retriesWait = Duration.ofMillis(getLong(RETRIES_WAIT_MS_CONFIG));
    this.retriesMaxWait = Duration.ofMillis(getLong(RETRIES_MAX_WAIT_MS_CONFIG));
    this.connectTimeout = Duration.ofMillis(getLong(HTTP_CONNECT_TIMEOUT_MS_CONFIG));
    this.readTimeout = Duration.ofMillis(getLong(HTTP_READ_TIMEOUT_MS_CONFIG));
    if (retriesMaxWait.compareTo(retriesWait) < 0) {
      throw new ConfigException(RETRIES_MAX_WAIT_MS_CONFIG, retriesMaxWait.toMillis(),
          "must be at least " + RETRIES_WAIT_MS_CONFIG + " (" + retriesWait.toMillis() + ")");
    }
    if ("USER_INFO".equals(getString(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG))
        && getPassword(BASIC_AUTH_USER_INFO_CONFIG) == null) {
      throw new ConfigException(BASIC_AUTH_USER_INFO_CONFIG + " must be set when "
          + BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + "=USER_INFO");
    }
    if ("STATIC_TOKEN".equals(getString(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG))
        && getPassword(BEARER_AUTH_TOKEN_CONFIG) == null) {
      throw new ConfigException(BEARER_AUTH_TOKEN_CONFIG + " must be set when "
          + BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG + "=STATIC_TOKEN");
    }
  }

  /** Adds the registry client's keys to a {@link ConfigDef}, so that serde configs can include them. */
  public static ConfigDef define(ConfigDef def) {
    return def
        .define(SCHEMA_REGISTRY_URL_CONFIG, Type.LIST, "", Importance.HIGH, SCHEMA_REGISTRY_URL_DOC)
        .define(MAX_SCHEMAS_PER_SUBJECT_CONFIG, Type.INT, 1000, ConfigDef.Range.atLeast(1),
            Importance.LOW, MAX_SCHEMAS_PER_SUBJECT_DOC)
        .define(LATEST_CACHE_TTL_SEC_CONFIG, Type.LONG, 60L, ConfigDef.Range.atLeast(1),
            Importance.LOW, LATEST_CACHE_TTL_SEC_DOC)
        .define(MISSING_ID_CACHE_TTL_SEC_CONFIG, Type.LONG, 0L, ConfigDef.Range.atLeast(0),
            Importance.LOW, MISSING_ID_CACHE_TTL_SEC_DOC)
        .define(MISSING_CACHE_SIZE_CONFIG, Type.INT, CachePolicy.DEFAULT_MISSING_CACHE_SIZE,
            ConfigDef.Range.atLeast(1), Importance.LOW, MISSING_CACHE_SIZE_DOC)
        .define(NORMALIZE_SCHEMAS_CONFIG, Type.BOOLEAN, false, Importance.LOW, NORMALIZE_SCHEMAS_DOC)
        .define(MAX_RETRIES_CONFIG, Type.INT, 3, ConfigDef.Range.atLeast(0), Importance.LOW, MAX_RETRIES_DOC)
        .define(RETRIES_WAIT_MS_CONFIG, Type.LONG, 1000L, ConfigDef.Range.atLeast(0),
            Importance.LOW, RETRIES_WAIT_MS_DOC)
        .define(RETRIES_MAX_WAIT_MS_CONFIG, Type.LONG, 20000L, ConfigDef.Range.atLeast(0),
            Importance.LOW, RETRIES_MAX_WAIT_MS_DOC)
        .define(HTTP_CONNECT_TIMEOUT_MS_CONFIG, Type.LONG, 10000L, ConfigDef.Range.atLeast(1),
            Importance.LOW, HTTP_CONNECT_TIMEOUT_MS_DOC)
        .define(HTTP_READ_TIMEOUT_MS_CONFIG, Type.LONG, 30000L, ConfigDef.Range.atLeast(1),
            Importance.LOW, HTTP_READ_TIMEOUT_MS_DOC)
        .define(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, Type.STRING, "URL",
            ConfigDef.CaseInsensitiveValidString.in("URL", "USER_INFO"), Importance.MEDIUM,
            BASIC_AUTH_CREDENTIALS_SOURCE_DOC)
        .define(BASIC_AUTH_USER_INFO_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, BASIC_AUTH_USER_INFO_DOC)
        .define(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, Type.STRING, "",
            ConfigDef.CaseInsensitiveValidString.in("", "STATIC_TOKEN"), Importance.MEDIUM,
            BEARER_AUTH_CREDENTIALS_SOURCE_DOC)
        .define(BEARER_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, BEARER_AUTH_TOKEN_DOC)
        .define(SSL_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Truststore file for the registry's TLS certificate; JDK defaults when unset.")
        .define(SSL_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Truststore password.")
        .define(SSL_TRUSTSTORE_TYPE_CONFIG, Type.STRING, "JKS",
            ConfigDef.CaseInsensitiveValidString.in("JKS", "PKCS12"), Importance.LOW, "JKS or PKCS12.")
        .define(SSL_KEYSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Keystore file with a client certificate, for mutual TLS.")
        .define(SSL_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Keystore password.")
        .define(SSL_KEYSTORE_TYPE_CONFIG, Type.STRING, "JKS",
            ConfigDef.CaseInsensitiveValidString.in("JKS", "PKCS12"), Importance.LOW, "JKS or PKCS12.")
        .define(SSL_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "Password of the private key in the keystore; the keystore password when unset.")
        .define(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, Type.STRING, "https",
            ConfigDef.CaseInsensitiveValidString.in("https", ""), Importance.LOW,
            SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_DOC)
        .define(SCHEMA_CACHE_DIR_CONFIG, Type.STRING, null, Importance.LOW, SCHEMA_CACHE_DIR_DOC);
  }

  /** The registry client's keys alone. */
  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG);
  }

  private static List<String> parseUrls(List<String> raw) {
    List<String> urls = new ArrayList<>();
    for (String url : raw) {
      String trimmed = url.trim();
      if (!trimmed.isEmpty()) {
        urls.add(trimmed);
      }
    }
    boolean mock = urls.stream().anyMatch(u -> u.startsWith(MOCK_SCHEME));
    if (mock && urls.size() > 1) {
      throw new ConfigException(SCHEMA_REGISTRY_URL_CONFIG,
          String.join(",", urls.stream().map(RegistryConfig::redact).toList()),
          "a mock:// URL cannot be combined with other URLs");
    }
    if (mock && urls.get(0).length() == MOCK_SCHEME.length()) {
      throw new ConfigException(SCHEMA_REGISTRY_URL_CONFIG, urls.get(0), "mock:// needs a scope name");
    }
    return List.copyOf(urls);
  }

  /**
   * The registry base URLs, in failover order (they may hold user info: do not log them as is).
   *
   * @throws ConfigException if none is configured
   */
  public List<String> urls() {
    if (urls.isEmpty()) {
      throw new ConfigException("Missing required configuration \"" + SCHEMA_REGISTRY_URL_CONFIG
          + "\": at least one registry URL is needed");
    }
    return urls;
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

  /** The scope name when the URL is {@code mock://scope}, otherwise {@code null}. */
  public String mockScope() {
    String first = urls().get(0);
    return first.startsWith(MOCK_SCHEME) ? first.substring(MOCK_SCHEME.length()) : null;
  }

  public int maxSchemasPerSubject() {
    return maxSchemasPerSubject;
  }

  public Duration latestCacheTtl() {
    return latestCacheTtl;
  }

  /** How long an unknown schema id is remembered as missing; zero when it is not. */
  public Duration missingIdCacheTtl() {
    return missingIdCacheTtl;
  }

  public int missingCacheSize() {
    return missingCacheSize;
  }

  public boolean normalizeSchemas() {
    return normalizeSchemas;
  }

  public int maxRetries() {
    return maxRetries;
  }

  public Duration retriesWait() {
    return retriesWait;
  }

  public Duration retriesMaxWait() {
    return retriesMaxWait;
  }

  public Duration connectTimeout() {
    return connectTimeout;
  }

  public Duration readTimeout() {
    return readTimeout;
  }

  /** Whether credentials come from {@code basic.auth.user.info} rather than the URLs. */
  public boolean basicAuthFromUserInfo() {
    return "USER_INFO".equalsIgnoreCase(getString(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG));
  }

  /** {@code user:password}, or {@code null}. */
  public Password basicAuthUserInfo() {
    return getPassword(BASIC_AUTH_USER_INFO_CONFIG);
  }

  /** The static bearer token, or {@code null}. */
  public Password bearerToken() {
    return getPassword(BEARER_AUTH_TOKEN_CONFIG);
  }

  /** The folder of the on-disk schema cache, or {@code null}. */
  public java.nio.file.Path schemaCacheDir() {
    String dir = getString(SCHEMA_CACHE_DIR_CONFIG);
    return dir == null || dir.isBlank() ? null : java.nio.file.Path.of(dir);
  }

  /** Whether the registry's certificate must match its host name. */
  public boolean verifyHostname() {
    return !getString(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG).isEmpty();
  }
}
