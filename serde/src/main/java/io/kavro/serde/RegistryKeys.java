package io.kavro.serde;

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
import static io.kavro.registry.RegistryConfig.RETRIES_MAX_WAIT_MS_CONFIG;
import static io.kavro.registry.RegistryConfig.RETRIES_WAIT_MS_CONFIG;
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

import io.kavro.registry.OAuthSettings;
import io.kavro.registry.RegistryConfig;
import io.kavro.registry.RegistryConfigException;
import io.kavro.registry.Secret;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The registry client's keys as Kafka sees them: their {@link ConfigDef} entries, with docs, types and
 * Confluent's defaults (taken from {@link RegistryConfig#DEFAULTS}), and the one conversion of their parsed
 * values into the client's immutable {@link RegistryConfig}.
 */
final class RegistryKeys {
  private static final RegistryConfig DEFAULTS = RegistryConfig.DEFAULTS;

  private RegistryKeys() {}

  /** Adds the registry client's keys to {@code def}. */
  static ConfigDef define(ConfigDef def) {
    RegistryConfig.Tls tls = RegistryConfig.Tls.DEFAULT;
    return def
        .define(SCHEMA_REGISTRY_URL_CONFIG, Type.LIST, "", Importance.HIGH, "Required. Comma-separated base URLs "
            + "of the schema registry, tried in order with failover. 'mock://<scope>' selects an in-memory "
            + "registry shared by every client of that scope in the JVM, for unit tests.")
        .define(SCHEMA_REGISTRY_URL_RANDOMIZE_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "Each client starts at a random one of the URLs, then fails over in order: spreads the clients of a "
            + "shared configuration.")
        .define(MAX_SCHEMAS_PER_SUBJECT_CONFIG, Type.INT, DEFAULTS.maxSchemasPerSubject(), Importance.LOW,
            "Bound on each schema cache (id to schema, schema to id, latest versions, readers and writers).")
        .define(LATEST_CACHE_TTL_SEC_CONFIG, Type.LONG, -1L, Importance.LOW,
            "Seconds a subject's latest version (use.latest.version, use.latest.with.metadata) is cached; -1 "
            + "(Confluent's default): for as long as the client lives. After the TTL it is refreshed in the "
            + "background; while the registry fails, the stale value is served.")
        .define(LATEST_CACHE_SIZE_CONFIG, Type.INT, DEFAULTS.latestCacheSize(), Importance.LOW,
            "Bound on the latest versions cached (one per subject, and per subject and metadata).")
        .define(MISSING_ID_CACHE_TTL_SEC_CONFIG, Type.LONG, DEFAULTS.missingIdCacheTtl().toSeconds(),
            Importance.LOW, "Seconds a schema id the registry does not know is remembered as missing, so that "
            + "records carrying it fail without a request each. 0: ask every time. Registering or looking up "
            + "the schema of that id forgets it at once.")
        .define(MISSING_CACHE_SIZE_CONFIG, Type.INT, DEFAULTS.missingCacheSize(), Importance.LOW,
            "Bound on the schema ids remembered as missing.")
        .define(NORMALIZE_SCHEMAS_CONFIG, Type.BOOLEAN, DEFAULTS.normalizeSchemas(), Importance.LOW,
            "Ask the registry to normalize schemas before registering or looking them up.")
        .define(RULES_IGNORE_CONFIG, Type.BOOLEAN, DEFAULTS.ignoreRules(), Importance.LOW,
            "Kavro runs no data contract rules (ruleSet: encryption, conditions, migrations). false: a schema from "
            + "the registry that carries rules is refused on write and on read, naming them. true: such schemas "
            + "are used as if they had no rules.")
        .define(MAX_RETRIES_CONFIG, Type.INT, DEFAULTS.maxRetries(), Importance.LOW,
            "Retries after an I/O error, a timeout, HTTP 408, 429 or 5xx.")
        .define(RETRIES_WAIT_MS_CONFIG, Type.LONG, DEFAULTS.retriesWait().toMillis(), Importance.LOW,
            "Base of the exponential backoff between retries; each wait is random between 0 and "
            + "min(retries.max.wait.ms, retries.wait.ms * 2^retry) (full jitter).")
        .define(RETRIES_MAX_WAIT_MS_CONFIG, Type.LONG, DEFAULTS.retriesMaxWait().toMillis(), Importance.LOW,
            "Upper bound of one backoff wait.")
        .define(HTTP_CONNECT_TIMEOUT_MS_CONFIG, Type.LONG, DEFAULTS.connectTimeout().toMillis(), Importance.LOW,
            "Timeout to open a connection to the registry.")
        .define(HTTP_READ_TIMEOUT_MS_CONFIG, Type.LONG, DEFAULTS.readTimeout().toMillis(), Importance.LOW,
            "Timeout to read the registry's answer.")
        .define(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, Type.STRING, "URL", Importance.MEDIUM,
            "Where basic auth credentials come from: URL (the user info of each registry URL, if any), "
            + "USER_INFO (basic.auth.user.info) or SASL_INHERIT (username and password of sasl.jaas.config).")
        .define(BASIC_AUTH_USER_INFO_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "'user:password' for basic auth, with basic.auth.credentials.source=USER_INFO.")
        .define(SCHEMA_REGISTRY_USER_INFO_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "Deprecated name of basic.auth.user.info; wins when both are set, as in Confluent.")
        .define(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, Type.STRING, "", Importance.MEDIUM,
            "STATIC_TOKEN sends bearer.auth.token (setting the token alone does too); OAUTHBEARER fetches tokens "
            + "with OAuth client credentials (bearer.auth.issuer.endpoint.url, .client.id, .client.secret); "
            + "CUSTOM asks bearer.auth.custom.provider.class; empty for no bearer auth.")
        .define(BEARER_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "A static bearer token sent as 'Authorization: Bearer'.")
        .define(BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "OAuth token endpoint, for bearer.auth.credentials.source=OAUTHBEARER.")
        .define(BEARER_AUTH_CLIENT_ID_CONFIG, Type.STRING, null, Importance.MEDIUM, "OAuth client id.")
        .define(BEARER_AUTH_CLIENT_SECRET_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "OAuth client secret.")
        .define(BEARER_AUTH_SCOPE_CONFIG, Type.STRING, null, Importance.LOW, "OAuth scope to ask for.")
        .define(BEARER_AUTH_SCOPE_CLAIM_NAME_CONFIG, Type.STRING, "scope", Importance.LOW,
            "JWT claim that holds the scope; checked to be a string or a list of strings.")
        .define(BEARER_AUTH_SUB_CLAIM_NAME_CONFIG, Type.STRING, "sub", Importance.LOW,
            "JWT claim that names the subject; checked to be a non-empty string.")
        .define(BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG, Type.SHORT,
            (short) OAuthSettings.DEFAULT_EXPIRY_BUFFER.toSeconds(), Importance.LOW,
            "Seconds before its expiry an OAuth token is replaced, ahead of time; a token that lives shorter is "
            + "replaced after 80% of its life.")
        .define(BEARER_AUTH_LOGICAL_CLUSTER_CONFIG, Type.STRING, null, Importance.LOW,
            "With bearer auth, sent as the target-sr-cluster header (Confluent Cloud's logical cluster).")
        .define(BEARER_AUTH_IDENTITY_POOL_ID_CONFIG, Type.STRING, null, Importance.LOW,
            "With bearer auth, sent as the Confluent-Identity-Pool-Id header.")
        .define(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, Type.STRING, null, Importance.LOW,
            "An io.kavro.registry.BearerTokenProvider (name or Class), for bearer.auth.credentials.source=CUSTOM; "
            + "configured with the whole configuration.")
        .define(PROXY_HOST_CONFIG, Type.STRING, "", Importance.LOW, "HTTP proxy host for the registry's requests.")
        .define(PROXY_PORT_CONFIG, Type.INT, -1, Importance.LOW, "HTTP proxy port; needs proxy.host.")
        .define(SSL_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Truststore file for the registry's TLS certificate; JDK defaults when unset.")
        .define(SSL_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Truststore password.")
        .define(SSL_TRUSTSTORE_TYPE_CONFIG, Type.STRING, tls.truststoreType(),
            ConfigDef.CaseInsensitiveValidString.in("JKS", "PKCS12", "PEM"), Importance.LOW,
            "JKS, PKCS12 or PEM (certificates in truststore.certificates, or in the truststore.location file).")
        .define(SSL_TRUSTSTORE_CERTIFICATES_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "Trusted certificates as PEM text; needs truststore.type=PEM.")
        .define(SSL_KEYSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Keystore file with a client certificate, for mutual TLS.")
        .define(SSL_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Keystore password.")
        .define(SSL_KEYSTORE_TYPE_CONFIG, Type.STRING, tls.keystoreType(),
            ConfigDef.CaseInsensitiveValidString.in("JKS", "PKCS12", "PEM"), Importance.LOW,
            "JKS, PKCS12 or PEM (keystore.key with keystore.certificate.chain, or both in the keystore.location "
            + "file).")
        .define(SSL_KEYSTORE_KEY_CONFIG, Type.PASSWORD, null, Importance.LOW, "The client's PKCS#8 private key as "
            + "PEM text, plain or encrypted with ssl.key.password; needs keystore.type=PEM.")
        .define(SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "The client's certificate chain as PEM text; needs keystore.type=PEM.")
        .define(SSL_PROTOCOL_CONFIG, Type.STRING, tls.protocol(), Importance.LOW, "The SSLContext protocol.")
        .define(SSL_ENABLED_PROTOCOLS_CONFIG, Type.LIST, String.join(",", tls.enabledProtocols()), Importance.LOW,
            "TLS versions offered to the registry.")
        .define(SSL_CIPHER_SUITES_CONFIG, Type.LIST, "", Importance.LOW, "Cipher suites offered; empty for the "
            + "JDK's.")
        .define(SSL_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "Password of the private key in the keystore; the keystore password when unset.")
        .define(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, Type.STRING, "https",
            ConfigDef.CaseInsensitiveValidString.in("https", ""), Importance.LOW,
            "'https' verifies that the registry's certificate matches its host name; an empty value turns the "
            + "check off.")
        .define(SCHEMA_CACHE_DIR_CONFIG, Type.STRING, null, Importance.LOW, "Folder where schemas fetched by id "
            + "are also kept on disk, so that a consumer restarted while the registry is down still decodes "
            + "every id it saw before. Unset: memory only.");
  }

  /**
   * The client's configuration from values that {@link #define}'s entries parsed, once, and the keys of
   * {@code originals} that it does not define.
   *
   * @throws ConfigException naming the key of a value the client refuses
   */
  static RegistryConfig registryConfig(AbstractConfig parsed, Map<String, ?> originals) {
    // The originals too: request.header.*, sasl.jaas.config and a custom provider's own keys are not defined,
    // and a Class stays a Class.
    Map<String, Object> values = new HashMap<>();
    originals.forEach((key, value) -> values.put(key, secretOrValue(value)));
    for (String key : define(new ConfigDef()).names()) {
      Object value = parsed.values().get(key);
      if (value == null) {
        values.remove(key);
      } else if (!(values.get(key) instanceof Class<?>)) {
        values.put(key, secretOrValue(value));
      }
    }
    try {
      return RegistryConfig.from(values);
    } catch (RegistryConfigException e) {
      throw asConfigException(e);
    }
  }

  private static Object secretOrValue(Object value) {
    return value instanceof Password password ? Secret.of(password.value()) : value;
  }

  /** The registry client's configuration error as Kafka's, with the same message. */
  static ConfigException asConfigException(RegistryConfigException e) {
    ConfigException config = new ConfigException(e.getMessage());
    config.initCause(e);
    return config;
  }
}
