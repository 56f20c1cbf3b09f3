package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Test;

/**
 * Registry faults of issue 13, classified by what they are: only the registry's own "not found" means an
 * unknown id; a timeout or a trickling body means "not reached", and is retried and failed over; a 404 that is
 * not the registry's own (a proxy's page, a wrong base path) means a wrong URL (issue 37, item 8b), given at once.
 * Closing a client leaves a caller's shared OkHttp client working.
 */
class RegistryFaultsTest {
  private static final String SCHEMA = "{\"schema\":\"\\\"string\\\"\"}";

  @StartStop
  final MockWebServer first = new MockWebServer();

  @StartStop
  final MockWebServer second = new MockWebServer();

  private static HttpSchemaRegistryClient client(String urls, Object... extra) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", urls);
    config.put("retries.wait.ms", 1);
    config.put("retries.max.wait.ms", 5);
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    return new HttpSchemaRegistryClient(RegistryConfig.from(config));
  }

  private String both() {
    return first.url("/").toString() + "," + second.url("/").toString();
  }

  private static MockResponse ok() {
    return new MockResponse.Builder().body(SCHEMA).build();
  }

  /**
   * Issue 22, item 6: a redirect to another host is not followed, so the configured headers (an API key, a
   * cluster id) never reach it; OkHttp followed it and stripped only Authorization. The failure names the target.
   */
  @Test
  void redirectToAnotherHost_notFollowed_noHeaderLeaves() {
    first.enqueue(new MockResponse.Builder().code(307).setHeader("Location", second.url("/schemas/ids/7")).build());
    second.enqueue(ok());

    assertThatThrownBy(() -> client(first.url("/").toString(), "max.retries", 2, "request.header.X-Api-Key", "k3y",
        "bearer.auth.logical.cluster", "lsrc-1", "bearer.auth.credentials.source", "STATIC_TOKEN",
        "bearer.auth.token", "t0ken").schemaById(7))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("HTTP 307").hasMessageContaining("redirects to " + second.url("/schemas/ids/7"));
    assertThat(second.getRequestCount()).isZero();
    assertThat(first.getRequestCount()).as("a redirect is an answer: not retried").isEqualTo(1);
  }

  /** A proxy's page for a URL that never answered: its 404 moves on to the next URL, which answers. */
  @Test
  void htmlNotFoundFromAProxy_failsOverToTheNextUrl() {
    first.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
        .body("<html><body><h1>404 Not Found</h1>nginx</body></html>").build());
    second.enqueue(ok());

    assertThat(client(both(), "max.retries", 1).schemaById(7).getType())
        .isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(second.getRequestCount()).isEqualTo(1);
  }

  /** A captive portal's or a load balancer's page: a 200 that is no registry's answer. */
  private static MockResponse captivePortal() {
    return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body("<html><body>Welcome! Accept the terms to continue</body></html>").build();
  }

  /**
   * Trust item 1: a success of the core API without JSON (a captive portal's page) is an outage: the next URL is
   * tried, which answers; it was a non-retriable parse failure, and the page's URL became the preferred one.
   */
  @Test
  void captivePortalSuccess_isAnOutage_failsOverToTheNextUrl() {
    first.enqueue(new MockResponse.Builder().code(503).build());
    second.enqueue(captivePortal());
    first.enqueue(ok());

    assertThat(client(both(), "max.retries", 2).schemaById(7).getType())
        .isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(first.getRequestCount()).isEqualTo(2);
    assertThat(second.getRequestCount()).isEqualTo(1);
  }

  /**
   * Trust item 1: such a success does not count as the URL answering as a registry, so a bare 404 after it still
   * says the URL is wrong; and the outage's message names the URL (without its credentials) and the content type.
   */
  @Test
  void captivePortalSuccess_namesUrlAndContentType_urlNotProven() {
    String withCredentials = first.url("/").newBuilder().username("alice7").password("s3cr3t").build().toString();
    first.enqueue(captivePortal());

    assertThatThrownBy(() -> client(withCredentials, "max.retries", 0).schemaById(7))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("HTTP 200 with a body that is not JSON (text/html)")
        .hasMessageContaining("not the registry's answer")
        .hasMessageContaining(first.url("/schemas/ids/7").toString())
        .hasMessageContaining("gave up after 1 attempt(s)")
        .hasMessageContaining("if this persists, check that schema.registry.url is the registry's own address")
        .message().doesNotContain("s3cr3t").doesNotContain("alice7");

    first.enqueue(captivePortal());
    first.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
        .body("<html>nginx</html>").build());
    assertThatThrownBy(() -> client(first.url("/").toString(), "max.retries", 3).schemaById(7))
        .as("the portal's 200 proved no registry: the 404 after it says the URL is wrong")
        .isInstanceOf(WrongRegistryUrlException.class);
  }

  /**
   * Trust review, item 2: a success whose body starts with JSON but goes on ({@code 200 OK}: the number 200, then
   * text; JSON then a page) is no JSON: an outage, failed over to the next URL; it was read as the number 200.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"200 OK", "1 upstream connect error", "{}<html>"})
  void successWithJsonThenJunk_isAnOutage_failsOverToTheNextUrl(String body) {
    second.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/plain").body(body).build());
    first.enqueue(ok());

    assertThat(client(second.url("/") + "," + first.url("/"), "max.retries", 2).schemaById(7).getType())
        .isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(second.getRequestCount()).isEqualTo(1);
    assertThat(first.getRequestCount()).isEqualTo(1);
  }

  /** Issue 37, item 8b: when every URL answers as no registry, the URL is wrong: said at once, no retries. */
  @Test
  void everyUrlAProxysNotFound_wrongUrl_oneRequestEach() {
    for (MockWebServer server : List.of(first, second)) {
      for (int i = 0; i < 4; i++) {
        server.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
            .body("<html><body><h1>404 Not Found</h1>nginx</body></html>").build());
      }
    }

    assertThatThrownBy(() -> client(both(), "max.retries", 5, "retries.wait.ms", 1).schemaById(7))
        .isInstanceOf(WrongRegistryUrlException.class)
        .hasMessageContaining("nginx")
        .hasMessageContaining("check that schema.registry.url is the registry's base URL");
    assertThat(first.getRequestCount() + second.getRequestCount()).as("one request each").isEqualTo(2);
  }

  /**
   * One URL answers as no registry while the other is down: an outage, retriable, whatever the count of retries
   * (the last attempt's URL must not decide it).
   */
  @Test
  void oneUrlNoRegistry_theOtherDown_isAnOutage_forAnyRetryCount() {
    for (int retries : new int[] {2, 3}) {
      for (int i = 0; i < 4; i++) {
        first.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
            .body("<html>nginx</html>").build());
        second.enqueue(new MockResponse.Builder().code(503).build());
      }
      assertThatThrownBy(() -> client(both(), "max.retries", retries, "retries.wait.ms", 1,
          "retries.max.wait.ms", 5).schemaById(7))
          .as("max.retries=%d", retries)
          .isInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("gave up after " + (retries + 1) + " attempt(s)");
    }
  }

  /**
   * Issue 37, item 8b: a URL that has answered as a registry and then answers a 404 without the registry's error
   * code is an outage (a proxy in between, a restart), retried as ever: never a configuration error, which would
   * skip records in Connect.
   */
  @Test
  void provenRegistry_laterNotFoundWithoutCode_isRetriedAsAnOutage() {
    first.enqueue(ok());
    first.enqueue(new MockResponse.Builder().code(404).build());
    first.enqueue(new MockResponse.Builder().code(404).build());
    first.enqueue(ok());
    HttpSchemaRegistryClient client = client(first.url("/").toString(), "max.retries", 3, "retries.wait.ms", 1,
        "retries.max.wait.ms", 5);
    client.schemaById(7);

    assertThat(client.schemaById(8).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(first.getRequestCount()).isEqualTo(4);
  }

  /** Issue 37, item 8b: a wrong base path is a configuration error, given at once: one request, no retry. */
  @Test
  void wrongBasePath_isAWrongUrl_atOnce_notAnUnknownId() {
    for (int i = 0; i < 3; i++) {
      first.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
          .body("{\"timestamp\":\"2026-11-30\",\"status\":404,\"error\":\"Not Found\",\"path\":\"/wrong/schemas/ids/7\"}")
          .build());
    }

    assertThatThrownBy(() -> client(first.url("/wrong").toString(), "max.retries", 2).schemaById(7))
        .isInstanceOf(WrongRegistryUrlException.class)
        .isNotInstanceOf(SchemaNotFoundException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("without the registry's own 404xx error_code")
        .hasMessageContaining("check that schema.registry.url is the registry's base URL")
        .hasMessageContaining("for Apicurio: " + first.url("/wrong/apis/ccompat/v7"))
        .hasMessageNotContaining("gave up after");
    assertThat(first.getRequestCount()).isEqualTo(1);
  }

  @Test
  void registrysOwnNotFound_isAnUnknownId_notRetried() {
    first.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
        .body("{\"error_code\":40403,\"message\":\"Schema 7 not found\"}").build());
    first.enqueue(ok());

    assertThatThrownBy(() -> client(first.url("/").toString(), "max.retries", 3).schemaById(7))
        .isInstanceOf(SchemaNotFoundException.class).hasMessageContaining("40403");
    assertThat(first.getRequestCount()).isEqualTo(1);
  }

  /**
   * Item 8: a body trickling slower than the call timeout (connect + read timeout), though each read is
   * within the read timeout: a timeout, failed over and retried; the thread is never marked interrupted.
   */
  @Test
  void tricklingBody_callTimeout_isRetriedAndFailedOver_notAnInterrupt() {
    first.enqueue(new MockResponse.Builder().body(SCHEMA + " ".repeat(64)).throttleBody(1, 100, TimeUnit.MILLISECONDS)
        .build());
    second.enqueue(ok());
    HttpSchemaRegistryClient client = client(both(), "max.retries", 1, "http.connect.timeout.ms", 500,
        "http.read.timeout.ms", 500);

    long start = System.nanoTime();
    assertThat(client.schemaById(7).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);

    assertThat(Thread.currentThread().isInterrupted()).isFalse();
    assertThat(second.getRequestCount()).isEqualTo(1);
    assertThat(client.stats().failovers()).isEqualTo(1);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
  }

  /** Item 8: every attempt timing out ends in "unavailable", retriable, not in an interrupt. */
  @Test
  void everyAttemptTimesOut_unavailable_threadNotInterrupted() {
    for (int i = 0; i < 2; i++) {
      first.enqueue(new MockResponse.Builder().body(SCHEMA + " ".repeat(64))
          .throttleBody(1, 100, TimeUnit.MILLISECONDS).build());
    }
    HttpSchemaRegistryClient client = client(first.url("/").toString(), "max.retries", 1,
        "http.connect.timeout.ms", 300, "http.read.timeout.ms", 300);

    // OkHttp's call timeout says "timeout", a socket's read timeout "Read timed out": whichever fires first
    assertThatThrownBy(() -> client.schemaById(7)).isInstanceOf(RegistryUnavailableException.class)
        .hasMessageMatching("(?is).*time(d)? ?out.*");
    assertThat(Thread.interrupted()).isFalse();
  }

  /** Item 9: closing a registry client built on a caller's OkHttp client leaves that client usable. */
  @Test
  void close_leavesASharedOkHttpClientWorking() throws Exception {
    OkHttpClient shared = new OkHttpClient();
    first.enqueue(ok());
    first.enqueue(new MockResponse.Builder().body("still here").build());
    SchemaRegistryClient client = SchemaRegistryClients.create(
        RegistryConfig.from(Map.of("schema.registry.url", first.url("/").toString())), shared);
    client.schemaById(1);

    client.close();

    assertThat(shared.dispatcher().executorService().isShutdown()).isFalse();
    try (Response response = shared.newCall(new Request.Builder().url(first.url("/other")).build()).execute()) {
      assertThat(response.body().string()).isEqualTo("still here");
    }
    shared.dispatcher().executorService().shutdown();
  }

  @Test
  void urlRandomize_clientsStartAtEitherUrl_otherwiseAtTheFirst() throws Exception {
    for (int i = 0; i < 30; i++) {
      first.enqueue(ok());
      second.enqueue(ok());
      client(both(), "schema.registry.url.randomize", true).schemaById(1);
    }
    // Both URLs got first requests (each client asks one): the chance that 30 starts all fall on one is 2^-29.
    assertThat(first.getRequestCount()).isPositive();
    assertThat(second.getRequestCount()).isPositive();
    assertThat(first.getRequestCount() + second.getRequestCount()).isEqualTo(30);

    long before = second.getRequestCount();
    for (int i = 0; i < 5; i++) {
      client(both()).schemaById(1);
    }
    assertThat(second.getRequestCount()).isEqualTo(before);
  }

  @Test
  void redact_removesUserInfo() {
    assertThat(List.of("https://u:p@reg:8081/x", "http://u:pa/ss@reg", "not a url u:p@reg", "http://reg/"))
        .map(RegistryConfig::redact)
        .containsExactly("https://reg:8081/x", "http://reg", "not a url u:p@reg", "http://reg/");
  }
}
