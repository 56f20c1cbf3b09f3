package io.kavro.registry.internal.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.config.OAuthSettings;
import io.kavro.registry.config.Secret;
import io.kavro.registry.internal.http.RetryPolicy;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/**
 * OAuth client credentials against a real token endpoint (MockWebServer): issue, caching until the expiry
 * buffer, refresh ahead of expiry, a 401 that fetches a new token, an endpoint that is down, and secrets kept
 * out of logs and exception chains.
 */
class OAuthTokenSourceTest {
  private static final String CLIENT_SECRET = "cl13nt-s3cr3t";
  private static final String SCHEMA = "{\"schema\":\"\\\"string\\\"\"}";

  @StartStop
  final MockWebServer issuer = new MockWebServer();

  @StartStop
  final MockWebServer registry = new MockWebServer();

  /** A clock the test moves. */
  private static final class TestClock extends Clock {
    Instant now = Instant.parse("2026-11-30T12:00:00Z");

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  private static String jwt(Map<String, Object> claims) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    StringBuilder json = new StringBuilder("{");
    claims.forEach((k, v) -> json.append(json.length() > 1 ? "," : "").append('"').append(k).append("\":")
        .append(v instanceof String s ? "\"" + s + "\"" : v));
    return b64.encodeToString("{\"alg\":\"none\"}".getBytes(StandardCharsets.UTF_8)) + "."
        + b64.encodeToString(json.append('}').toString().getBytes(StandardCharsets.UTF_8)) + ".sig";
  }

