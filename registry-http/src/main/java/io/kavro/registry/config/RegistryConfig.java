package io.kavro.registry.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
 *     when none is configured, which {@link io.kavro.registry.factory.SchemaRegistryClients#create} refuses
 * @param urlRandomize whether each client starts at a random one of the URLs (then fails over in order), to
 *     spread clients that share a configuration
 * @param maxSchemasPerSubject bound on each schema cache
 * @param latestCacheTtl how long a subject's latest version is served before a background refresh;
 *     {@link #NO_EXPIRY} (Confluent's {@code -1}, the default) to keep it
 * @param latestCacheSize bound on the latest versions kept
 * @param missingIdCacheTtl how long an unknown schema id is remembered as missing; zero when it is not
 * @param missingCacheSize bound on the ids remembered as missing
 * @param subjectsCacheSize with a registry whose ids count per subject (schema-repo): bound on the subjects whose
 *     caches a client keeps ({@code schema.registry.subjects.cache.size})
 * @param contextsCacheSize bound on the schema contexts whose caches a client keeps
 *     ({@code schema.registry.contexts.cache.size})
 * @param normalizeSchemas whether the registry normalizes schemas on register and lookup
 * @param ignoreRules whether schemas are used as if they had no data contract rules ({@code ruleSet}); when not
 *     (the default), the serde runs them, and refuses one it cannot run with {@link
 *     io.kavro.registry.UnsupportedRulesException}
 * @param maxRetries how many times a failed request is repeated
 * @param retriesWait base of the exponential backoff
 * @param retriesMaxWait cap of one backoff wait
 * @param connectTimeout timeout to connect
 * @param readTimeout timeout to read an answer
 * @param basicAuthFromUserInfo whether basic auth credentials come from {@code basicAuthUserInfo} rather than
 *     the URLs
 * @param basicAuthUserInfo {@code user:password}, or {@code null}
 * @param bearerToken a static bearer token, or {@code null}
 * @param oauth OAuth client credentials that fetch bearer tokens, or {@code null}
 * @param bearerTokenProvider the application's source of bearer tokens, or {@code null}
 * @param requestHeaders headers sent with every request ({@code request.header.*}, and the Confluent Cloud
 *     headers {@code target-sr-cluster} and {@code Confluent-Identity-Pool-Id} of
 *     {@code bearer.auth.logical.cluster} and {@code bearer.auth.identity.pool.id})
 * @param proxy an HTTP proxy ({@code proxy.host}, {@code proxy.port}), or {@code null} to connect directly
 * @param tls trust, client keys and hostname checks
 * @param schemaCacheDir folder of the on-disk schema cache, or {@code null}
 * @param api the protocol the registry speaks
 * @param schemaRepoValidators with {@link RegistryApi#SCHEMA_REPO}: the validators of the subjects Kavro creates
 */
public record RegistryConfig(
    List<String> urls,
    boolean urlRandomize,
    int maxSchemasPerSubject,
    Duration latestCacheTtl,
    int latestCacheSize,
    Duration missingIdCacheTtl,
    int missingCacheSize,
    int subjectsCacheSize,
    int contextsCacheSize,
    boolean normalizeSchemas,
    boolean ignoreRules,
    int maxRetries,
    Duration retriesWait,
    Duration retriesMaxWait,
    Duration connectTimeout,
    Duration readTimeout,
    boolean basicAuthFromUserInfo,
    Secret basicAuthUserInfo,
    Secret bearerToken,
    OAuthSettings oauth,
    BearerTokenProvider bearerTokenProvider,
    Map<String, String> requestHeaders,
    java.net.InetSocketAddress proxy,
    Tls tls,
    Path schemaCacheDir,
    RegistryApi api,
    List<String> schemaRepoValidators) {

  public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
  public static final String SCHEMA_REGISTRY_URL_RANDOMIZE_CONFIG = "schema.registry.url.randomize";
  public static final String MAX_SCHEMAS_PER_SUBJECT_CONFIG = "max.schemas.per.subject";
  public static final String LATEST_CACHE_TTL_SEC_CONFIG = "latest.cache.ttl.sec";
  public static final String LATEST_CACHE_SIZE_CONFIG = "latest.cache.size";
  public static final String MISSING_ID_CACHE_TTL_SEC_CONFIG = "missing.id.cache.ttl.sec";
  public static final String MISSING_CACHE_SIZE_CONFIG = "missing.cache.size";
  public static final String NORMALIZE_SCHEMAS_CONFIG = "normalize.schemas";
  /** Kavro's own key: use schemas with data contract rules as if they had none (Kavro runs no rules). */
  public static final String RULES_IGNORE_CONFIG = "rules.ignore";
  public static final String MAX_RETRIES_CONFIG = "max.retries";
  public static final String RETRIES_WAIT_MS_CONFIG = "retries.wait.ms";
  public static final String RETRIES_MAX_WAIT_MS_CONFIG = "retries.max.wait.ms";
  public static final String HTTP_CONNECT_TIMEOUT_MS_CONFIG = "http.connect.timeout.ms";
  public static final String HTTP_READ_TIMEOUT_MS_CONFIG = "http.read.timeout.ms";
  public static final String BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG = "basic.auth.credentials.source";
  public static final String BASIC_AUTH_USER_INFO_CONFIG = "basic.auth.user.info";
  public static final String BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG = "bearer.auth.credentials.source";
  public static final String BEARER_AUTH_TOKEN_CONFIG = "bearer.auth.token";
  public static final String BEARER_AUTH_ISSUER_ENDPOINT_URL_CONFIG = "bearer.auth.issuer.endpoint.url";
  public static final String BEARER_AUTH_CLIENT_ID_CONFIG = "bearer.auth.client.id";
  public static final String BEARER_AUTH_CLIENT_SECRET_CONFIG = "bearer.auth.client.secret";
  public static final String BEARER_AUTH_SCOPE_CONFIG = "bearer.auth.scope";
  public static final String BEARER_AUTH_SCOPE_CLAIM_NAME_CONFIG = "bearer.auth.scope.claim.name";
  public static final String BEARER_AUTH_SUB_CLAIM_NAME_CONFIG = "bearer.auth.sub.claim.name";
  public static final String BEARER_AUTH_CACHE_EXPIRY_BUFFER_SECONDS_CONFIG =
      "bearer.auth.cache.expiry.buffer.seconds";
  public static final String BEARER_AUTH_LOGICAL_CLUSTER_CONFIG = "bearer.auth.logical.cluster";
  public static final String BEARER_AUTH_IDENTITY_POOL_ID_CONFIG = "bearer.auth.identity.pool.id";
  public static final String BEARER_AUTH_CUSTOM_PROVIDER_CLASS_CONFIG = "bearer.auth.custom.provider.class";
  /** Confluent's deprecated name of {@link #BASIC_AUTH_USER_INFO_CONFIG}; it wins when both are set. */
  public static final String SCHEMA_REGISTRY_USER_INFO_CONFIG = "schema.registry.basic.auth.user.info";
  /** The Kafka client's JAAS configuration, read for {@code basic.auth.credentials.source=SASL_INHERIT}. */
  public static final String SASL_JAAS_CONFIG = "sasl.jaas.config";
  public static final String PROXY_HOST_CONFIG = "proxy.host";
  public static final String PROXY_PORT_CONFIG = "proxy.port";
  /** Prefix of custom headers: {@code request.header.X-Team=payments} sends {@code X-Team: payments}. */
  public static final String REQUEST_HEADER_PREFIX = "request.header.";
  /** Header of {@code bearer.auth.logical.cluster}, as Confluent Cloud expects it. */
  public static final String LOGICAL_CLUSTER_HEADER = "target-sr-cluster";
  /** Header of {@code bearer.auth.identity.pool.id}, as Confluent Cloud expects it. */
  public static final String IDENTITY_POOL_HEADER = "Confluent-Identity-Pool-Id";
  public static final String SSL_PREFIX = "schema.registry.ssl.";
  public static final String SSL_TRUSTSTORE_LOCATION_CONFIG = SSL_PREFIX + "truststore.location";
  public static final String SSL_TRUSTSTORE_PASSWORD_CONFIG = SSL_PREFIX + "truststore.password";
  public static final String SSL_TRUSTSTORE_TYPE_CONFIG = SSL_PREFIX + "truststore.type";
  public static final String SSL_KEYSTORE_LOCATION_CONFIG = SSL_PREFIX + "keystore.location";
  public static final String SSL_KEYSTORE_PASSWORD_CONFIG = SSL_PREFIX + "keystore.password";
  public static final String SSL_KEYSTORE_TYPE_CONFIG = SSL_PREFIX + "keystore.type";
  public static final String SSL_KEY_PASSWORD_CONFIG = SSL_PREFIX + "key.password";
  public static final String SSL_TRUSTSTORE_CERTIFICATES_CONFIG = SSL_PREFIX + "truststore.certificates";
  public static final String SSL_KEYSTORE_KEY_CONFIG = SSL_PREFIX + "keystore.key";
  public static final String SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG = SSL_PREFIX + "keystore.certificate.chain";
  public static final String SSL_PROTOCOL_CONFIG = SSL_PREFIX + "protocol";
  public static final String SSL_ENABLED_PROTOCOLS_CONFIG = SSL_PREFIX + "enabled.protocols";
  public static final String SSL_CIPHER_SUITES_CONFIG = SSL_PREFIX + "cipher.suites";
  public static final String SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG =
      SSL_PREFIX + "endpoint.identification.algorithm";
  public static final String SCHEMA_CACHE_DIR_CONFIG = "schema.cache.dir";
  public static final String SCHEMA_REGISTRY_API_CONFIG = "schema.registry.api";
  public static final String SCHEMA_REPO_VALIDATORS_CONFIG = "schema.repo.validators";
  public static final String SUBJECTS_CACHE_SIZE_CONFIG = "schema.registry.subjects.cache.size";
  public static final String CONTEXTS_CACHE_SIZE_CONFIG = "schema.registry.contexts.cache.size";

  /** Scheme of the in-memory registry. */
  public static final String MOCK_SCHEME = "mock://";

  /** A {@link #latestCacheTtl()} that never expires: {@code latest.cache.ttl.sec} at {@code -1}. */
  public static final Duration NO_EXPIRY = java.time.temporal.ChronoUnit.FOREVER.getDuration();

  /** A word with a scheme, for {@link #redactUrls(String)}: what may carry user info. */
  private static final Pattern URL_WORD = Pattern.compile("\\S+://\\S+");

  /**
   * Every setting at its default (Confluent's, where Confluent has the key), and no URL: the defaults of the
   * table of keys, {@link RegistryKey#ALL}.
   */
  public static final RegistryConfig DEFAULTS = RegistryConfigParser.parse(Map.of());

  /**
   * TLS settings for the registry's connections.
   *
   * @param truststoreLocation truststore file (a PEM file with type {@code PEM}), or {@code null}
   * @param truststorePassword its password, or {@code null}
   * @param truststoreType {@code JKS}, {@code PKCS12} or {@code PEM}
   * @param truststoreCertificates trusted certificates as PEM text (type {@code PEM}), or {@code null}
   * @param keystoreLocation keystore with a client certificate (mutual TLS), or {@code null}
   * @param keystorePassword its password, or {@code null}
   * @param keystoreType {@code JKS}, {@code PKCS12} or {@code PEM}
   * @param keystoreKey the client's PKCS#8 private key as PEM text (type {@code PEM}), or {@code null}
   * @param keystoreCertificateChain the client's certificate chain as PEM text (type {@code PEM}), or
   *     {@code null}
   * @param keyPassword the private key's password (of an encrypted PEM key too), or {@code null} for the
   *     keystore's
   * @param verifyHostname whether the certificate must match the registry's host name
   * @param protocol the {@code SSLContext} protocol (Kafka's default {@code TLSv1.3})
   * @param enabledProtocols the TLS versions offered (Kafka's default {@code TLSv1.2}, {@code TLSv1.3})
   * @param cipherSuites the cipher suites offered; empty for the JDK's
   */
  public record Tls(String truststoreLocation, Secret truststorePassword, String truststoreType,
      String truststoreCertificates, String keystoreLocation, Secret keystorePassword, String keystoreType,
      Secret keystoreKey, String keystoreCertificateChain, Secret keyPassword, boolean verifyHostname,
      String protocol, List<String> enabledProtocols, List<String> cipherSuites) {

    /** The JDK's trust, no client keys, host names checked, TLS 1.2 and 1.3: the table's defaults. */
    public static final Tls DEFAULT = RegistryConfigParser.tls(Map.of());

    /** Checks the store types, and that PEM text comes with the PEM type, as Kafka's clients check it. */
    public Tls {
      truststoreType = storeType(RegistryKey.SSL_TRUSTSTORE_TYPE, truststoreType);
      keystoreType = storeType(RegistryKey.SSL_KEYSTORE_TYPE, keystoreType);
      enabledProtocols = List.copyOf(enabledProtocols);
      cipherSuites = List.copyOf(cipherSuites);
      Objects.requireNonNull(protocol, SSL_PROTOCOL_CONFIG);
      if (truststoreCertificates != null && !truststoreType.equals("PEM")) {
        throw new RegistryConfigException(SSL_TRUSTSTORE_CERTIFICATES_CONFIG, SSL_TRUSTSTORE_CERTIFICATES_CONFIG
            + " needs " + SSL_TRUSTSTORE_TYPE_CONFIG + "=PEM");
      }
      if (truststoreCertificates != null && truststoreLocation != null) {
        throw new RegistryConfigException(SSL_TRUSTSTORE_CERTIFICATES_CONFIG, "Set "
            + SSL_TRUSTSTORE_CERTIFICATES_CONFIG + " or " + SSL_TRUSTSTORE_LOCATION_CONFIG + ", not both");
      }
      if ((keystoreKey != null || keystoreCertificateChain != null) && !keystoreType.equals("PEM")) {
        throw new RegistryConfigException(SSL_KEYSTORE_KEY_CONFIG, SSL_KEYSTORE_KEY_CONFIG + " and "
            + SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG + " need " + SSL_KEYSTORE_TYPE_CONFIG + "=PEM");
      }
      if ((keystoreKey == null) != (keystoreCertificateChain == null)) {
        throw new RegistryConfigException(keystoreKey == null ? SSL_KEYSTORE_KEY_CONFIG
            : SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG, SSL_KEYSTORE_KEY_CONFIG + " and "
            + SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG + " must be set together");
      }
      if (keystoreKey != null && keystoreLocation != null) {
        throw new RegistryConfigException(SSL_KEYSTORE_KEY_CONFIG, "Set " + SSL_KEYSTORE_KEY_CONFIG + " or "
            + SSL_KEYSTORE_LOCATION_CONFIG + ", not both");
      }
    }

    /** Whether trust or client keys are configured, rather than the JDK's trust and no client keys. */
    public boolean hasStores() {
      return truststoreLocation != null || truststoreCertificates != null || keystoreLocation != null
          || keystoreKey != null;
    }

    private static String storeType(RegistryKey key, String type) {
      Objects.requireNonNull(type, key.name());
      key.check(type);
      return type.toUpperCase(java.util.Locale.ROOT);
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
    RegistryKey.MAX_SCHEMAS_PER_SUBJECT.check(maxSchemasPerSubject);
    if (!latestCacheTtl.equals(NO_EXPIRY) && latestCacheTtl.toSeconds() < 1) {
      // Negative seconds mean no expiry, so 0 is the one value refused.
      throw RegistryConfigParser.invalid(LATEST_CACHE_TTL_SEC_CONFIG, latestCacheTtl.toSeconds(),
          "Value must be at least 1");
    }
    RegistryKey.LATEST_CACHE_SIZE.check(latestCacheSize);
    RegistryKey.MISSING_ID_CACHE_TTL_SEC.check(missingIdCacheTtl.toSeconds());
    RegistryKey.MISSING_CACHE_SIZE.check(missingCacheSize);
    RegistryKey.SUBJECTS_CACHE_SIZE.check(subjectsCacheSize);
    RegistryKey.CONTEXTS_CACHE_SIZE.check(contextsCacheSize);
    RegistryKey.MAX_RETRIES.check(maxRetries);
    RegistryKey.RETRIES_WAIT_MS.check(retriesWait.toMillis());
    RegistryKey.RETRIES_MAX_WAIT_MS.check(retriesMaxWait.toMillis());
    RegistryKey.HTTP_CONNECT_TIMEOUT_MS.check(connectTimeout.toMillis());
    RegistryKey.HTTP_READ_TIMEOUT_MS.check(readTimeout.toMillis());
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
    Objects.requireNonNull(api, SCHEMA_REGISTRY_API_CONFIG);
    schemaRepoValidators = List.copyOf(schemaRepoValidators);
    if (mock && api != RegistryApi.CONFLUENT) {
      throw new RegistryConfigException(SCHEMA_REGISTRY_API_CONFIG, "Invalid value " + api.configName()
          + " for configuration " + SCHEMA_REGISTRY_API_CONFIG + ": a mock:// registry speaks Confluent's API only");
    }
    for (String validator : schemaRepoValidators) {
      if (validator.isBlank() || validator.contains(",")) {
        throw new RegistryConfigException(SCHEMA_REPO_VALIDATORS_CONFIG, "Invalid value '" + validator
            + "' in configuration " + SCHEMA_REPO_VALIDATORS_CONFIG + ": a validator name is a non-empty word");
      }
    }
    requestHeaders = Map.copyOf(requestHeaders);
    for (String name : requestHeaders.keySet()) {
      if (java.util.Set.of("authorization", "accept", "content-type", "content-length", "host")
          .contains(name.toLowerCase(java.util.Locale.ROOT))) {
        throw new RegistryConfigException(REQUEST_HEADER_PREFIX + name, "Invalid configuration "
            + REQUEST_HEADER_PREFIX + name + ": the client sets the " + name + " header itself");
      }
      checkHeader(name, requestHeaders.get(name));
    }
    int bearerSources = (bearerToken != null ? 1 : 0) + (oauth != null ? 1 : 0) + (bearerTokenProvider != null ? 1 : 0);
    if (bearerSources > 1) {
      throw new RegistryConfigException(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, "Only one bearer token source can "
          + "be used: a static token, OAuth client credentials or a custom provider");
    }
    if (bearerSources > 0 && basicAuthFromUserInfo) {
      throw new RegistryConfigException(BEARER_AUTH_CREDENTIALS_SOURCE_CONFIG, "Basic auth ("
          + BASIC_AUTH_CREDENTIALS_SOURCE_CONFIG + ") and bearer auth cannot both be used");
    }
  }

  /** Whether requests carry a bearer token, whatever its source. */
  public boolean usesBearerAuth() {
    return bearerToken != null || oauth != null || bearerTokenProvider != null;
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
    return new Builder(DEFAULTS);
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
    if (scheme >= 0 && at > scheme) {
      return url.substring(0, scheme + 3) + url.substring(at + 1);
    }
    // A URL given without a scheme ("alice:pw@host:8081"): one word, its user info before the '@'.
    if (scheme < 0 && at > 0 && url.chars().noneMatch(Character::isWhitespace)) {
      return url.substring(at + 1);
    }
    return url;
  }

  /**
   * {@code text} with each word that holds {@code ://} (a URL) {@linkplain #redact(String) redacted}, every other
   * word as it is: for a message that may quote a URL with its user info. Only such words are rewritten, so an
   * {@code @} elsewhere (a subject {@code team@corp-value}, an address) is kept.
   *
   * @param text a message
   * @return the message without the user info of its URLs
   */
  public static String redactUrls(String text) {
    Matcher url = URL_WORD.matcher(text);
    StringBuilder redacted = new StringBuilder(text.length());
    while (url.find()) {
      url.appendReplacement(redacted, Matcher.quoteReplacement(redact(url.group())));
    }
    return url.appendTail(redacted).toString();
  }

  /**
   * A header name must be an HTTP token and a value printable ASCII (or tabs): anything else, a line break
   * above all, is refused here, naming the key, never showing the value, which may be a secret.
   */
  private static void checkHeader(String name, String value) {
    String key = REQUEST_HEADER_PREFIX + name;
    String separators = "\"(),/:;<=>?@[\\]{}";
    if (name.isEmpty() || !name.chars().allMatch(c -> c > 0x20 && c < 0x7f && separators.indexOf(c) < 0)) {
      throw new RegistryConfigException(key, "Invalid configuration " + key + ": a header name is letters, digits "
          + "and !#$%&'*+-.^_`|~ only");
    }
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c != '\t' && (c < 0x20 || c >= 0x7f)) {
        throw new RegistryConfigException(key, "Invalid configuration " + key + ": its value has a character a "
            + "header cannot carry (a line break, a control or a non-ASCII character) at position " + i
            + "; the value is not shown");
      }
    }
  }

  /** Shows every setting, with the URLs' user info and the secrets hidden. */
  @Override
  public String toString() {
    return "RegistryConfig[urls=" + urls.stream().map(RegistryConfig::redact).toList()
        + ", urlRandomize=" + urlRandomize + ", maxSchemasPerSubject=" + maxSchemasPerSubject + ", latestCacheTtl=" + latestCacheTtl
        + ", latestCacheSize=" + latestCacheSize + ", missingIdCacheTtl=" + missingIdCacheTtl + ", missingCacheSize=" + missingCacheSize
        + ", subjectsCacheSize=" + subjectsCacheSize + ", contextsCacheSize=" + contextsCacheSize
        + ", normalizeSchemas=" + normalizeSchemas + ", ignoreRules=" + ignoreRules + ", maxRetries=" + maxRetries + ", retriesWait=" + retriesWait
        + ", retriesMaxWait=" + retriesMaxWait + ", connectTimeout=" + connectTimeout + ", readTimeout="
        + readTimeout + ", basicAuthFromUserInfo=" + basicAuthFromUserInfo + ", basicAuthUserInfo="
        + basicAuthUserInfo + ", bearerToken=" + bearerToken + ", oauth=" + oauth + ", bearerTokenProvider="
        + (bearerTokenProvider == null ? null : bearerTokenProvider.getClass().getName()) + ", requestHeaders="
        + requestHeaders.keySet() + ", proxy=" + proxy + ", tls=" + tls + ", schemaCacheDir="
        + schemaCacheDir + ", api=" + api.configName() + ", schemaRepoValidators=" + schemaRepoValidators + "]";
  }

  /** Builds a {@link RegistryConfig}; starts from the defaults or from a configuration. Not thread-safe. */
  public static final class Builder {
    private List<String> urls;
    private boolean urlRandomize;
    private int maxSchemasPerSubject;
    private Duration latestCacheTtl;
    private int latestCacheSize;
    private Duration missingIdCacheTtl;
    private int missingCacheSize;
    private int subjectsCacheSize;
    private int contextsCacheSize;
    private boolean normalizeSchemas;
    private boolean ignoreRules;
    private int maxRetries;
    private Duration retriesWait;
    private Duration retriesMaxWait;
    private Duration connectTimeout;
    private Duration readTimeout;
    private boolean basicAuthFromUserInfo;
    private Secret basicAuthUserInfo;
    private Secret bearerToken;
    private OAuthSettings oauth;
    private BearerTokenProvider bearerTokenProvider;
    private Map<String, String> requestHeaders;
    private java.net.InetSocketAddress proxy;
    private Tls tls;
    private Path schemaCacheDir;
    private RegistryApi api;
    private List<String> schemaRepoValidators;

    /** Every setting unset: for the parser, which sets them all from the table of keys. */
    Builder() {}

    private Builder(RegistryConfig config) {
      urls = config.urls;
      urlRandomize = config.urlRandomize;
      maxSchemasPerSubject = config.maxSchemasPerSubject;
      latestCacheTtl = config.latestCacheTtl;
      latestCacheSize = config.latestCacheSize;
      missingIdCacheTtl = config.missingIdCacheTtl;
      missingCacheSize = config.missingCacheSize;
      subjectsCacheSize = config.subjectsCacheSize;
      contextsCacheSize = config.contextsCacheSize;
      normalizeSchemas = config.normalizeSchemas;
      ignoreRules = config.ignoreRules;
      maxRetries = config.maxRetries;
      retriesWait = config.retriesWait;
      retriesMaxWait = config.retriesMaxWait;
      connectTimeout = config.connectTimeout;
      readTimeout = config.readTimeout;
      basicAuthFromUserInfo = config.basicAuthFromUserInfo;
      basicAuthUserInfo = config.basicAuthUserInfo;
      bearerToken = config.bearerToken;
      oauth = config.oauth;
      bearerTokenProvider = config.bearerTokenProvider;
      requestHeaders = config.requestHeaders;
      proxy = config.proxy;
      api = config.api;
      schemaRepoValidators = config.schemaRepoValidators;
      tls = config.tls;
      schemaCacheDir = config.schemaCacheDir;
    }

    public Builder urls(List<String> urls) {
      this.urls = urls;
      return this;
    }

    public Builder urlRandomize(boolean urlRandomize) {
      this.urlRandomize = urlRandomize;
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

    public Builder subjectsCacheSize(int subjectsCacheSize) {
      this.subjectsCacheSize = subjectsCacheSize;
      return this;
    }

    public Builder contextsCacheSize(int contextsCacheSize) {
      this.contextsCacheSize = contextsCacheSize;
      return this;
    }

    public Builder normalizeSchemas(boolean normalizeSchemas) {
      this.normalizeSchemas = normalizeSchemas;
      return this;
    }

    public Builder ignoreRules(boolean ignoreRules) {
      this.ignoreRules = ignoreRules;
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

    public Builder oauth(OAuthSettings oauth) {
      this.oauth = oauth;
      return this;
    }

    public Builder bearerTokenProvider(BearerTokenProvider bearerTokenProvider) {
      this.bearerTokenProvider = bearerTokenProvider;
      return this;
    }

    /** Headers sent with every request; they may not replace {@code Authorization}, {@code Accept} or the body's. */
    public Builder requestHeaders(Map<String, String> requestHeaders) {
      this.requestHeaders = requestHeaders;
      return this;
    }

    /** An HTTP proxy, or {@code null} to connect directly. */
    public Builder proxy(java.net.InetSocketAddress proxy) {
      this.proxy = proxy;
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

    /** The protocol the registry speaks ({@code schema.registry.api}). */
    public Builder api(RegistryApi api) {
      this.api = api;
      return this;
    }

    /** The validators of the subjects Kavro creates in schema-repo ({@code schema.repo.validators}). */
    public Builder schemaRepoValidators(List<String> schemaRepoValidators) {
      this.schemaRepoValidators = schemaRepoValidators;
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
      return new RegistryConfig(urls, urlRandomize, maxSchemasPerSubject, latestCacheTtl, latestCacheSize, missingIdCacheTtl, missingCacheSize,
          subjectsCacheSize, contextsCacheSize, normalizeSchemas, ignoreRules, maxRetries, retriesWait, retriesMaxWait, connectTimeout, readTimeout,
          basicAuthFromUserInfo, basicAuthUserInfo, bearerToken, oauth, bearerTokenProvider, requestHeaders, proxy,
          tls, schemaCacheDir, api, schemaRepoValidators);
    }
  }
}
