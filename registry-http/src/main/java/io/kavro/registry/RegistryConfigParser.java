package io.kavro.registry;

import static io.kavro.registry.RegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG;
import static io.kavro.registry.RegistryConfig.BASIC_AUTH_USER_INFO_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_CLIENT_ID_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_CLIENT_SECRET_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_IDENTITY_POOL_ID_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_LOGICAL_CLUSTER_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_SCOPE_CLAIM_NAME_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_SCOPE_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_SUB_CLAIM_NAME_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_TOKEN_CONFIG;
import static io.kavro.registry.RegistryConfig.HTTP_CONNECT_TIMEOUT_MS_CONFIG;
import static io.kavro.registry.RegistryConfig.HTTP_READ_TIMEOUT_MS_CONFIG;
import static io.kavro.registry.RegistryConfig.LATEST_CACHE_SIZE_CONFIG;
import static io.kavro.registry.RegistryConfig.LATEST_CACHE_TTL_SEC_CONFIG;
import static io.kavro.registry.RegistryConfig.MAX_RETRIES_CONFIG;
import static io.kavro.registry.RegistryConfig.MAX_SCHEMAS_PER_SUBJECT_CONFIG;
import static io.kavro.registry.RegistryConfig.MISSING_CACHE_SIZE_CONFIG;
import static io.kavro.registry.RegistryConfig.MISSING_ID_CACHE_TTL_SEC_CONFIG;
import static io.kavro.registry.RegistryConfig.NORMALIZE_SCHEMAS_CONFIG;
import static io.kavro.registry.RegistryConfig.RULES_IGNORE_CONFIG;
import static io.kavro.registry.RegistryConfig.PROXY_HOST_CONFIG;
import static io.kavro.registry.RegistryConfig.PROXY_PORT_CONFIG;
import static io.kavro.registry.RegistryConfig.REQUEST_HEADER_PREFIX;
import static io.kavro.registry.RegistryConfig.RETRIES_MAX_WAIT_MS_CONFIG;
import static io.kavro.registry.RegistryConfig.RETRIES_WAIT_MS_CONFIG;
import static io.kavro.registry.RegistryConfig.SASL_JAAS_CONFIG;
import static io.kavro.registry.RegistryConfig.SCHEMA_CACHE_DIR_CONFIG;
import static io.kavro.registry.RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG;
import static io.kavro.registry.RegistryConfig.SCHEMA_REGISTRY_URL_RANDOMIZE_CONFIG;
import static io.kavro.registry.RegistryConfig.SCHEMA_REGISTRY_USER_INFO_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_CIPHER_SUITES_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_ENABLED_PROTOCOLS_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_KEY_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_PASSWORD_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_TYPE_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEY_PASSWORD_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_PROTOCOL_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_TRUSTSTORE_CERTIFICATES_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_TRUSTSTORE_PASSWORD_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_TRUSTSTORE_TYPE_CONFIG;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a {@link RegistryConfig} from a map with Confluent's key names, without Kafka. A value may be a
 * string, as in a properties file, or already typed; absent keys keep their defaults, unknown keys are
 * ignored. Every error names its key and never shows a secret.
 */
final class RegistryConfigParser {
  /** Credential sources of Confluent's client that Kavro does not have (cloud-specific token sources). */
  private static final Set<String> NOT_SUPPORTED = Set.of("SASL_OAUTHBEARER_INHERIT", "UAMI");

  private final Map<String, ?> configs;

  private RegistryConfigParser(Map<String, ?> configs) {
    this.configs = configs;
  }

  static RegistryConfig parse(Map<String, ?> configs) {
    return new RegistryConfigParser(configs).config();
  }

