package io.kavro.registry.config;

import static io.kavro.registry.config.RegistryConfig.REQUEST_HEADER_PREFIX;
import static io.kavro.registry.config.RegistryConfig.SASL_JAAS_CONFIG;
import static io.kavro.registry.config.RegistryKey.*;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a {@link RegistryConfig} from a map with Confluent's key names, without Kafka, as the table of keys
 * ({@link RegistryKey}) declares them: absent keys take the table's defaults, choices and bounds are the table's,
 * unknown keys are ignored. A value may be a string, as in a properties file, or already typed. Every error
 * names its key and never shows a secret.
 */
final class RegistryConfigParser {
  /** Confluent's registry client's own name of {@code schema.registry.url.randomize}, read when that is absent. */
  private static final String URL_RANDOMIZE_ALIAS = "url.randomize";

  private final Map<String, ?> configs;

  private RegistryConfigParser(Map<String, ?> configs) {
    this.configs = configs;
  }

  static RegistryConfig parse(Map<String, ?> configs) {
    return new RegistryConfigParser(configs).config();
  }

  /** The TLS settings of {@code configs}; of an empty map, {@link RegistryConfig.Tls#DEFAULT}. */
  static RegistryConfig.Tls tls(Map<String, ?> configs) {
    return new RegistryConfigParser(configs).tls();
  }

  /** A {@code latest.cache.ttl.sec}: seconds, or any negative number (Confluent's {@code -1}) for no expiry. */
  private static Duration latestCacheTtl(long seconds) {
    return seconds < 0 ? RegistryConfig.NO_EXPIRY : Duration.ofSeconds(seconds);
  }

  private RegistryConfig config() {
    String basicSource = choice(BASIC_AUTH_CREDENTIALS_SOURCE);
    Secret userInfo = basicSource.equals("SASL_INHERIT") ? JaasCredentials.userInfo(secret(SASL_JAAS_CONFIG))
        : firstSecret(SCHEMA_REGISTRY_USER_INFO, BASIC_AUTH_USER_INFO);
    String bearerSource = choice(BEARER_AUTH_CREDENTIALS_SOURCE);
    Secret bearerToken = secret(BEARER_AUTH_TOKEN);
    if (bearerSource.equals("STATIC_TOKEN") && bearerToken == null) {
      throw new RegistryConfigException(BEARER_AUTH_TOKEN.name(), BEARER_AUTH_TOKEN.name() + " must be set when "
          + BEARER_AUTH_CREDENTIALS_SOURCE.name() + "=STATIC_TOKEN");
    }
    OAuthSettings oauth = bearerSource.equals("OAUTHBEARER") ? new OAuthSettings(
        string(BEARER_AUTH_ISSUER_ENDPOINT_URL), string(BEARER_AUTH_CLIENT_ID), secret(BEARER_AUTH_CLIENT_SECRET),
        string(BEARER_AUTH_SCOPE), string(BEARER_AUTH_SCOPE_CLAIM_NAME), string(BEARER_AUTH_SUB_CLAIM_NAME),
        Duration.ofSeconds(number(BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS))) : null;
    BearerTokenProvider custom = bearerSource.equals("CUSTOM") ? customProvider() : null;
    boolean bearer = bearerToken != null && (bearerSource.isEmpty() || bearerSource.equals("STATIC_TOKEN"))
        || oauth != null || custom != null;
    String cacheDir = string(SCHEMA_CACHE_DIR);
    return new RegistryConfig.Builder()
        .urls(list(SCHEMA_REGISTRY_URL))
        .urlRandomize(configs.get(SCHEMA_REGISTRY_URL_RANDOMIZE.name()) == null
            && configs.get(URL_RANDOMIZE_ALIAS) != null ? bool(URL_RANDOMIZE_ALIAS, configs.get(URL_RANDOMIZE_ALIAS))
            : bool(SCHEMA_REGISTRY_URL_RANDOMIZE))
        .maxSchemasPerSubject(integer(MAX_SCHEMAS_PER_SUBJECT))
        .latestCacheTtl(latestCacheTtl(number(LATEST_CACHE_TTL_SEC)))
        .latestCacheSize(integer(LATEST_CACHE_SIZE))
        .missingIdCacheTtl(Duration.ofSeconds(number(MISSING_ID_CACHE_TTL_SEC)))
        .missingCacheSize(integer(MISSING_CACHE_SIZE))
        .subjectsCacheSize(integer(SUBJECTS_CACHE_SIZE))
        .contextsCacheSize(integer(CONTEXTS_CACHE_SIZE))
        .normalizeSchemas(bool(NORMALIZE_SCHEMAS))
        .ignoreRules(bool(RULES_IGNORE))
        .maxRetries(integer(MAX_RETRIES))
        .retriesWait(Duration.ofMillis(number(RETRIES_WAIT_MS)))
        .retriesMaxWait(Duration.ofMillis(number(RETRIES_MAX_WAIT_MS)))
        .connectTimeout(Duration.ofMillis(number(HTTP_CONNECT_TIMEOUT_MS)))
        .readTimeout(Duration.ofMillis(number(HTTP_READ_TIMEOUT_MS)))
        .basicAuth(!basicSource.equals("URL"), userInfo)
        .bearerToken(oauth == null && custom == null ? bearerToken : null)
        .oauth(oauth)
        .bearerTokenProvider(custom)
        .requestHeaders(requestHeaders(bearer))
        .proxy(proxy())
        .tls(tls())
        .schemaCacheDir(cacheDir == null || cacheDir.isBlank() ? null : Path.of(cacheDir))
        .api(RegistryApi.fromConfigName(choice(SCHEMA_REGISTRY_API)))
        .schemaRepoValidators(list(SCHEMA_REPO_VALIDATORS))
        .build();
  }