  private void issue(String token, long expiresIn) {
    issuer.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
        .body("{\"access_token\":\"" + token + "\",\"token_type\":\"Bearer\",\"expires_in\":" + expiresIn + "}")
        .build());
  }

  private OAuthSettings settings(String scope) {
    return new OAuthSettings(issuer.url("/oauth2/token").toString(), "kavro-app", Secret.of(CLIENT_SECRET), scope,
        null, null, Duration.ofSeconds(60));
  }

  private OAuthTokenSource source(TestClock clock, int maxRetries) {
    return new OAuthTokenSource(settings("registry.read"), new OkHttpClient(),
        new RetryPolicy(maxRetries, Duration.ofMillis(1), Duration.ofMillis(5)), clock, Duration.ofSeconds(10));
  }

  @Test
  void issue_postsClientCredentials_andCachesTheToken() throws Exception {
    issue("token-1", 3600);
    OAuthTokenSource source = source(new TestClock(), 0);

    assertThat(source.token()).isEqualTo("token-1");
    assertThat(source.token()).isEqualTo("token-1");

    RecordedRequest request = issuer.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getBody().utf8()).contains("grant_type=client_credentials").contains("scope=registry.read");
    assertThat(request.getHeaders().get("Authorization")).isEqualTo("Basic " + Base64.getEncoder()
        .encodeToString(("kavro-app:" + CLIENT_SECRET).getBytes(StandardCharsets.UTF_8)));
    assertThat(issuer.getRequestCount()).isEqualTo(1);
  }

  @Test
  void refreshAhead_newTokenBeforeExpiry_andOldOneServedWhileTheIssuerIsDown() {
    TestClock clock = new TestClock();
    issue("token-1", 600); // refreshed 60 s (the buffer) before it expires
    OAuthTokenSource source = source(clock, 0);
    assertThat(source.token()).isEqualTo("token-1");

    clock.now = clock.now.plusSeconds(539);
    assertThat(source.token()).isEqualTo("token-1");
    assertThat(issuer.getRequestCount()).isEqualTo(1);

    clock.now = clock.now.plusSeconds(2); // inside the buffer: refreshed ahead
    issue("token-2", 600);
    assertThat(source.token()).isEqualTo("token-2");
    assertThat(issuer.getRequestCount()).isEqualTo(2);

    clock.now = clock.now.plusSeconds(545); // in token-2's buffer; the issuer fails
    issuer.enqueue(new MockResponse.Builder().code(503).build());
    try (LogCapture logs = new LogCapture()) {
      assertThat(source.token()).isEqualTo("token-2");
      assertThat(String.join("\n", logs.lines())).contains("ahead of its expiry").doesNotContain("token-2");
    }

    clock.now = clock.now.plusSeconds(60); // token-2 expired, issuer still down
    issuer.enqueue(new MockResponse.Builder().code(503).build());
    assertThatThrownBy(source::token).isInstanceOf(RegistryUnavailableException.class);
  }

  @Test
  void shortLivedToken_replacedAfter80PercentOfItsLife() {
    TestClock clock = new TestClock();
    issue("short", 30); // the 60 s buffer does not fit: replaced after 24 s
    OAuthTokenSource source = source(clock, 0);
    assertThat(source.token()).isEqualTo("short");

    clock.now = clock.now.plusSeconds(23);
    assertThat(source.token()).isEqualTo("short");
    clock.now = clock.now.plusSeconds(2);
    issue("next", 30);
    assertThat(source.token()).isEqualTo("next");
  }

  @Test
  void jwtWithoutExpiresIn_expiryFromExpClaim_andClaimsChecked() {
    TestClock clock = new TestClock();
    long exp = clock.now.getEpochSecond() + 3600;
    String good = jwt(Map.of("sub", "kavro-app", "exp", exp, "scope", "registry.read"));
    issuer.enqueue(new MockResponse.Builder().body("{\"access_token\":\"" + good + "\"}").build());
    assertThat(source(clock, 0).token()).isEqualTo(good);

    String noSub = jwt(Map.of("exp", exp));
    issuer.enqueue(new MockResponse.Builder().body("{\"access_token\":\"" + noSub + "\"}").build());
    assertThatThrownBy(() -> source(clock, 0).token())
        .isInstanceOf(RegistryAccessDeniedException.class).hasMessageContaining("'sub'")
        .hasMessageNotContaining(noSub);

    issuer.enqueue(new MockResponse.Builder().body("{\"access_token\":\"opaque\"}").build());
    assertThatThrownBy(() -> source(clock, 0).token()).hasMessageContaining("neither expires_in nor a JWT exp");
  }

  /** Review, item 3: a byte order mark before the issuer's JSON is ignored (RFC 8259), the token used. */
  @Test
  void byteOrderMarkBeforeTheJson_tokenRead() {
    issuer.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
        .body("\uFEFF{\"access_token\":\"bom-token\",\"token_type\":\"Bearer\",\"expires_in\":3600}").build());

    assertThat(source(new TestClock(), 0).token()).isEqualTo("bom-token");
  }

  /**
   * Review, item 3: a token answer with something after its JSON is said to be no JSON (it was "without an
   * access_token", which it had), and the message holds nothing of the body: not the token.
   */
  @Test
  void tokenAnswerWithTrailingJunk_notJson_tokenNotShown() {
    String token = "s3cr3t-t0k3n-4bc";
    issuer.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
        .body("{\"access_token\":\"" + token + "\",\"expires_in\":3600}<!-- cached -->").build());

    assertThatThrownBy(() -> source(new TestClock(), 0).token()).isInstanceOf(RegistryAccessDeniedException.class)
        .hasMessageContaining("not one JSON value").hasMessageNotContaining("without an access_token")
        .hasMessageNotContaining(token).hasMessageNotContaining("cached");
  }

  @Test
  void badCredentials_accessDenied_withTheIssuersReasonOnly() {
    issuer.enqueue(new MockResponse.Builder().code(401).body("{\"error\":\"invalid_client\","
        + "\"error_description\":\"Bad client\",\"echo\":\"" + CLIENT_SECRET + "\"}").build());

    assertThatThrownBy(() -> source(new TestClock(), 3).token())
        .isExactlyInstanceOf(io.kavro.registry.OAuthTokenRefusedException.class)
        .hasMessageContaining("invalid_client Bad client")
        .hasMessageNotContaining(CLIENT_SECRET);
    assertThat(issuer.getRequestCount()).isEqualTo(1);
  }

  @Test
  void endToEnd_registry401_fetchesANewTokenOnce_andSendsIt() throws Exception {
    issue("revoked", 3600);
    issue("fresh", 3600);
    registry.enqueue(new MockResponse.Builder().code(401).body("{\"error_code\":40101,\"message\":\"expired\"}")
        .build());
    registry.enqueue(new MockResponse.Builder().body(SCHEMA).build());

    try (SchemaRegistryClient client = SchemaRegistryClients.create(oauthConfig(issuer.url("/token").toString()))) {
      client.schemaById(1);
    }

    assertThat(registry.takeRequest(5, TimeUnit.SECONDS).getHeaders().get("Authorization")).isEqualTo("Bearer revoked");
    assertThat(registry.takeRequest(5, TimeUnit.SECONDS).getHeaders().get("Authorization")).isEqualTo("Bearer fresh");
    assertThat(issuer.getRequestCount()).isEqualTo(2);
  }

  @Test
  void endToEnd_issuerDown_registryUnavailable_noSecretInTheChainOrLogs() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    try (LogCapture logs = new LogCapture();
        SchemaRegistryClient client = SchemaRegistryClients.create(
            oauthConfig("http://127.0.0.1:" + closedPort + "/token"))) {
      assertThatThrownBy(() -> client.schemaById(1))
          .isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("cannot get an OAuth token")
          .satisfies(e -> {
            for (Throwable t = e; t != null; t = t.getCause()) {
              assertThat(t.toString()).doesNotContain(CLIENT_SECRET);
            }
          });
      assertThat(String.join("\n", logs.lines())).doesNotContain(CLIENT_SECRET);
    }
    assertThat(registry.getRequestCount()).isZero();
  }

  private Map<String, Object> oauthConfig(String issuerUrl) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", registry.url("/").toString());
    config.put("max.retries", 1);
    config.put("retries.wait.ms", 1);
    config.put("retries.max.wait.ms", 5);
    config.put("bearer.auth.credentials.source", "OAUTHBEARER");
    config.put("bearer.auth.issuer.endpoint.url", issuerUrl);
    config.put("bearer.auth.client.id", "kavro-app");
    config.put("bearer.auth.client.secret", CLIENT_SECRET);
    config.put("bearer.auth.scope", "registry.read");
    return config;
  }

  /** Runs {@code calls} calls of {@code call} on each of {@code threads} threads, and returns their failures. */
  private static List<Throwable> concurrently(int threads, int calls, Runnable call) throws Exception {
    List<Throwable> failures = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
    for (int t = 0; t < threads; t++) {
      done.add(pool.submit(() -> {
        start.await();
        for (int c = 0; c < calls; c++) {
          try {
            call.run();
          } catch (RuntimeException e) {
            failures.add(e);
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (java.util.concurrent.Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    return failures;
  }

  /**
   * Issue 22, item 4: a token that arrives expired (exp in the past) is a failure, remembered for its backoff:
   * 8 threads x 10 calls made 80 issuer requests; now 1. An expires_in that overflows a long of milliseconds is
   * a long-lived token, not an expired one.
   */
  @Test
  void tokenExpiredOnArrival_oneRequestForEightThreads_thenBackoff() throws Exception {
    TestClock clock = new TestClock();
    String stale = jwt(Map.of("sub", "kavro-app", "exp", clock.now.getEpochSecond() - 10));
    for (int i = 0; i < 100; i++) {
      issuer.enqueue(new MockResponse.Builder().body("{\"access_token\":\"" + stale + "\"}").build());
    }
    OAuthTokenSource source = new OAuthTokenSource(settings("registry.read"), new OkHttpClient(),
        new RetryPolicy(3, Duration.ofSeconds(1), Duration.ofSeconds(20)), clock, Duration.ofSeconds(10));

    List<Throwable> failures = concurrently(8, 10, source::token);

    // 79 of them the remembered failure: the same type, so that no caller reads it as a registry's refusal
    assertThat(failures).hasSize(80).allSatisfy(e -> assertThat(e)
        .isExactlyInstanceOf(io.kavro.registry.OAuthTokenRefusedException.class)
        .hasMessageContaining("expired before it arrived").hasMessageNotContaining(stale));
    assertThat(issuer.getRequestCount()).isEqualTo(1);
    clock.now = clock.now.plusSeconds(2); // the backoff (1 s after one failure) has ended: asked again
    assertThatThrownBy(source::token).isInstanceOf(RegistryAccessDeniedException.class);
    assertThat(issuer.getRequestCount()).isEqualTo(2);

  }

  /** An expires_in that overflows a long of milliseconds is a long-lived token, fetched once. */
  @Test
  void expiresInOverflowingMillis_longLived_fetchedOnce() {
    TestClock clock = new TestClock();
    issue("forever", Long.MAX_VALUE / 10);
    OAuthTokenSource source = source(clock, 0);

    assertThat(source.token()).isEqualTo("forever");
    clock.now = clock.now.plus(Duration.ofDays(3650));
    assertThat(source.token()).isEqualTo("forever");
    assertThat(issuer.getRequestCount()).isEqualTo(1);
  }

  /**
   * Issue 22, item 4: with no valid token and a failing issuer, one fetch runs (with its retries) and every
   * waiting caller shares its failure: 4 callers made 16 requests, one after the other; now 4 (one fetch, 3
   * retries) for all of them.
   */
  @Test
  void issuerDown_oneFetchWithRetries_failureSharedByAllWaiters() throws Exception {
    for (int i = 0; i < 40; i++) {
      issuer.enqueue(new MockResponse.Builder().code(503).build());
    }
    TestClock clock = new TestClock();
    OAuthTokenSource source = new OAuthTokenSource(settings("registry.read"), new OkHttpClient(),
        new RetryPolicy(3, Duration.ofMillis(1), Duration.ofMillis(5)), clock, Duration.ofSeconds(10));

    List<Throwable> failures = concurrently(4, 1, source::token);

    assertThat(failures).hasSize(4).allSatisfy(e -> assertThat(e).isInstanceOf(RegistryUnavailableException.class));
    assertThat(issuer.getRequestCount()).isEqualTo(4);
  }

  /** Issue 22, item 4: a failed refresh ahead of expiry is remembered: the next callers neither ask nor wait. */
  @Test
  void failedRefreshAhead_remembered_validTokenServesWithoutRequests() {
    TestClock clock = new TestClock();
    issue("token-1", 600);
    OAuthTokenSource source = new OAuthTokenSource(settings("registry.read"), new OkHttpClient(),
        new RetryPolicy(3, Duration.ofSeconds(1), Duration.ofSeconds(20)), clock, Duration.ofSeconds(10));
    assertThat(source.token()).isEqualTo("token-1");
    clock.now = clock.now.plusSeconds(545); // in the buffer
    issuer.enqueue(new MockResponse.Builder().code(503).build());

    for (int i = 0; i < 10; i++) {
      assertThat(source.token()).isEqualTo("token-1");
    }
    assertThat(issuer.getRequestCount()).as("one refresh, one attempt, then remembered").isEqualTo(2);
  }

  /**
   * Issue 22, item 4: a registry that refuses every token (a persistent 401) drops the token once per
   * REAUTHORIZE_INTERVAL, not once per request: 5 requests fetch 2 tokens, not 6.
   */
  @Test
  void persistent401_oneNewTokenPerInterval_notPerRequest() {
    TestClock clock = new TestClock();
    issue("token-1", 3600);
    issue("token-2", 3600);
    OAuthTokenSource source = source(clock, 0);

    for (int i = 0; i < 5; i++) {
      String token = source.token();
      source.unauthorized(token);
    }

    assertThat(issuer.getRequestCount()).isEqualTo(2);
    assertThat(source.token()).isEqualTo("token-2");
  }
}