  private RegistryConfig config() {
    RegistryConfig defaults = RegistryConfig.DEFAULTS;
    RegistryConfig.Tls tlsDefaults = RegistryConfig.Tls.DEFAULT;
    String basicSource = choice(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, "URL",
        Set.of("URL", "USER_INFO", "SASL_INHERIT"));
    Secret userInfo = basicSource.equals("SASL_INHERIT") ? JaasCredentials.userInfo(secret(SASL_JAAS_CONFIG))
        : firstSecret(SCHEMA_REGISTRY_USER_INFO_CONFIG, BASIC_AUTH_USER_INFO_CONFIG);
    String bearerSource = choice(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, "",
        Set.of("", "STATIC_TOKEN", "OAUTHBEARER", "CUSTOM"));
    Secret bearerToken = secret(BEARER_AUTH_TOKEN_CONFIG);
    if (bearerSource.equals("STATIC_TOKEN") && bearerToken == null) {
      throw new RegistryConfigException(BEARER_AUTH_TOKEN_CONFIG, BEARER_AUTH_TOKEN_CONFIG + " must be set when "
          + BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG + "=STATIC_TOKEN");
    }
    OAuthSettings oauth = bearerSource.equals("OAUTHBEARER") ? new OAuthSettings(
        string(BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG, null), string(BEARER_AUTH_CLIENT_ID_CONFIG, null),
        secret(BEARER_AUTH_CLIENT_SECRET_CONFIG), string(BEARER_AUTH_SCOPE_CONFIG, null),
        string(BEARER_AUTH_SCOPE_CLAIM_NAME_CONFIG, null), string(BEARER_AUTH_SUB_CLAIM_NAME_CONFIG, null),
        Duration.ofSeconds(number(BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG,
            OAuthSettings.DEFAULT_EXPIRY_BUFFER.toSeconds()))) : null;
    BearerTokenProvider custom = bearerSource.equals("CUSTOM") ? customProvider() : null;
    boolean bearer = bearerToken != null && (bearerSource.isEmpty() || bearerSource.equals("STATIC_TOKEN"))
        || oauth != null || custom != null;
    String hostCheck = choice(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "https", Set.of("HTTPS", ""));
    String cacheDir = string(SCHEMA_CACHE_DIR_CONFIG, null);
    return RegistryConfig.builder()
        .urls(list(SCHEMA_REGISTRY_URL_CONFIG))
        .urlRandomize(bool(SCHEMA_REGISTRY_URL_RANDOMIZE_CONFIG, bool("url.randomize", false)))
        .maxSchemasPerSubject(integer(MAX_SCHEMAS_PER_SUBJECT_CONFIG, defaults.maxSchemasPerSubject()))
        .latestCacheTtl(latestCacheTtl())
        .latestCacheSize(integer(LATEST_CACHE_SIZE_CONFIG, defaults.latestCacheSize()))
        .missingIdCacheTtl(Duration.ofSeconds(number(MISSING_ID_CACHE_TTL_SEC_CONFIG,
            defaults.missingIdCacheTtl().toSeconds())))
        .missingCacheSize(integer(MISSING_CACHE_SIZE_CONFIG, defaults.missingCacheSize()))
        .normalizeSchemas(bool(NORMALIZE_SCHEMAS_CONFIG, defaults.normalizeSchemas()))
        .ignoreRules(bool(RULES_IGNORE_CONFIG, defaults.ignoreRules()))
        .maxRetries(integer(MAX_RETRIES_CONFIG, defaults.maxRetries()))
        .retriesWait(Duration.ofMillis(number(RETRIES_WAIT_MS_CONFIG, defaults.retriesWait().toMillis())))
        .retriesMaxWait(Duration.ofMillis(number(RETRIES_MAX_WAIT_MS_CONFIG, defaults.retriesMaxWait().toMillis())))
        .connectTimeout(Duration.ofMillis(number(HTTP_CONNECT_TIMEOUT_MS_CONFIG,
            defaults.connectTimeout().toMillis())))
        .readTimeout(Duration.ofMillis(number(HTTP_READ_TIMEOUT_MS_CONFIG, defaults.readTimeout().toMillis())))
        .basicAuth(!basicSource.equals("URL"), userInfo)
        .bearerToken(oauth == null && custom == null ? bearerToken : null)
        .oauth(oauth)
        .bearerTokenProvider(custom)
        .requestHeaders(requestHeaders(bearer))
        .proxy(proxy())
        .tls(new RegistryConfig.Tls(
            string(SSL_TRUSTSTORE_LOCATION_CONFIG, null), secret(SSL_TRUSTSTORE_PASSWORD_CONFIG),
            string(SSL_TRUSTSTORE_TYPE_CONFIG, tlsDefaults.truststoreType()),
            string(SSL_TRUSTSTORE_CERTIFICATES_CONFIG, null),
            string(SSL_KEYSTORE_LOCATION_CONFIG, null), secret(SSL_KEYSTORE_PASSWORD_CONFIG),
            string(SSL_KEYSTORE_TYPE_CONFIG, tlsDefaults.keystoreType()), secret(SSL_KEYSTORE_KEY_CONFIG),
            string(SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, null), secret(SSL_KEY_PASSWORD_CONFIG),
            !hostCheck.isEmpty(), string(SSL_PROTOCOL_CONFIG, tlsDefaults.protocol()),
            configs.containsKey(SSL_ENABLED_PROTOCOLS_CONFIG) ? list(SSL_ENABLED_PROTOCOLS_CONFIG)
                : tlsDefaults.enabledProtocols(), list(SSL_CIPHER_SUITES_CONFIG)))
        .schemaCacheDir(cacheDir == null || cacheDir.isBlank() ? null : Path.of(cacheDir))
        .build();
  }

  /** Seconds, or any negative number (Confluent's {@code -1}) for no expiry. */
  private Duration latestCacheTtl() {
    long seconds = number(LATEST_CACHE_TTL_SEC_CONFIG, -1);
    return seconds < 0 ? RegistryConfig.NO_EXPIRY : Duration.ofSeconds(seconds);
  }

