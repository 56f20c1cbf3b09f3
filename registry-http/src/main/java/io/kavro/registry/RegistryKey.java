package io.kavro.registry;

import static io.kavro.registry.RegistryConfig.*;

import java.util.List;
import java.util.Objects;

/**
 * One key of the registry client's configuration, declared once: its name, type, default, allowed values and
 * documentation, and whether Confluent's client has it too. {@link #ALL} is the whole table: the serde turns it
 * into Kafka's {@code ConfigDef} (and so into Connect's configuration UI), and the configuration reference in
 * {@code docs/configuration.md} is checked against it. {@link RegistryConfig#from} reads the same keys, with the
 * same defaults ({@link RegistryConfig#DEFAULTS}).
 *
 * @param name the key
 * @param type how its value is written
 * @param defaultValue the value when the key is absent, typed as {@code type} says; {@code null} for none
 * @param allowed the only values it may take (compared ignoring case), or empty for any
 * @param importance how much a user needs to know of it, as Kafka ranks keys
 * @param doc what it does, in one paragraph
 * @param kavroOnly whether it is Kavro's own key, which Confluent's client does not have
 */
public record RegistryKey(String name, Type type, Object defaultValue, List<String> allowed, Importance importance,
    String doc, boolean kavroOnly) {

  /** How a value is written: Kafka's {@code ConfigDef.Type} of the same name. */
  public enum Type {
    /** Text. */
    STRING,
    /** {@code true} or {@code false}. */
    BOOLEAN,
    /** A 16-bit integer. */
    SHORT,
    /** A 32-bit integer. */
    INT,
    /** A 64-bit integer. */
    LONG,
    /** Comma-separated text. */
    LIST,
    /** A secret: never shown. */
    PASSWORD
  }

  /** How much a user needs to know of a key: Kafka's {@code ConfigDef.Importance} of the same name. */
  public enum Importance {
    /** Needed to run at all. */
    HIGH,
    /** Needed for security and what a typical deployment sets. */
    MEDIUM,
    /** Tuning. */
    LOW
  }

  /** Checks that the name, type, importance and documentation are given. */
  public RegistryKey {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(importance, "importance");
    Objects.requireNonNull(doc, "doc");
    allowed = List.copyOf(allowed);
  }

  /** Every key of the registry client, in the order of its documentation. */
  public static final List<RegistryKey> ALL = List.of(
      key(SCHEMA_REGISTRY_URL_CONFIG, Type.LIST, "", Importance.HIGH, "Required. Comma-separated base URLs "
            + "of the schema registry, tried in order with failover. 'mock://<scope>' selects an in-memory "
            + "registry shared by every client of that scope in the JVM, for unit tests."),
      key(SCHEMA_REGISTRY_URL_RANDOMIZE_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "Each client starts at a random one of the URLs, then fails over in order: spreads the clients of a "
            + "shared configuration."),
      key(MAX_SCHEMAS_PER_SUBJECT_CONFIG, Type.INT, DEFAULTS.maxSchemasPerSubject(), Importance.LOW,
            "Bound on each schema cache (id to schema, schema to id, latest versions, readers and writers)."),
      key(LATEST_CACHE_TTL_SEC_CONFIG, Type.LONG, -1L, Importance.LOW,
            "Seconds a subject's latest version (use.latest.version, use.latest.with.metadata) is cached; -1 "
            + "(Confluent's default): for as long as the client lives. After the TTL it is refreshed in the "
            + "background; while the registry fails, the stale value is served."),
      key(LATEST_CACHE_SIZE_CONFIG, Type.INT, DEFAULTS.latestCacheSize(), Importance.LOW,
            "Bound on the latest versions cached (one per subject, and per subject and metadata)."),
      key(MISSING_ID_CACHE_TTL_SEC_CONFIG, Type.LONG, DEFAULTS.missingIdCacheTtl().toSeconds(),
            Importance.LOW, "Seconds a schema id the registry does not know is remembered as missing, so that "
            + "records carrying it fail without a request each. 0: ask every time. Registering or looking up "
            + "the schema of that id forgets it at once."),
      key(MISSING_CACHE_SIZE_CONFIG, Type.INT, DEFAULTS.missingCacheSize(), Importance.LOW,
            "Bound on the schema ids remembered as missing."),
      key(NORMALIZE_SCHEMAS_CONFIG, Type.BOOLEAN, DEFAULTS.normalizeSchemas(), Importance.LOW,
            "Ask the registry to normalize schemas before registering or looking them up."),
      kavroKey(RULES_IGNORE_CONFIG, Type.BOOLEAN, DEFAULTS.ignoreRules(), Importance.LOW,
            "Kavro runs no data contract rules (ruleSet: encryption, conditions, migrations). false: a schema from "
            + "the registry that carries rules is refused on write and on read, naming them. true: such schemas "
            + "are used as if they had no rules."),
      key(MAX_RETRIES_CONFIG, Type.INT, DEFAULTS.maxRetries(), Importance.LOW,
            "Retries after an I/O error, a timeout, HTTP 408, 429 or 5xx."),
      key(RETRIES_WAIT_MS_CONFIG, Type.LONG, DEFAULTS.retriesWait().toMillis(), Importance.LOW,
            "Base of the exponential backoff between retries; each wait is random between 0 and "
            + "min(retries.max.wait.ms, retries.wait.ms * 2^retry) (full jitter)."),
      key(RETRIES_MAX_WAIT_MS_CONFIG, Type.LONG, DEFAULTS.retriesMaxWait().toMillis(), Importance.LOW,
            "Upper bound of one backoff wait."),
      key(HTTP_CONNECT_TIMEOUT_MS_CONFIG, Type.LONG, DEFAULTS.connectTimeout().toMillis(), Importance.LOW,
            "Timeout to open a connection to the registry."),
      key(HTTP_READ_TIMEOUT_MS_CONFIG, Type.LONG, DEFAULTS.readTimeout().toMillis(), Importance.LOW,
            "Timeout to read the registry's answer."),
      key(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, Type.STRING, "URL", Importance.MEDIUM,
            "Where basic auth credentials come from: URL (the user info of each registry URL, if any), "
            + "USER_INFO (basic.auth.user.info) or SASL_INHERIT (username and password of sasl.jaas.config)."),
      key(BASIC_AUTH_USER_INFO_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "'user:password' for basic auth, with basic.auth.credentials.source=USER_INFO."),
      key(SCHEMA_REGISTRY_USER_INFO_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "Deprecated name of basic.auth.user.info; wins when both are set, as in Confluent."),
      key(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, Type.STRING, "", Importance.MEDIUM,
            "STATIC_TOKEN sends bearer.auth.token (setting the token alone does too); OAUTHBEARER fetches tokens "
            + "with OAuth client credentials (bearer.auth.issuer.endpoint.url, .client.id, .client.secret); "
            + "CUSTOM asks bearer.auth.custom.provider.class; empty for no bearer auth."),
      key(BEARER_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "A static bearer token sent as 'Authorization: Bearer'."),
      key(BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "OAuth token endpoint, for bearer.auth.credentials.source=OAUTHBEARER."),
      key(BEARER_AUTH_CLIENT_ID_CONFIG, Type.STRING, null, Importance.MEDIUM, "OAuth client id."),
      key(BEARER_AUTH_CLIENT_SECRET_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "OAuth client secret."),
      key(BEARER_AUTH_SCOPE_CONFIG, Type.STRING, null, Importance.LOW, "OAuth scope to ask for."),
      key(BEARER_AUTH_SCOPE_CLAIM_NAME_CONFIG, Type.STRING, "scope", Importance.LOW,
            "JWT claim that holds the scope; checked to be a string or a list of strings."),
      key(BEARER_AUTH_SUB_CLAIM_NAME_CONFIG, Type.STRING, "sub", Importance.LOW,
            "JWT claim that names the subject; checked to be a non-empty string."),
      key(BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG, Type.SHORT,
            (short) OAuthSettings.DEFAULT_EXPIRY_BUFFER.toSeconds(), Importance.LOW,
            "Seconds before its expiry an OAuth token is replaced, ahead of time; a token that lives shorter is "
            + "replaced after 80% of its life."),
      key(BEARER_AUTH_LOGICAL_CLUSTER_CONFIG, Type.STRING, null, Importance.LOW,
            "With bearer auth, sent as the target-sr-cluster header (Confluent Cloud's logical cluster)."),
      key(BEARER_AUTH_IDENTITY_POOL_ID_CONFIG, Type.STRING, null, Importance.LOW,
            "With bearer auth, sent as the Confluent-Identity-Pool-Id header."),
      key(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, Type.STRING, null, Importance.LOW,
            "An io.kavro.registry.BearerTokenProvider (name or Class), for bearer.auth.credentials.source=CUSTOM; "
            + "configured with the whole configuration."),
      key(PROXY_HOST_CONFIG, Type.STRING, "", Importance.LOW, "HTTP proxy host for the registry's requests."),
      key(PROXY_PORT_CONFIG, Type.INT, -1, Importance.LOW, "HTTP proxy port; needs proxy.host."),
      key(SSL_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Truststore file for the registry's TLS certificate; JDK defaults when unset."),
      key(SSL_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Truststore password."),
      choice(SSL_TRUSTSTORE_TYPE_CONFIG, List.of("JKS", "PKCS12", "PEM"), Tls.DEFAULT.truststoreType(),
            Importance.LOW,
            "JKS, PKCS12 or PEM (certificates in truststore.certificates, or in the truststore.location file)."),
      key(SSL_TRUSTSTORE_CERTIFICATES_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "Trusted certificates as PEM text; needs truststore.type=PEM."),
      key(SSL_KEYSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Keystore file with a client certificate, for mutual TLS."),
      key(SSL_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Keystore password."),
      choice(SSL_KEYSTORE_TYPE_CONFIG, List.of("JKS", "PKCS12", "PEM"), Tls.DEFAULT.keystoreType(),
            Importance.LOW,
            "JKS, PKCS12 or PEM (keystore.key with keystore.certificate.chain, or both in the keystore.location "
            + "file)."),
      key(SSL_KEYSTORE_KEY_CONFIG, Type.PASSWORD, null, Importance.LOW, "The client's PKCS#8 private key as "
            + "PEM text, plain or encrypted with ssl.key.password; needs keystore.type=PEM."),
      key(SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "The client's certificate chain as PEM text; needs keystore.type=PEM."),
      key(SSL_PROTOCOL_CONFIG, Type.STRING, Tls.DEFAULT.protocol(), Importance.LOW, "The SSLContext protocol."),
      key(SSL_ENABLED_PROTOCOLS_CONFIG, Type.LIST, String.join(",", Tls.DEFAULT.enabledProtocols()), Importance.LOW,
            "TLS versions offered to the registry."),
      key(SSL_CIPHER_SUITES_CONFIG, Type.LIST, "", Importance.LOW, "Cipher suites offered; empty for the "
            + "JDK's."),
      key(SSL_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "Password of the private key in the keystore; the keystore password when unset."),
      choice(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, List.of("https", ""), "https",
            Importance.LOW,
            "'https' verifies that the registry's certificate matches its host name; an empty value turns the "
            + "check off."),
      kavroKey(SCHEMA_CACHE_DIR_CONFIG, Type.STRING, null, Importance.LOW, "Folder where schemas fetched by id "
            + "are also kept on disk, so that a consumer restarted while the registry is down still decodes "
            + "every id it saw before. Unset: memory only."));

  private static RegistryKey key(String name, Type type, Object defaultValue, Importance importance, String doc) {
    return new RegistryKey(name, type, defaultValue, List.of(), importance, doc, false);
  }

  private static RegistryKey kavroKey(String name, Type type, Object defaultValue, Importance importance,
      String doc) {
    return new RegistryKey(name, type, defaultValue, List.of(), importance, doc, true);
  }

  private static RegistryKey choice(String name, List<String> allowed, String defaultValue, Importance importance,
      String doc) {
    return new RegistryKey(name, Type.STRING, defaultValue, allowed, importance, doc, false);
  }
}
