package io.kavro.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.config.BearerTokenProvider;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryConfigException;
import io.kavro.registry.factory.SchemaRegistryClients;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Confluent's client keys for credentials, headers and proxies, with Confluent's meaning ({@code
 * SchemaRegistryClientConfig}, {@code RestService}, {@code SaslBasicAuthCredentialProvider},
 * {@code UserInfoCredentialProvider}), checked on the wire.
 */
class ConfluentAuthKeysTest {
  private static final String SCHEMA = "{\"schema\":\"\\\"string\\\"\"}";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private SchemaRegistryClient client(Object... keyValues) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/").toString());
    config.put("max.retries", 0);
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    return SchemaRegistryClients.create(config);
  }

  private RecordedRequest fetchOne(SchemaRegistryClient client) throws InterruptedException {
    server.enqueue(new MockResponse.Builder().body(SCHEMA).build());
    client.schemaById(1);
    return server.takeRequest(5, TimeUnit.SECONDS);
  }

  private static String basic(String userInfo) {
    return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void saslInherit_takesUserAndPasswordOfTheClientsJaasConfig() throws Exception {
    String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"app-user\" "
        + "password=\"p@ss \\\"quoted\\\"\";";

    RecordedRequest request = fetchOne(client("basic.auth.credentials.source", "SASL_INHERIT",
        "sasl.jaas.config", jaas));

    assertThat(request.getHeaders().get("Authorization")).isEqualTo(basic("app-user:p@ss \"quoted\""));
  }

  @Test
  void saslInherit_withoutUsableJaas_namesTheKey_neverShowsIt() {
    assertThatThrownBy(() -> client("basic.auth.credentials.source", "SASL_INHERIT"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("sasl.jaas.config must be set");
    assertThatThrownBy(() -> client("basic.auth.credentials.source", "SASL_INHERIT", "sasl.jaas.config",
        "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientSecret=\"xyz\";"))
        .isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("no username and password")
        .hasMessageNotContaining("xyz");
  }

  @Test
  void deprecatedUserInfoKey_winsOverTheCurrentOne_asInConfluent() throws Exception {
    RecordedRequest request = fetchOne(client("basic.auth.credentials.source", "USER_INFO",
        "schema.registry.basic.auth.user.info", "old:one", "basic.auth.user.info", "new:two"));

    assertThat(request.getHeaders().get("Authorization")).isEqualTo(basic("old:one"));
  }

  @Test
  void requestHeaders_andConfluentCloudHeaders_areSent() throws Exception {
    RecordedRequest request = fetchOne(client("request.header.X-Team", "payments",
        "bearer.auth.token", "tok", "bearer.auth.logical.cluster", "lsrc-123",
        "bearer.auth.identity.pool.id", "pool-9"));

    assertThat(request.getHeaders().get("X-Team")).isEqualTo("payments");
    assertThat(request.getHeaders().get("target-sr-cluster")).isEqualTo("lsrc-123");
    assertThat(request.getHeaders().get("Confluent-Identity-Pool-Id")).isEqualTo("pool-9");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer tok");
  }

  @Test
  void cloudHeaders_onlyWithBearerAuth_andNoHeaderMayReplaceAuthorization() throws Exception {
    RecordedRequest request = fetchOne(client("bearer.auth.logical.cluster", "lsrc-123"));
    assertThat(request.getHeaders().get("target-sr-cluster")).isNull();

    assertThatThrownBy(() -> client("request.header.Authorization", "Basic x"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("request.header.Authorization");
  }

  /**
   * Issue 22, item 3: a header value OkHttp cannot send (a line break in a pasted key) is refused when the client
   * is made, naming the key and not the value; OkHttp refused it on every request, printing the secret.
   */
  @Test
  void requestHeader_valueWithALineBreakOrNameWithASpace_configErrorHidingTheValue() {
    assertThatThrownBy(() -> client("request.header.X-Api-Key", "s3cret-value\n"))
        .isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("request.header.X-Api-Key").hasMessageContaining("position 12")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> client("request.header.X-Api-Key", "caf\u00e9"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("non-ASCII");
    assertThatThrownBy(() -> client("request.header.X Team", "payments"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("request.header.X Team");
    assertThat(client("request.header.X-Team", "pay\tments")).isNotNull();
  }

  /** A token source whose token has a line break. */
  public static final class BrokenTokens implements BearerTokenProvider {
    @Override
    public String token() {
      return "tok-s3cret\r\nX-Injected: 1";
    }
  }

  /** A token source whose issuer refuses it with 403, as a custom provider may pass it on. */
  public static final class ForbiddenTokens implements BearerTokenProvider {
    @Override
    public String token() {
      throw new RegistryAccessDeniedException("the issuer refused the client with HTTP 403", 403, -1,
          "https://issuer.example/token", null);
    }
  }

  /**
   * A provider's refusal is an {@code OAuthTokenRefusedException} whatever its status: no token could be had, for
   * any request; a 403 of it is never read as the registry's own refusal of one request.
   */
  @Test
  void customProviderRefusal_isARefusedToken_whateverItsStatus() {
    SchemaRegistryClient client = client("bearer.auth.credentials.source", "CUSTOM",
        "bearer.auth.custom.provider.class", ForbiddenTokens.class.getName());

    assertThatThrownBy(() -> client.schemaById(1)).isExactlyInstanceOf(OAuthTokenRefusedException.class)
        .hasMessageContaining("HTTP 403").hasCauseInstanceOf(RegistryAccessDeniedException.class)
        .satisfies(e -> assertThat(((OAuthTokenRefusedException) e).status()).isEqualTo(403));
    assertThat(server.getRequestCount()).isZero();
  }

  /** Nothing unchecked escapes a registry call: a token OkHttp cannot send is a typed failure that hides it. */
  @Test
  void customProviderTokenWithALineBreak_typedFailureHidingTheToken() {
    SchemaRegistryClient client = client("bearer.auth.credentials.source", "CUSTOM",
        "bearer.auth.custom.provider.class", BrokenTokens.class.getName());

    assertThatThrownBy(() -> client.schemaById(1))
        .isExactlyInstanceOf(io.kavro.registry.SchemaRegistryException.class)
        .hasMessageContaining("a header value cannot be sent")
        .hasMessageNotContaining("s3cret").hasNoCause();
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void proxy_requestsGoThroughIt() throws Exception {
    server.enqueue(new MockResponse.Builder().body(SCHEMA).build());
    Map<String, Object> config = Map.of("schema.registry.url", "http://registry.example.invalid:8081",
        "proxy.host", "127.0.0.1", "proxy.port", server.getPort(), "max.retries", 0);

    try (SchemaRegistryClient client = SchemaRegistryClients.create(config)) {
      client.schemaById(1);
    }

    RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
    assertThat(request.getUrl().host()).isEqualTo("registry.example.invalid");
    assertThat(request.getUrl().encodedPath()).isEqualTo("/schemas/ids/1");
  }

  /**
   * The server as an HTTP proxy that answers every request it dispatches with 407 and asks for Basic credentials.
   *
   * @return the methods of the requests it dispatched (not an https registry's CONNECT, which it answers itself)
   */
  private java.util.List<String> proxyWantingCredentials() {
    java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
    server.setDispatcher(new mockwebserver3.Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        asked.add(request.getMethod());
        return new MockResponse.Builder().code(407).setHeader("Proxy-Authenticate", "Basic realm=\"corp\"")
            .body("<html>Proxy Authentication Required</html>").build();
      }
    });
    return asked;
  }

  /**
   * An HTTP proxy that wants credentials (407), which Kavro does not send to a proxy: the deployment's refusal, as a
   * registry's 401, neither retried nor an outage (which Connect's errors.tolerance=all would skip past, record by
   * record); for an {@code https://} registry too, whose tunnel (CONNECT) the proxy refuses.
   */
  @ParameterizedTest
  @ValueSource(strings = {"http://registry.example.invalid:8081", "https://registry.example.invalid"})
  void proxy_askingForCredentials_isAccessDenied_notRetried(String registryUrl) {
    java.util.List<String> asked = proxyWantingCredentials();
    Map<String, Object> config = Map.of("schema.registry.url", registryUrl, "proxy.host", "127.0.0.1",
        "proxy.port", server.getPort(), "retries.wait.ms", 1);

    try (SchemaRegistryClient client = SchemaRegistryClients.create(config)) {
      assertThatThrownBy(() -> client.schemaById(1)).isExactlyInstanceOf(RegistryAccessDeniedException.class)
          .hasMessageContaining("answered 407, Proxy Authentication Required")
          .hasMessageContaining("Kavro sends no credentials to a proxy")
          .satisfies(e -> assertThat(((RegistryAccessDeniedException) e).status()).isEqualTo(407));
    }
    if (registryUrl.startsWith("http:")) {
      assertThat(asked).as("one request, not retried (max.retries is 3)").containsExactly("GET");
    }
    // https: MockWebServer answers the tunnel's CONNECT without its dispatcher. Read as an outage, as OkHttp's own
    // failure for it was, it would end in a RegistryUnavailableException after the retries, not the type above.
  }

  /**
   * An application's shared OkHttp client with a proxy authenticator of its own, which gives up (null): its answer
   * stands, and the 407 reaches the call as an answer, mapped the same way.
   */
  @Test
  void proxy_askingForCredentials_throughASharedClientsAuthenticator_isAccessDenied() {
    proxyWantingCredentials();
    java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
    okhttp3.OkHttpClient shared = new okhttp3.OkHttpClient.Builder().proxyAuthenticator((route, response) -> {
      asked.incrementAndGet();
      return null;
    }).build();
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", "http://registry.example.invalid:8081",
        "proxy.host", "127.0.0.1", "proxy.port", server.getPort(), "retries.wait.ms", 1));

    try (SchemaRegistryClient client = SchemaRegistryClients.create(config, shared)) {
      assertThatThrownBy(() -> client.schemaById(1)).isExactlyInstanceOf(RegistryAccessDeniedException.class)
          .hasMessageContaining("answered 407, Proxy Authentication Required")
          .satisfies(e -> assertThat(((RegistryAccessDeniedException) e).status()).isEqualTo(407));
    } finally {
      shared.dispatcher().executorService().shutdown();
    }
    assertThat(asked).as("the application's authenticator was asked, not replaced").hasValue(1);
    assertThat(server.getRequestCount()).as("not retried").isEqualTo(1);
  }

  /** The OAuth issuer behind the same proxy: no token can be had, for any call (not an outage of the issuer). */
  @Test
  void proxy_askingForCredentials_onTheWayToTheOAuthIssuer_isATokenRefusal() {
    proxyWantingCredentials();
    Map<String, Object> config = Map.of("schema.registry.url", "http://registry.example.invalid:8081",
        "proxy.host", "127.0.0.1", "proxy.port", server.getPort(), "retries.wait.ms", 1,
        "bearer.auth.credentials.source", "OAUTHBEARER", "bearer.auth.issuer.endpoint.url",
        "http://issuer.example.invalid/token", "bearer.auth.client.id", "connect", "bearer.auth.client.secret",
        "s3cret", "bearer.auth.scope", "registry");

    try (SchemaRegistryClient client = SchemaRegistryClients.create(config)) {
      assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(OAuthTokenRefusedException.class)
          .hasMessageContaining("issuer.example.invalid").hasMessageContaining("answered 407")
          .hasMessageNotContaining("s3cret")
          .satisfies(e -> assertThat(((OAuthTokenRefusedException) e).status()).isEqualTo(407));
    }
    assertThat(server.getRequestCount()).as("not retried").isEqualTo(1);
  }

  @Test
  void proxy_hostWithoutPort_configError() {
    assertThatThrownBy(() -> client("proxy.host", "proxy.local"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("proxy.port");
  }

  /** An application's token source, named by class. */
  public static final class AppTokens implements BearerTokenProvider {
    private String prefix;

    @Override
    public void configure(Map<String, ?> configs) {
      prefix = String.valueOf(configs.get("app.token.prefix"));
    }

    @Override
    public String token() {
      return prefix + "-token";
    }
  }

  @Test
  void customProvider_namedByClass_isConfiguredAndAsked() throws Exception {
    RecordedRequest request = fetchOne(client("bearer.auth.credentials.source", "CUSTOM",
        "bearer.auth.custom.provider.class", AppTokens.class.getName(), "app.token.prefix", "team"));

    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Bearer team-token");
    assertThatThrownBy(() -> client("bearer.auth.credentials.source", "CUSTOM"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("bearer.auth.custom.provider.class");
    assertThatThrownBy(() -> client("bearer.auth.credentials.source", "CUSTOM",
        "bearer.auth.custom.provider.class", String.class.getName()))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("does not implement");
  }

  /** A provider whose class cannot be initialised: its static initialiser throws. */
  public static final class UnloadableTokens implements BearerTokenProvider {
    private static final String PREFIX = fail();

    private static String fail() {
      throw new IllegalStateException("no token store");
    }

    @Override
    public String token() {
      return PREFIX;
    }
  }

  @Test
  void customProvider_thatCannotBeLoaded_isAConfigError_namingTheKeyAndTheInterface() {
    assertThatThrownBy(() -> client("bearer.auth.credentials.source", "CUSTOM",
        "bearer.auth.custom.provider.class", UnloadableTokens.class.getName()))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("bearer.auth.custom.provider.class")
        .hasMessageContaining(BearerTokenProvider.class.getName());
  }

  @Test
  void confluentOnlySources_areRefusedByName() {
    assertThatThrownBy(() -> client("bearer.auth.credentials.source", "SASL_OAUTHBEARER_INHERIT"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("not supported by Kavro");
  }

  @Test
  void builder_takesAProviderInstance() throws Exception {
    RegistryConfig config = RegistryConfig.builder().urls(java.util.List.of(server.url("/").toString()))
        .maxRetries(0).bearerTokenProvider(() -> "from-code").build();

    server.enqueue(new MockResponse.Builder().body(SCHEMA).build());
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config)) {
      client.schemaById(1);
    }

    assertThat(server.takeRequest(5, TimeUnit.SECONDS).getHeaders().get("Authorization"))
        .isEqualTo("Bearer from-code");
    assertThat(config.toString()).doesNotContain("from-code");
  }
}