  private RegistryConfig.Tls tls() {
    return new RegistryConfig.Tls(string(SSL_TRUSTSTORE_LOCATION), secret(SSL_TRUSTSTORE_PASSWORD),
        string(SSL_TRUSTSTORE_TYPE), string(SSL_TRUSTSTORE_CERTIFICATES), string(SSL_KEYSTORE_LOCATION),
        secret(SSL_KEYSTORE_PASSWORD), string(SSL_KEYSTORE_TYPE), secret(SSL_KEYSTORE_KEY),
        string(SSL_KEYSTORE_CERTIFICATE_CHAIN), secret(SSL_KEY_PASSWORD),
        !choice(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM).isEmpty(), string(SSL_PROTOCOL), list(SSL_ENABLED_PROTOCOLS),
        list(SSL_CIPHER_SUITES));
  }

  /** {@code request.header.*}, and with bearer auth the Confluent Cloud headers of their keys. */
  private Map<String, String> requestHeaders(boolean bearer) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    configs.forEach((key, value) -> {
      if (key.startsWith(REQUEST_HEADER_PREFIX) && key.length() > REQUEST_HEADER_PREFIX.length() && value != null) {
        headers.put(key.substring(REQUEST_HEADER_PREFIX.length()), value.toString());
      }
    });
    String cluster = string(BEARER_AUTH_LOGICAL_CLUSTER);
    String pool = string(BEARER_AUTH_IDENTITY_POOL_ID);
    if (bearer && cluster != null && !cluster.isEmpty()) {
      headers.put(RegistryConfig.LOGICAL_CLUSTER_HEADER, cluster);
    }
    if (bearer && pool != null && !pool.isEmpty()) {
      headers.put(RegistryConfig.IDENTITY_POOL_HEADER, pool);
    }
    return new java.util.LinkedHashMap<>(headers);
  }

  /** Confluent's rule: both {@code proxy.host} and a positive {@code proxy.port}, or no proxy. */
  private InetSocketAddress proxy() {
    String host = string(PROXY_HOST);
    int port = integer(PROXY_PORT);
    if (host.isEmpty() && port <= 0) {
      return null;
    }
    if (host.isEmpty() || port <= 0 || port > 65535) {
      throw invalid(host.isEmpty() ? PROXY_HOST.name() : PROXY_PORT.name(), host.isEmpty() ? "" : port,
          "proxy.host and a proxy.port from 1 to 65535 must be set together");
    }
    return InetSocketAddress.createUnresolved(host, port);
  }

  /** The class of {@code bearer.auth.custom.provider.class}, made and configured with the whole map. */
  private BearerTokenProvider customProvider() {
    String key = BEARER_AUTH_CUSTOM_PROVIDER_CLASS.name();
    Object value = configs.get(key);
    if (value == null || value.toString().isBlank()) {
      throw new RegistryConfigException(key, key + " must be set when " + BEARER_AUTH_CREDENTIALS_SOURCE.name()
          + "=CUSTOM");
    }
    Class<?> type;
    try {
      type = value instanceof Class<?> given ? given : Class.forName(value.toString().trim(), true,
          Thread.currentThread().getContextClassLoader() != null ? Thread.currentThread().getContextClassLoader()
              : RegistryConfigParser.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw invalid(key, value, "class not found");
    } catch (LinkageError e) {
      // A static initialiser that throws, or a class missing one it links to: the setting's fault, not a crash.
      throw invalid(key, value, "cannot be loaded as a " + BearerTokenProvider.class.getName() + ": " + e);
    }
    if (!BearerTokenProvider.class.isAssignableFrom(type)) {
      throw invalid(key, type.getName(), "does not implement " + BearerTokenProvider.class.getName());
    }
    BearerTokenProvider provider;
    try {
      provider = (BearerTokenProvider) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw invalid(key, type.getName(), "cannot be instantiated: " + e);
    }
    provider.configure(configs);
    return provider;
  }

  /** The value of {@code key}, or its default when it is absent. */
  private Object value(RegistryKey key) {
    Object value = configs.get(key.name());
    return value == null ? key.defaultValue() : value;
  }

  private Secret firstSecret(RegistryKey... keys) {
    for (RegistryKey key : keys) {
      Secret value = secret(key.name());
      if (value != null && !value.value().isEmpty()) {
        return value;
      }
    }
    return null;
  }

  private String string(RegistryKey key) {
    Object value = value(key);
    return value == null ? null : (value instanceof Secret secret ? secret.value() : value.toString()).trim();
  }

  private Secret secret(RegistryKey key) {
    return secret(key.name());
  }

  private Secret secret(String key) {
    Object value = configs.get(key);
    return value == null ? null : Secret.of(value instanceof Secret secret ? secret.value() : value.toString());
  }

  /** One of the key's allowed values (upper case), whatever the case of the value. */
  private String choice(RegistryKey key) {
    key.check(configs.get(key.name()));
    return string(key).toUpperCase(Locale.ROOT);
  }

  /** A whole number; its bound is checked by {@link RegistryConfig}, for the builder's values too. */
  private long number(RegistryKey key) {
    Object value = value(key);
    long number;
    if (value instanceof Integer || value instanceof Long || value instanceof Short) {
      number = ((Number) value).longValue();
    } else {
      try {
        number = Long.parseLong(value.toString().trim());
      } catch (NumberFormatException e) {
        throw invalid(key.name(), value, "not a whole number");
      }
    }
    return number;
  }

  private int integer(RegistryKey key) {
    long value = number(key);
    if (value != (int) value) {
      throw invalid(key.name(), value, "out of the range of an int");
    }
    return (int) value;
  }

  private boolean bool(RegistryKey key) {
    return bool(key.name(), value(key));
  }

  private static boolean bool(String key, Object value) {
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
  private List<String> list(RegistryKey key) {
    Object value = value(key);
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

  /** The error of a wrong value of {@code key}; the value is hidden for a secret, a URL's user info removed. */
  static RegistryConfigException invalid(String key, Object value, String why) {
    String shown = key.endsWith("password") || key.endsWith("user.info") || key.endsWith("token")
        || key.endsWith("keystore.key")
        || key.endsWith("secret") || key.equals(SASL_JAAS_CONFIG) ? "[hidden]"
        : RegistryConfig.redact(String.valueOf(value));
    return new RegistryConfigException(key, "Invalid value " + shown + " for configuration " + key + ": " + why);
  }
}
