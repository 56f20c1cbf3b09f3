package io.kavro.registry.internal.dialect;

import static io.kavro.registry.internal.dialect.RegistryAnswers.GATEWAY_NOT_FOUND;
import static io.kavro.registry.internal.dialect.RegistryAnswers.bare404;
import static io.kavro.registry.internal.dialect.RegistryAnswers.config;
import static io.kavro.registry.internal.dialect.RegistryAnswers.confluentPathNotServed;
import static io.kavro.registry.internal.dialect.RegistryAnswers.empty404;
import static io.kavro.registry.internal.dialect.RegistryAnswers.json;
import static io.kavro.registry.internal.dialect.RegistryAnswers.proxyPage;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.cache.CachingSchemaRegistryClientTest.FakeTicker;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The GUID API ({@code GET /schemas/guids/{guid}}) and the metadata API ({@code GET /subjects/{subject}/metadata})
 * are learned as missing only from a registry's own answer, as the associations API is (the shapes known are listed
 * in {@code MissingApiAnswers}). Any other 404 from a URL of Confluent's kind (an empty body from a load balancer, a
 * gateway's JSON, a proxy's page) and a success without JSON (a login page) is an outage: retried, failed over, never
 * remembered as a missing API (which would fail every GUID-framed record, not retriably, for minutes: skipped by
 * Connect's {@code errors.tolerance=all}).
 */
class GuidAndMetadata404Test {
  private static final UUID GUID = UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427");

  @StartStop
  final MockWebServer registry = new MockWebServer();

  private final FakeTicker ticker = new FakeTicker();

  /** The two APIs: how to call each, what it answers when present, and its own "not found". */
  enum Api {
    GUIDS("/schemas/guids/" + GUID, "{\"schema\":\"\\\"string\\\"\"}",
        "{\"error_code\":40403,\"message\":\"Schema not found\"}", client -> client.schemaByGuid(GUID)),
    METADATA("/subjects/orders-value/metadata?key=app&value=billing",
        "{\"subject\":\"orders-value\",\"version\":1,\"id\":7,\"schema\":\"\\\"string\\\"\"}",
        "{\"error_code\":40401,\"message\":\"Subject 'orders-value' not found.\"}",
        client -> client.latestWithMetadata("orders-value", Map.of("app", "billing")));

    final String target;
    final String answer;
    final String ownNotFound;
    final Consumer<HttpSchemaRegistryClient> call;

    Api(String target, String answer, String ownNotFound, Consumer<HttpSchemaRegistryClient> call) {
      this.target = target;
      this.answer = answer;
      this.ownNotFound = ownNotFound;
      this.call = call;
    }
  }

  private HttpSchemaRegistryClient client(String baseUrls, int retries) {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", baseUrls, "max.retries", retries,
        "retries.wait.ms", 1, "retries.max.wait.ms", 5));
    return new HttpSchemaRegistryClient(config, RegistryHttp.of(config, null), ticker);
  }

  /** A client of a URL that has answered as a registry (its core API), so that a 404 from it is retried. */
  private HttpSchemaRegistryClient provenClient(String basePath, int retries) {
    HttpSchemaRegistryClient client = client(registry.url(basePath).toString(), retries);
    registry.enqueue(config());
    client.compatibility();
    return client;
  }

  /** No registry's 404: an empty body (a load balancer's, Envoy's), a gateway's JSON (Kong's), a proxy's page. */
  private static MockResponse foreign404(String kind) {
    return switch (kind) {
      case "empty" -> empty404();
      case "gateway" -> bare404(GATEWAY_NOT_FOUND);
      case "html" -> proxyPage();
      default -> throw new IllegalArgumentException(kind);
    };
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> foreign404s() {
    return java.util.stream.Stream.of(Api.values()).flatMap(api -> java.util.stream.Stream.of("empty", "gateway",
        "html").map(kind -> org.junit.jupiter.params.provider.Arguments.of(api, kind)));
  }

  @ParameterizedTest
  @MethodSource("foreign404s")
  void confluentKindUrl_foreign404_outage_retried_notLearned(Api api, String kind) throws Exception {
    HttpSchemaRegistryClient client = provenClient("/", 1);
    registry.enqueue(foreign404(kind));
    registry.enqueue(foreign404(kind));
    registry.enqueue(json(200, api.answer));

    assertThatThrownBy(() -> api.call.accept(client))
        .isExactlyInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("HTTP 404").hasMessageContaining("gave up after 2 attempt(s)");
    assertThat(registry.getRequestCount()).as("retried; the core API not asked").isEqualTo(1 + 2);
    api.call.accept(client); // not learned as missing: asked again, and answered
    assertThat(registry.getRequestCount()).isEqualTo(1 + 2 + 1);
    registry.takeRequest();
    for (int i = 0; i < 3; i++) {
      assertThat(registry.takeRequest().getTarget()).isEqualTo(api.target);
    }
  }

  /** An empty 404 on one URL (a load balancer's) is an outage: failed over to the next URL, whose answer counts. */
  @ParameterizedTest
  @EnumSource(Api.class)
  void empty404_failedOverToTheNextUrl(Api api) throws Exception {
    HttpSchemaRegistryClient client = client(registry.url("/a") + "," + registry.url("/b"), 1);
    registry.enqueue(config());
    client.compatibility();
    registry.enqueue(foreign404("empty"));
    registry.enqueue(json(200, api.answer));

    api.call.accept(client);
    registry.takeRequest();
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/a" + api.target);
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/b" + api.target);
  }

  /**
   * From a URL that never answered as a registry (the deserializer's first call may be a GUID's), an empty 404 makes
   * the client ask the core API at once: once it answers, the call goes on with its retries (a transient 404, then
   * the answer); when the core API answers such a 404 too, the URL is wrong.
   */
  @ParameterizedTest
  @EnumSource(Api.class)
  void neverAnsweredUrl_transientEmpty404_retriedOnceTheCoreApiAnswers_orWrongUrl(Api api) throws Exception {
    HttpSchemaRegistryClient client = client(registry.url("/").toString(), 3);
    registry.enqueue(foreign404("empty"));
    registry.enqueue(config());
    registry.enqueue(json(200, api.answer));
    api.call.accept(client);
    assertThat(registry.takeRequest().getTarget()).isEqualTo(api.target);
    assertThat(registry.takeRequest().getTarget()).as("the core API asked at once").isEqualTo("/config");
    assertThat(registry.takeRequest().getTarget()).as("then the call retried").isEqualTo(api.target);
    assertThat(client.stats().errors()).as("a call that succeeded is no failed call").isZero();

    HttpSchemaRegistryClient wrong = client(registry.url("/").toString(), 3);
    registry.enqueue(foreign404("empty"));
    registry.enqueue(foreign404("empty"));
    assertThatThrownBy(() -> api.call.accept(wrong)).isExactlyInstanceOf(WrongRegistryUrlException.class);
  }

  /**
   * Two URLs, neither of which has answered yet: A answers the core API, but something in front of it answers the
   * API's path with {@code notARegistrys} (an empty 404, a login page's 200, a proxy's 204); B answers the call. An
   * outage on A, failed over to B.
   */
  private void neverAnsweredUrls_failedOverToTheNextUrl(Api api, Supplier<MockResponse> notARegistrys) {
    registry.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        if (path.endsWith("/config")) {
          return config();
        }
        return path.startsWith("/a/") ? notARegistrys.get() : json(200, api.answer);
      }
    });
    HttpSchemaRegistryClient client = client(registry.url("/a") + "," + registry.url("/b"), 3);

    api.call.accept(client);
    assertThat(client.stats().failovers()).as("failed over to B").isPositive();
  }

  @ParameterizedTest
  @EnumSource(Api.class)
  void neverAnsweredUrl_empty404_failedOverToTheNextUrl(Api api) {
    neverAnsweredUrls_failedOverToTheNextUrl(api, () -> foreign404("empty"));
  }

  /**
   * Two URLs, neither of which has answered yet: A's core API denies access (a principal without global config
   * read), which proves no URL, and something in front of A answers the API's path with an empty 404. Once the core
   * API has answered, the call goes on as an outage: failed over to B, which answers it.
   */
  @ParameterizedTest
  @EnumSource(Api.class)
  void neverAnsweredUrls_coreApiDeniesAccess_empty404_failedOverToTheNextUrl(Api api) throws Exception {
    registry.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getUrl().encodedPath();
        if (path.equals("/a/config")) {
          return json(403, "{\"error_code\":40301,\"message\":\"forbidden\"}");
        }
        return path.startsWith("/a/") ? empty404() : json(200, api.answer);
      }
    });
    HttpSchemaRegistryClient client = client(registry.url("/a") + "," + registry.url("/b"), 3);

    api.call.accept(client);
    assertThat(registry.takeRequest().getTarget()).as("A first").isEqualTo("/a" + api.target);
    assertThat(registry.takeRequest().getTarget()).as("then A's core API").isEqualTo("/a/config");
    assertThat(registry.takeRequest().getTarget()).as("then the call again").isEqualTo("/a" + api.target);
    assertThat(registry.takeRequest().getTarget()).as("failed over to B").isEqualTo("/b" + api.target);
    assertThat(registry.getRequestCount()).isEqualTo(4);
    assertThat(client.stats().errors()).as("trust item 2: the 403 to the client's own check of the core API fails "
        + "no call; the call succeeded").isZero();
  }

  /**
   * Trust item 2: the registry's known answer that it lacks the API, while its core API refuses the client's own
   * check (a principal without global config read): the API is missing, and the refusal is no failed call of the
   * caller's, so not counted in {@code errors}.
   */
  @ParameterizedTest
  @EnumSource(Api.class)
  void missingApi_coreApiCheckRefused_notCountedAsAnError(Api api) {
    HttpSchemaRegistryClient client = provenClient("/", 3);
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(json(401, "{\"error_code\":40101,\"message\":\"Unauthorized\"}"));

    assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(registry.getRequestCount()).as("the check, then the call, then no retry").isEqualTo(1 + 2);
    assertThat(client.stats().errors()).as("a 401 to the client's own check is no failed call").isZero();
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> coreApiCheckNotTheRegistrys() {
    return java.util.stream.Stream.of(Api.values()).flatMap(api -> java.util.stream.Stream.of(
        org.junit.jupiter.params.provider.Arguments.of(api, "a single sign-on redirect", 302),
        org.junit.jupiter.params.provider.Arguments.of(api, "a web application firewall's block page", 400)));
  }

  /**
   * Trust review, item 3: the client's own check of the core API answered by something in front of the registry (a
   * single sign-on redirect, a firewall's 400 page without the registry's error code) is no registry's answer: the call
   * fails as a call answered so would, counted in {@code errors}, and the API is not learned as missing (it was).
   */
  @ParameterizedTest
  @MethodSource("coreApiCheckNotTheRegistrys")
  void missingApi_coreApiCheckAnsweredByAnotherServer_failsCounted_notLearned(Api api, String what, int status) {
    HttpSchemaRegistryClient client = provenClient("/", 3);
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(new MockResponse.Builder().code(status).setHeader("Location", "https://sso.example/login")
        .setHeader("Content-Type", "text/html").body("<html>" + what + "</html>").build());

    assertThatThrownBy(() -> api.call.accept(client)).as(what)
        .isNotInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("HTTP " + status);
    assertThat(client.stats().errors()).as("a failed call").isEqualTo(1);
    registry.enqueue(json(200, api.answer));
    api.call.accept(client);
    assertThat(registry.getRequestCount()).as("not learned: asked again").isEqualTo(1 + 2 + 1);
  }

  /** A success without JSON (a login page's 200, a proxy's 204) from URL A: an outage, failed over to B. */
  @ParameterizedTest
  @EnumSource(Api.class)
  void successWithoutJson_failedOverToTheNextUrl(Api api) {
    neverAnsweredUrls_failedOverToTheNextUrl(api, RegistryAnswers::loginPage);
    neverAnsweredUrls_failedOverToTheNextUrl(api, () -> new MockResponse.Builder().code(204).build());
  }

  /** Confluent's own answer for a path it does not serve: the API is missing, remembered, asked again later. */
  @ParameterizedTest
  @EnumSource(Api.class)
  void confluentErrorCode404_missing_remembered_thenAskedAgain(Api api) {
    HttpSchemaRegistryClient client = provenClient("/", 3);
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(config());

    assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("error_code 404");
    assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("as it answered before");
    assertThat(registry.getRequestCount()).as("remembered: the second call sent nothing").isEqualTo(1 + 2);

    ticker.advance(UnsupportedRegistryApiException.REMEMBERED_FOR.plus(Duration.ofSeconds(1)));
    registry.enqueue(json(200, api.answer));
    api.call.accept(client);
    assertThat(registry.getRequestCount()).as("asked again").isEqualTo(1 + 2 + 1);
  }

  /** The API's own "not found" (an unknown GUID, a subject without such a version) stays a "not found". */
  @ParameterizedTest
  @EnumSource(Api.class)
  void ownNotFound_staysNotFound_andTheApiStaysAsked(Api api) {
    HttpSchemaRegistryClient client = provenClient("/", 3);
    registry.enqueue(json(404, api.ownNotFound));
    registry.enqueue(json(404, api.ownNotFound));

    assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(SchemaNotFoundException.class);
    assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(SchemaNotFoundException.class);
    assertThat(registry.getRequestCount()).as("neither retried nor remembered").isEqualTo(1 + 2);
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> successesWithoutJson() {
    return java.util.stream.Stream.of(Api.values()).flatMap(api -> java.util.stream.Stream.of(200, 204)
        .map(status -> org.junit.jupiter.params.provider.Arguments.of(api, status)));
  }

  /** A success without JSON from a URL of Confluent's kind (a login page's 200, a proxy's 204): an outage. */
  @ParameterizedTest
  @MethodSource("successesWithoutJson")
  void confluentKindUrl_successWithoutJson_outage_notLearned(Api api, int status) {
    HttpSchemaRegistryClient client = provenClient("/", 0);
    MockResponse.Builder answer = new MockResponse.Builder().code(status);
    if (status == 200) {
      answer.setHeader("Content-Type", "text/html").body("<html><body>Sign in</body></html>");
    }
    registry.enqueue(answer.build());
    registry.enqueue(json(200, api.answer));

    assertThatThrownBy(() -> api.call.accept(client))
        .isInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("HTTP " + status).hasMessageContaining("not the registry's answer");
    api.call.accept(client); // not learned as missing: asked again, and answered
    assertThat(registry.getRequestCount()).isEqualTo(1 + 2);
  }

  /**
   * On Apicurio's URL, Apicurio's own answers for these paths still say the API is missing: Apicurio 2's RESTEasy
   * 404, Apicurio 3's empty 404 (GUIDs) and its 204 without a body (metadata), as the contract tests against the
   * real registries see them.
   */
  @ParameterizedTest
  @EnumSource(Api.class)
  void apicurioUrl_apicuriosAnswers_missing_learned(Api api) {
    for (MockResponse answer : new MockResponse[] {
        json(404, "{\"message\":\"RESTEASY003210: Could not find resource for full path: http://127.0.0.1/x\","
            + "\"error_code\":0}"),
        new MockResponse.Builder().code(404).build(),
        new MockResponse.Builder().code(204).build()}) {
      HttpSchemaRegistryClient client = provenClient("/apis/ccompat/v7", 0);
      int before = registry.getRequestCount();
      registry.enqueue(answer);
      registry.enqueue(config());

      assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(UnsupportedRegistryApiException.class);
      assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(UnsupportedRegistryApiException.class)
          .hasMessageContaining("as it answered before");
      assertThat(registry.getRequestCount() - before).as("learned: asked once, then the core API").isEqualTo(2);
    }
  }

  /** On Apicurio's URL, a gateway's JSON 404 is no Apicurio answer: an outage. */
  @ParameterizedTest
  @EnumSource(Api.class)
  void apicurioUrl_gatewaysJson404_outage(Api api) {
    HttpSchemaRegistryClient client = provenClient("/apis/ccompat/v7", 0);
    registry.enqueue(foreign404("gateway"));
    registry.enqueue(config()); // were it taken for Apicurio's answer, the core API would be asked

    assertThatThrownBy(() -> api.call.accept(client)).isExactlyInstanceOf(RegistryUnavailableException.class);
    assertThat(registry.getRequestCount()).as("the core API not asked").isEqualTo(2);
  }
}
