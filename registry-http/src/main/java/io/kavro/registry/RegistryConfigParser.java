package io.kavro.registry;

import static io.kavro.registry.RegistryConfig.BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG;
import static io.kavro.registry.RegistryConfig.BASIC_AUTH_USER_INFO_CONFIG;
import static io.kavro.registry.RegistryConfig.BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG;
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
import static io.kavro.registry.RegistryConfig.RETRIES_MAX_WAIT_MS_CONFIG;
import static io.kavro.registry.RegistryConfig.RETRIES_WAIT_MS_CONFIG;
import static io.kavro.registry.RegistryConfig.SCHEMA_CACHE_DIR_CONFIG;
import static io.kavro.registry.RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_PASSWORD_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEYSTORE_TYPE_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_KEY_PASSWORD_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_TRUSTSTORE_PASSWORD_CONFIG;
import static io.kavro.registry.RegistryConfig.SSL_TRUSTSTORE_TYPE_CONFIG;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads a {@link RegistryConfig} from a map with Confluent's key names, without Kafka. A value may be a
 * string, as in a properties file, or already typed; absent keys keep their defaults, unknown keys are
 * ignored. Every error names its key and never shows a secret.
 */
final class RegistryConfigParser {
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
    String basicSource = choice(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, "URL", Set.of("URL", "USER_INFO"));
    String bearerSource = choice(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, "", Set.of("", "STATIC_TOKEN"));
    Secret bearerToken = secret(BEARER_AUTH_TOKEN_CONFIG);
    if (bearerSource.equals("STATIC_TOKEN") && bearerToken == null) {
      throw new RegistryConfigException(BEARER_AUTH_TOKEN_CONFIG, BEARER_AUTH_TOKEN_CONFIG + " must be set when "
          + BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG + "=STATIC_TOKEN");
    }
    String hostCheck = choice(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, "https", Set.of("HTTPS", ""));
    String cacheDir = string(SCHEMA_CACHE_DIR_CONFIG, null);
    return RegistryConfig.builder()
        .urls(list(SCHEMA_REGISTRY_URL_CONFIG))
        .maxSchemasPerSubject(integer(MAX_SCHEMAS_PER_SUBJECT_CONFIG, defaults.maxSchemasPerSubject()))
        .latestCacheTtl(latestCacheTtl())
        .latestCacheSize(integer(LATEST_CACHE_SIZE_CONFIG, defaults.latestCacheSize()))
        .missingIdCacheTtl(Duration.ofSeconds(number(MISSING_ID_CACHE_TTL_SEC_CONFIG,
            defaults.missingIdCacheTtl().toSeconds())))
        .missingCacheSize(integer(MISSING_CACHE_SIZE_CONFIG, defaults.missingCacheSize()))
        .normalizeSchemas(bool(NORMALIZE_SCHEMAS_CONFIG, defaults.normalizeSchemas()))
        .maxRetries(integer(MAX_RETRIES_CONFIG, defaults.maxRetries()))
        .retriesWait(Duration.ofMillis(number(RETRIES_WAIT_MS_CONFIG, defaults.retriesWait().toMillis())))
        .retriesMaxWait(Duration.ofMillis(number(RETRIES_MAX_WAIT_MS_CONFIG, defaults.retriesMaxWait().toMillis())))
        .connectTimeout(Duration.ofMillis(number(HTTP_CONNECT_TIMEOUT_MS_CONFIG,
            defaults.connectTimeout().toMillis())))
        .readTimeout(Duration.ofMillis(number(HTTP_READ_TIMEOUT_MS_CONFIG, defaults.readTimeout().toMillis())))
        .basicAuth(basicSource.equals("USER_INFO"), secret(BASIC_AUTH_USER_INFO_CONFIG))
        .bearerToken(bearerToken)
        .tls(new RegistryConfig.Tls(
            string(SSL_TRUSTSTORE_LOCATION_CONFIG, null), secret(SSL_TRUSTSTORE_PASSWORD_CONFIG),
            string(SSL_TRUSTSTORE_TYPE_CONFIG, tlsDefaults.truststoreType()),
            string(SSL_KEYSTORE_LOCATION_CONFIG, null), secret(SSL_KEYSTORE_PASSWORD_CONFIG),
            string(SSL_KEYSTORE_TYPE_CONFIG, tlsDefaults.keystoreType()), secret(SSL_KEY_PASSWORD_CONFIG),
            !hostCheck.isEmpty()))
        .schemaCacheDir(cacheDir == null || cacheDir.isBlank() ? null : Path.of(cacheDir))
        .build();
  }

  /** Seconds, or any negative number (Confluent's {@code -1}) for no expiry. */
  private Duration latestCacheTtl() {
    long seconds = number(LATEST_CACHE_TTL_SEC_CONFIG, -1);
    return seconds < 0 ? RegistryConfig.NO_EXPIRY : Duration.ofSeconds(seconds);
  }

  private String string(String key, String otherwise) {
    Object value = configs.get(key);
    return value == null ? otherwise : value.toString().trim();
  }

  private Secret secret(String key) {
    Object value = configs.get(key);
    return value == null ? null : Secret.of(value instanceof Secret secret ? secret.value() : value.toString());
  }

  /** One of {@code allowed} (upper case), whatever the case of the value. */
  private String choice(String key, String otherwise, Set<String> allowed) {
    String value = string(key, otherwise).toUpperCase(Locale.ROOT);
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
    String shown = key.endsWith("password") || key.endsWith("user.info") || key.endsWith("token") ? "[hidden]"
        : RegistryConfig.redact(String.valueOf(value));
    return new RegistryConfigException(key, "Invalid value " + shown + " for configuration " + key + ": " + why);
  }
}
