package io.kavro.registry.config;

import static io.kavro.registry.config.RegistryConfig.*;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * One key of the registry client's configuration, declared once: its name, type, default, allowed values, lower
 * bound and documentation, and whether Confluent's client has it too. {@link #ALL} is the whole table: the serde
 * turns it into Kafka's {@code ConfigDef} (and so into Connect's configuration UI), {@link RegistryConfig#from}
 * reads it (absent keys take its defaults, which are also {@link RegistryConfig#DEFAULTS}), and the
 * configuration reference in {@code docs/configuration.md} is checked against it.
 *
 * @param name the key
 * @param type how its value is written
 * @param defaultValue the value when the key is absent, typed as {@code type} says; {@code null} for none
 * @param allowed the only values it may take (compared ignoring case), or empty for any
 * @param atLeast the smallest value a number may take, or {@code null} for no bound
 * @param importance how much a user needs to know of it, as Kafka ranks keys
 * @param doc what it does, in one paragraph
 * @param kavroOnly whether it is Kavro's own key, which Confluent's client does not have
 */
public record RegistryKey(String name, Type type, Object defaultValue, List<String> allowed, Long atLeast,
    Importance importance, String doc, boolean kavroOnly) {

  /** Values of Confluent's credential sources that Kavro does not have (cloud-specific token sources). */
  private static final Set<String> CONFLUENT_ONLY = Set.of("SASL_OAUTHBEARER_INHERIT", "UAMI");

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

  static final RegistryKey SCHEMA_REGISTRY_URL =
      key(SCHEMA_REGISTRY_URL_CONFIG, Type.LIST, "", Importance.HIGH, "Required. Comma-separated base URLs "
            + "of the schema registry, tried in order with failover. 'mock://<scope>' selects an in-memory "
            + "registry shared by every client of that scope in the JVM, for unit tests.");

  static final RegistryKey SCHEMA_REGISTRY_URL_RANDOMIZE =
      key(SCHEMA_REGISTRY_URL_RANDOMIZE_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "Each client starts at a random one of the URLs, then fails over in order: spreads the clients of a "
            + "shared configuration.");

  static final RegistryKey MAX_SCHEMAS_PER_SUBJECT =
      bounded(MAX_SCHEMAS_PER_SUBJECT_CONFIG, Type.INT, 1000, 1, Importance.LOW,
            "Bound on each schema cache (id to schema, schema to id, latest versions, readers and writers), "
            + "and on the topics a serializer or deserializer keeps routes or a schema context for.");

  static final RegistryKey LATEST_CACHE_TTL_SEC = key(LATEST_CACHE_TTL_SEC_CONFIG, Type.LONG, -1L, Importance.LOW,
            "Seconds a subject's latest version (use.latest.version, use.latest.with.metadata) is cached; -1 "
            + "(Confluent's default): for as long as the client lives. After the TTL it is refreshed in the "
            + "background; while the registry fails, the stale value is served.");

  static final RegistryKey LATEST_CACHE_SIZE = bounded(LATEST_CACHE_SIZE_CONFIG, Type.INT, 1000, 1, Importance.LOW,
            "Bound on the latest versions a client caches (one per subject, and per subject and metadata).");

  static final RegistryKey MISSING_ID_CACHE_TTL_SEC = bounded(MISSING_ID_CACHE_TTL_SEC_CONFIG, Type.LONG, 0L, 0,
            Importance.LOW, "Seconds a schema id the registry does not know is remembered as missing, so that "
            + "records carrying it fail without a request each. 0: ask every time. Registering or looking up "
            + "the schema of that id forgets it at once.");

  static final RegistryKey MISSING_CACHE_SIZE =
      bounded(MISSING_CACHE_SIZE_CONFIG, Type.INT, 10_000, 1, Importance.LOW,
            "Bound on the schema ids remembered as missing, and on the (subject, schema id) pairs a "
            + "deserializer remembers its subject does not hold.");

  static final RegistryKey SUBJECTS_CACHE_SIZE =
      new RegistryKey(SUBJECTS_CACHE_SIZE_CONFIG, Type.INT, 1000, List.of(), 1L, Importance.LOW,
            "With a registry whose ids count per subject (schema-repo): bound on the subjects whose caches a client "
            + "keeps, each with its ids' schemas. A subject evicted gets a new, empty cache on its next call, which "
            + "asks the registry again.", true);

  static final RegistryKey CONTEXTS_CACHE_SIZE =
      new RegistryKey(CONTEXTS_CACHE_SIZE_CONFIG, Type.INT, 100, List.of(), 1L, Importance.LOW,
            "Bound on the schema contexts whose caches a client keeps, and on those a deserializer keeps routes "
            + "for. A context evicted gets new, empty caches on its next use, which ask the registry again.", true);

  static final RegistryKey NORMALIZE_SCHEMAS = key(NORMALIZE_SCHEMAS_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "Ask the registry to normalize schemas before registering or looking them up.");

  static final RegistryKey RULES_IGNORE = kavroKey(RULES_IGNORE_CONFIG, Type.BOOLEAN, false, Importance.LOW,
            "The escape hatch from data contracts: true: schemas are used as if they had no rules (ruleSet), and "
            + "none runs. false: the serde runs a version's rules (with kavro-rules on the class path), and refuses a "
            + "schema whose rules it cannot run, naming the rule and what to add.");

  static final RegistryKey MAX_RETRIES = bounded(MAX_RETRIES_CONFIG, Type.INT, 3, 0, Importance.LOW,
            "Retries after an I/O error, a timeout, HTTP 408, 429 or 5xx.");

  static final RegistryKey RETRIES_WAIT_MS = bounded(RETRIES_WAIT_MS_CONFIG, Type.LONG, 1000L, 0, Importance.LOW,
            "Base of the exponential backoff between retries; each wait is random between 0 and "
            + "min(retries.max.wait.ms, retries.wait.ms * 2^retry) (full jitter).");

  static final RegistryKey RETRIES_MAX_WAIT_MS =
      bounded(RETRIES_MAX_WAIT_MS_CONFIG, Type.LONG, 20_000L, 0, Importance.LOW,
            "Upper bound of one backoff wait.");

  static final RegistryKey HTTP_CONNECT_TIMEOUT_MS =
      bounded(HTTP_CONNECT_TIMEOUT_MS_CONFIG, Type.LONG, 10_000L, 1, Importance.LOW,
            "Timeout to open a connection to the registry.");

  static final RegistryKey HTTP_READ_TIMEOUT_MS =
      bounded(HTTP_READ_TIMEOUT_MS_CONFIG, Type.LONG, 30_000L, 1, Importance.LOW,
            "Timeout to read the registry's answer.");

  static final RegistryKey BASIC_AUTH_CREDENTIALS_SOURCE =
      choice(BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG, List.of("URL", "USER_INFO", "SASL_INHERIT"), "URL",
            Importance.MEDIUM,
            "Where basic auth credentials come from: URL (the user info of each registry URL, if any), "
            + "USER_INFO (basic.auth.user.info) or SASL_INHERIT (username and password of sasl.jaas.config).");

  static final RegistryKey BASIC_AUTH_USER_INFO =
      key(BASIC_AUTH_USER_INFO_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "'user:password' for basic auth, with basic.auth.credentials.source=USER_INFO.");

  static final RegistryKey SCHEMA_REGISTRY_USER_INFO =
      key(SCHEMA_REGISTRY_USER_INFO_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "Deprecated name of basic.auth.user.info; wins when both are set, as in Confluent.");

  static final RegistryKey BEARER_AUTH_CREDENTIALS_SOURCE =
      choice(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, List.of("", "STATIC_TOKEN", "OAUTHBEARER", "CUSTOM"), "",
            Importance.MEDIUM,
            "STATIC_TOKEN sends bearer.auth.token (setting the token alone does too); OAUTHBEARER fetches tokens "
            + "with OAuth client credentials (bearer.auth.issuer.endpoint.url, .client.id, .client.secret); "
            + "CUSTOM asks bearer.auth.custom.provider.class; empty for no bearer auth.");

  static final RegistryKey BEARER_AUTH_TOKEN = key(BEARER_AUTH_TOKEN_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "A static bearer token sent as 'Authorization: Bearer'.");

  static final RegistryKey BEARER_AUTH_ISSUER_ENDPOINT_URL =
      key(BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "OAuth token endpoint, for bearer.auth.credentials.source=OAUTHBEARER.");

  static final RegistryKey BEARER_AUTH_CLIENT_ID =
      key(BEARER_AUTH_CLIENT_ID_CONFIG, Type.STRING, null, Importance.MEDIUM, "OAuth client id.");

  static final RegistryKey BEARER_AUTH_CLIENT_SECRET =
      key(BEARER_AUTH_CLIENT_SECRET_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "OAuth client secret.");

  static final RegistryKey BEARER_AUTH_SCOPE =
      key(BEARER_AUTH_SCOPE_CONFIG, Type.STRING, null, Importance.LOW, "OAuth scope to ask for.");

  static final RegistryKey BEARER_AUTH_SCOPE_CLAIM_NAME =
      key(BEARER_AUTH_SCOPE_CLAIM_NAME_CONFIG, Type.STRING, "scope", Importance.LOW,
            "JWT claim that holds the scope; checked to be a string or a list of strings.");

  static final RegistryKey BEARER_AUTH_SUB_CLAIM_NAME =
      key(BEARER_AUTH_SUB_CLAIM_NAME_CONFIG, Type.STRING, "sub", Importance.LOW,
            "JWT claim that names the subject; checked to be a non-empty string.");

  static final RegistryKey BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS =
      key(BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG, Type.SHORT,
            (short) 300, Importance.LOW,
            "Seconds before its expiry an OAuth token is replaced, ahead of time; a token that lives shorter is "
            + "replaced after 80% of its life.");

  static final RegistryKey BEARER_AUTH_LOGICAL_CLUSTER =
      key(BEARER_AUTH_LOGICAL_CLUSTER_CONFIG, Type.STRING, null, Importance.LOW,
            "With bearer auth, sent as the target-sr-cluster header (Confluent Cloud's logical cluster).");

  static final RegistryKey BEARER_AUTH_IDENTITY_POOL_ID =
      key(BEARER_AUTH_IDENTITY_POOL_ID_CONFIG, Type.STRING, null, Importance.LOW,
            "With bearer auth, sent as the Confluent-Identity-Pool-Id header.");

  static final RegistryKey BEARER_AUTH_CUSTOM_PROVIDER_CLASS =
      key(BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG, Type.STRING, null, Importance.LOW,
            "An io.kavro.registry.config.BearerTokenProvider (name or Class), for bearer.auth.credentials.source="
            + "CUSTOM; configured with the whole configuration.");

  static final RegistryKey PROXY_HOST =
      key(PROXY_HOST_CONFIG, Type.STRING, "", Importance.LOW, "HTTP proxy host for the registry's requests.");

  static final RegistryKey PROXY_PORT =
      key(PROXY_PORT_CONFIG, Type.INT, -1, Importance.LOW, "HTTP proxy port; needs proxy.host.");

  static final RegistryKey SSL_TRUSTSTORE_LOCATION =
      key(SSL_TRUSTSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Truststore file for the registry's TLS certificate; JDK defaults when unset.");

  static final RegistryKey SSL_TRUSTSTORE_PASSWORD =
      key(SSL_TRUSTSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Truststore password.");

  static final RegistryKey SSL_TRUSTSTORE_TYPE =
      choice(SSL_TRUSTSTORE_TYPE_CONFIG, List.of("JKS", "PKCS12", "PEM"), "JKS",
            Importance.LOW,
            "JKS, PKCS12 or PEM (certificates in truststore.certificates, or in the truststore.location file).");

  static final RegistryKey SSL_TRUSTSTORE_CERTIFICATES =
      key(SSL_TRUSTSTORE_CERTIFICATES_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "Trusted certificates as PEM text; needs truststore.type=PEM.");

  static final RegistryKey SSL_KEYSTORE_LOCATION =
      key(SSL_KEYSTORE_LOCATION_CONFIG, Type.STRING, null, Importance.MEDIUM,
            "Keystore file with a client certificate, for mutual TLS.");

  static final RegistryKey SSL_KEYSTORE_PASSWORD =
      key(SSL_KEYSTORE_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM, "Keystore password.");

  static final RegistryKey SSL_KEYSTORE_TYPE =
      choice(SSL_KEYSTORE_TYPE_CONFIG, List.of("JKS", "PKCS12", "PEM"), "JKS",
            Importance.LOW,
            "JKS, PKCS12 or PEM (keystore.key with keystore.certificate.chain, or both in the keystore.location "
            + "file).");

  static final RegistryKey SSL_KEYSTORE_KEY =
      key(SSL_KEYSTORE_KEY_CONFIG, Type.PASSWORD, null, Importance.LOW, "The client's PKCS#8 private key as "
            + "PEM text, plain or encrypted with ssl.key.password; needs keystore.type=PEM.");

  static final RegistryKey SSL_KEYSTORE_CERTIFICATE_CHAIN =
      key(SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, Type.PASSWORD, null, Importance.LOW,
            "The client's certificate chain as PEM text; needs keystore.type=PEM.");

  static final RegistryKey SSL_PROTOCOL =
      key(SSL_PROTOCOL_CONFIG, Type.STRING, "TLSv1.3", Importance.LOW, "The SSLContext protocol.");

  static final RegistryKey SSL_ENABLED_PROTOCOLS =
      key(SSL_ENABLED_PROTOCOLS_CONFIG, Type.LIST, "TLSv1.2,TLSv1.3", Importance.LOW,
            "TLS versions offered to the registry.");

  static final RegistryKey SSL_CIPHER_SUITES =
      key(SSL_CIPHER_SUITES_CONFIG, Type.LIST, "", Importance.LOW, "Cipher suites offered; empty for the "
            + "JDK's.");

  static final RegistryKey SSL_KEY_PASSWORD = key(SSL_KEY_PASSWORD_CONFIG, Type.PASSWORD, null, Importance.MEDIUM,
            "Password of the private key in the keystore; the keystore password when unset.");

  static final RegistryKey SSL_ENDPOINT_IDENTIFICATION_ALGORITHM =
      choice(SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG, List.of("https", ""), "https",
            Importance.LOW,
            "'https' verifies that the registry's certificate matches its host name; an empty value turns the "
            + "check off.");

  static final RegistryKey SCHEMA_CACHE_DIR =
      kavroKey(SCHEMA_CACHE_DIR_CONFIG, Type.STRING, null, Importance.LOW, "Folder where schemas fetched by id "
            + "are also kept on disk, so that a consumer restarted while the registry is down still decodes "
            + "every id it saw before. Unset: memory only.");

  static final RegistryKey SCHEMA_REGISTRY_API =
      new RegistryKey(SCHEMA_REGISTRY_API_CONFIG, Type.STRING, RegistryApi.CONFLUENT.configName(),
          RegistryApi.configNames(), null, Importance.MEDIUM, "The protocol the registry at schema.registry.url "
            + "speaks: 'confluent', Confluent's REST API (Confluent, Apicurio's ccompat API, Karapace, Redpanda), "
            + "or 'schema-repo', the AVRO-1124 schema repository, whose schema ids count per subject: its "
            + "deserializer then takes the subject from the topic (TopicNameStrategy only).", true);

  static final RegistryKey SCHEMA_REPO_VALIDATORS =
      kavroKey(SCHEMA_REPO_VALIDATORS_CONFIG, Type.LIST, "", Importance.LOW, "With schema.registry.api="
            + "schema-repo: the names of the repository's validators (its schema-repo.validator.<name> settings) "
            + "that a subject Kavro creates checks new schemas with; the repository cannot change them later. "
            + "Empty: the subject takes any schema. A stock schema-repo 0.1.2 knows no validator but repo.reject, "
            + "and ignores a name it does not know: the subject then takes any schema too.");

  /** Every key of the registry client, in the order of its documentation. */
  public static final List<RegistryKey> ALL = List.of(
      SCHEMA_REGISTRY_URL, SCHEMA_REGISTRY_URL_RANDOMIZE, MAX_SCHEMAS_PER_SUBJECT, LATEST_CACHE_TTL_SEC,
      LATEST_CACHE_SIZE, MISSING_ID_CACHE_TTL_SEC, MISSING_CACHE_SIZE, SUBJECTS_CACHE_SIZE,
      CONTEXTS_CACHE_SIZE, NORMALIZE_SCHEMAS, RULES_IGNORE, MAX_RETRIES,
      RETRIES_WAIT_MS, RETRIES_MAX_WAIT_MS, HTTP_CONNECT_TIMEOUT_MS, HTTP_READ_TIMEOUT_MS,
      BASIC_AUTH_CREDENTIALS_SOURCE, BASIC_AUTH_USER_INFO, SCHEMA_REGISTRY_USER_INFO, BEARER_AUTH_CREDENTIALS_SOURCE,
      BEARER_AUTH_TOKEN, BEARER_AUTH_ISSUER_ENDPOINT_URL, BEARER_AUTH_CLIENT_ID, BEARER_AUTH_CLIENT_SECRET,
      BEARER_AUTH_SCOPE, BEARER_AUTH_SCOPE_CLAIM_NAME, BEARER_AUTH_SUB_CLAIM_NAME,
      BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS, BEARER_AUTH_LOGICAL_CLUSTER, BEARER_AUTH_IDENTITY_POOL_ID,
      BEARER_AUTH_CUSTOM_PROVIDER_CLASS, PROXY_HOST, PROXY_PORT, SSL_TRUSTSTORE_LOCATION, SSL_TRUSTSTORE_PASSWORD,
      SSL_TRUSTSTORE_TYPE, SSL_TRUSTSTORE_CERTIFICATES, SSL_KEYSTORE_LOCATION, SSL_KEYSTORE_PASSWORD,
      SSL_KEYSTORE_TYPE, SSL_KEYSTORE_KEY, SSL_KEYSTORE_CERTIFICATE_CHAIN, SSL_PROTOCOL, SSL_ENABLED_PROTOCOLS,
      SSL_CIPHER_SUITES, SSL_KEY_PASSWORD, SSL_ENDPOINT_IDENTIFICATION_ALGORITHM, SCHEMA_CACHE_DIR,
      SCHEMA_REGISTRY_API, SCHEMA_REPO_VALIDATORS);

  /**
   * Checks a value of this key as the client reads it: one of {@link #allowed()} in any case, and a number at
   * least {@link #atLeast()}. {@code null} (the key absent) passes: the default applies.
   *
   * @throws RegistryConfigException naming the key, and the allowed values or the bound
   */
  public void check(Object value) {
    if (value == null) {
      return;
    }
    if (!allowed.isEmpty()) {
      String upper = text(value).toUpperCase(Locale.ROOT);
      if (CONFLUENT_ONLY.contains(upper)) {
        throw RegistryConfigParser.invalid(name, upper, "Confluent's " + upper + " is not supported by Kavro; "
            + "use one of " + allowed);
      }
      if (allowed.stream().noneMatch(upper::equalsIgnoreCase)) {
        throw RegistryConfigParser.invalid(name, value, "must be one of " + allowed);
      }
    }
    if (atLeast != null && value instanceof Number number && number.longValue() < atLeast) {
      throw RegistryConfigParser.invalid(name, value, "Value must be at least " + atLeast);
    }
  }

  /** The default of an {@code INT} or {@code SHORT} key. */
  int intDefault() {
    return ((Number) defaultValue).intValue();
  }

  /** The default of a {@code LONG} key. */
  long longDefault() {
    return ((Number) defaultValue).longValue();
  }

  /** The default of a {@code STRING} key, or {@code null}. */
  String stringDefault() {
    return (String) defaultValue;
  }

  private static String text(Object value) {
    return (value instanceof Secret secret ? secret.value() : value.toString()).trim();
  }

  private static RegistryKey key(String name, Type type, Object defaultValue, Importance importance, String doc) {
    return new RegistryKey(name, type, defaultValue, List.of(), null, importance, doc, false);
  }

  private static RegistryKey kavroKey(String name, Type type, Object defaultValue, Importance importance,
      String doc) {
    return new RegistryKey(name, type, defaultValue, List.of(), null, importance, doc, true);
  }

  private static RegistryKey bounded(String name, Type type, Number defaultValue, long atLeast,
      Importance importance, String doc) {
    return new RegistryKey(name, type, defaultValue, List.of(), atLeast, importance, doc, false);
  }

  private static RegistryKey choice(String name, List<String> allowed, String defaultValue, Importance importance,
      String doc) {
    return new RegistryKey(name, Type.STRING, defaultValue, allowed, null, importance, doc, false);
  }
}