  /** {@code request.header.*}, and with bearer auth the Confluent Cloud headers of their keys. */
  private Map<String, String> requestHeaders(boolean bearer) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    configs.forEach((key, value) -> {
      if (key.startsWith(REQUEST_HEADER_PREFIX) && key.length() > REQUEST_HEADER_PREFIX.length() && value != null) {
        headers.put(key.substring(REQUEST_HEADER_PREFIX.length()), value.toString());
      }
    });
    String cluster = string(BEARER_AUTH_LOGICAL_CLUSTER_CONFIG, "");
    String pool = string(BEARER_AUTH_IDENTITY_POOL_ID_CONFIG, "");
    if (bearer && !cluster.isEmpty()) {
      headers.put(RegistryConfig.LOGICAL_CLUSTER_HEADER, cluster);
    }
    if (bearer && !pool.isEmpty()) {
      headers.put(RegistryConfig.IDENTITY_POOL_HEADER, pool);
    }
    return new java.util.LinkedHashMap<>(headers);
  }

  /** Confluent's rule: both {@code proxy.host} and a positive {@code proxy.port}, or no proxy. */
  private InetSocketAddress proxy() {
    String host = string(PROXY_HOST_CONFIG, "");
    int port = integer(PROXY_PORT_CONFIG, -1);
    if (host.isEmpty() && port <= 0) {
      return null;
    }
    if (host.isEmpty() || port <= 0 || port > 65535) {
      throw invalid(host.isEmpty() ? PROXY_HOST_CONFIG : PROXY_PORT_CONFIG, host.isEmpty() ? "" : port,
          "proxy.host and a proxy.port from 1 to 65535 must be set together");
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  /** The class of {@code bearer.auth.custom.provider.class}, made and configured with the whole map. */
  private BearerTokenProvider customProvider() {
    Object value = configs.get(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG);
    if (value == null || value.toString().isBlank()) {
      throw new RegistryConfigException(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG
          + " must be set when " + BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG + "=CUSTOM");
    }
    Class<?> type;
    try {
      type = value instanceof Class<?> given ? given : Class.forName(value.toString().trim(), true,
          Thread.currentThread().getContextClassLoader() != null ? Thread.currentThread().getContextClassLoader()
              : RegistryConfigParser.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw invalid(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, value, "class not found");
    }
    if (!BearerTokenProvider.class.isAssignableFrom(type)) {
      throw invalid(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, type.getName(), "does not implement "
          + BearerTokenProvider.class.getName());
    }
    BearerTokenProvider provider;
    try {
      provider = (BearerTokenProvider) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw invalid(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, type.getName(), "cannot be instantiated: " + e);
    }
    provider.configure(configs);
    return provider;
  }

  private Secret firstSecret(String... keys) {
    for (String key : keys) {
      Secret value = secret(key);
      if (value != null && !value.value().isEmpty()) {
        return value;
      }
    }
    return null;
  }

  private String string(String key, String otherwise) {
    Object value = configs.get(key);
    return value == null ? otherwise : (value instanceof Secret secret ? secret.value() : value.toString()).trim();
  }

  private Secret secret(String key) {
    Object value = configs.get(key);
    return value == null ? null : Secret.of(value instanceof Secret secret ? secret.value() : value.toString());
  }

  /** One of {@code allowed} (upper case), whatever the case of the value. */
  private String choice(String key, String otherwise, Set<String> allowed) {
    String value = string(key, otherwise).toUpperCase(Locale.ROOT);
    if (NOT_SUPPORTED.contains(value)) {
      throw invalid(key, value, "Confluent's " + value + " is not supported by Kavro; use one of " + allowed);
    }
    if (!allowed.contains(value)) {
      throw invalid(key, configs.get(key), "must be one of " + allowed);
    }
    return value;
  }

  private long number(String key, long otherwise) {
    Object value = configs.get(key);
    if (value == null) {
      return otherwise;
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      return ((Number) value).longValue();
    }
    try {
      return Long.parseLong(value.toString().trim());
    } catch (NumberFormatException e) {
      throw invalid(key, value, "not a whole number");
    }
  }

  private int integer(String key, int otherwise) {
    long value = number(key, otherwise);
    if (value != (int) value) {
      throw invalid(key, value, "out of the range of an int");
    }
    return (int) value;
  }

  private boolean bool(String key, boolean otherwise) {
    Object value = configs.get(key);
    if (value == null) {
      return otherwise;
    }
    if (value instanceof Boolean b) {
      return b;
    }
    String text = value.toString().trim();
    if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(text);
    }
    throw invalid(key, value, "not true or false");
  }

  /** A list, or comma-separated text; entries trimmed, empty ones dropped. */
  private List<String> list(String key) {
    Object value = configs.get(key);
    List<String> entries = new ArrayList<>();
    if (value instanceof List<?> items) {
      items.forEach(item -> entries.add(String.valueOf(item).trim()));
    } else if (value != null) {
      for (String entry : value.toString().split(",")) {
        entries.add(entry.trim());
      }
    }
    entries.removeIf(String::isEmpty);
    return entries;
  }

  private static RegistryConfigException invalid(String key, Object value, String why) {
    String shown = key.endsWith("password") || key.endsWith("user.info") || key.endsWith("token")
        || key.endsWith("keystore.key")
        || key.endsWith("secret") || key.equals(SASL_JAAS_CONFIG) ? "[hidden]"
        : RegistryConfig.redact(String.valueOf(value));
    return new RegistryConfigException(key, "Invalid value " + shown + " for configuration " + key + ": " + why);
  }
}
