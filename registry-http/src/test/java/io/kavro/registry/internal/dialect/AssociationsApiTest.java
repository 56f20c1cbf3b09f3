package io.kavro.registry.internal.dialect;

import static io.kavro.registry.internal.dialect.RegistryAnswers.GATEWAY_NOT_FOUND;
import static io.kavro.registry.internal.dialect.RegistryAnswers.REDPANDA_NOT_FOUND;
import static io.kavro.registry.internal.dialect.RegistryAnswers.bare404;
import static io.kavro.registry.internal.dialect.RegistryAnswers.config;
import static io.kavro.registry.internal.dialect.RegistryAnswers.empty404;
import static io.kavro.registry.internal.dialect.RegistryAnswers.json;
import static io.kavro.registry.internal.dialect.RegistryAnswers.proxyPage;
import static io.kavro.registry.internal.dialect.RegistryAnswers.redpandaPathNotServed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.Association;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.internal.cache.CachingSchemaRegistryClientTest.FakeTicker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Confluent 8.3's associations API ({@code GET /associations/resources/{namespace}/{name}}): its answer read, and a
 * registry without it told apart from an outage by {@link OptionalApi}'s rules: only the registry's own 404, in a
 * shape known for the kind of registry the URL leads to ({@code MissingApiAnswers}), while its core API answers says
 * the API is missing, remembered for five minutes, then asked again; any other 404 (a proxy's page, an empty body or
 * a gateway's JSON from a URL of Confluent's kind) or a 5xx is an outage.
 */
class AssociationsApiTest {
  @StartStop
  final MockWebServer registry = new MockWebServer();

  private final FakeTicker ticker = new FakeTicker();

  private HttpSchemaRegistryClient client(String basePath, int retries) {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", registry.url(basePath).toString(),
        "max.retries", retries, "retries.wait.ms", 1, "retries.max.wait.ms", 5));
    return new HttpSchemaRegistryClient(config, RegistryHttp.of(config, null), ticker);
  }

  /**
   * What Apicurio 2.6.13's ccompat API answers for the associations path, which it does not route (RESTEasy's 404,
   * {@code error_code} 0, as BareApicurioRegistryContractTest sees it).
   */
  private static MockResponse apicurio2NotFound(String path) {
    return json(404, "{\"message\":\"RESTEASY003210: Could not find resource for full path: http://127.0.0.1"
        + path + "?resourceType=topic&associationType=value\",\"error_code\":0}");
  }

  @Test
  void confluent_answersTheAssociation_askedForTheTopicsValues() throws Exception {
    registry.enqueue(json(200, "[{\"subject\":\"orders-contract\",\"guid\":\"0b0c\",\"resourceName\":\"orders\","
        + "\"resourceNamespace\":\"lkc-1\",\"resourceId\":\"r1\",\"resourceType\":\"topic\","
        + "\"associationType\":\"value\",\"lifecycle\":\"STRONG\",\"frozen\":false}]"));

    List<Association> found = client("/", 0).associations("-", "orders", "topic", "value");

    assertThat(found).containsExactly(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    assertThat(registry.takeRequest().getTarget())
        .isEqualTo("/associations/resources/-/orders?resourceType=topic&associationType=value");
  }

  @Test
  void noAssociation_emptyList_andTheRegistrysOwnNotFound_too() {
    registry.enqueue(json(200, "[]"));
    registry.enqueue(json(404, "{\"error_code\":40410,\"message\":\"Association for 'orders' not found.\"}"));
    HttpSchemaRegistryClient client = client("/", 0);

    assertThat(client.associations("-", "orders", "topic", "key")).isEmpty();
    assertThat(client.associations("-", "orders", "topic", "key")).isEmpty();
  }

  @Test
  void answerWithoutSubject_refused_namingTheField() {
    registry.enqueue(json(200, "[{\"resourceName\":\"orders\"}]"));

    assertThatThrownBy(() -> client("/", 0).associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(SchemaRegistryException.class).hasMessageContaining("'subject'")
        .hasMessageContaining("topic 'orders'");
  }

  /**
   * Apicurio 2's ccompat API has no associations: its JSON 404, while its core API answers, says so. Remembered:
   * no request for five minutes; then asked again.
   */
  @Test
  void apicurio2_missingApi_learned_notAskedAgain_forFiveMinutes() throws Exception {
    registry.enqueue(apicurio2NotFound("/apis/ccompat/v7/associations/resources/-/orders"));
    registry.enqueue(config());
    HttpSchemaRegistryClient client = client("/apis/ccompat/v7", 3);

    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("Confluent's associations API");
    assertThatThrownBy(() -> client.associations("-", "payments", "topic", "key"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(registry.takeRequest().getTarget())
        .isEqualTo("/apis/ccompat/v7/associations/resources/-/orders?resourceType=topic&associationType=value");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config");
    assertThat(registry.getRequestCount()).as("the second call sent nothing").isEqualTo(2);
    assertThat(client.stats().errors()).as("a registry's answer that it lacks an API is no failed call").isZero();

    ticker.advance(UnsupportedRegistryApiException.REMEMBERED_FOR.plus(Duration.ofSeconds(1)));
    registry.enqueue(json(200, "[{\"subject\":\"s\",\"resourceName\":\"orders\",\"resourceNamespace\":\"-\","
        + "\"resourceType\":\"topic\",\"associationType\":\"value\"}]"));
    assertThat(client.associations("-", "orders", "topic", "value")).extracting(Association::subject)
        .containsExactly("s");
  }

  /** Apicurio 3 (Quarkus) answers a path it does not route with an empty 404: the API is missing too. */
  @Test
  void apicurio3_emptyNotFound_missingApi() {
    registry.enqueue(new MockResponse.Builder().code(404).build());
    registry.enqueue(config());

    assertThatThrownBy(() -> client("/apis/ccompat/v7", 0).associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class);
  }

  /**
   * A proxy's HTML 404 on the associations path while the core API answers: an outage, never a missing API. From a
   * URL that never answered as a registry the core API is asked at once; once it answers, the call goes on with its
   * retries, as from a URL that has answered.
   */
  @Test
  void proxyHtmlNotFound_outage_notLearned() throws Exception {
    registry.enqueue(proxyPage());
    registry.enqueue(config());
    registry.enqueue(proxyPage());
    registry.enqueue(proxyPage());
    registry.enqueue(json(200, "[]"));
    HttpSchemaRegistryClient client = client("/", 1);

    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(RegistryUnavailableException.class).hasMessageContaining("gave up after 2 attempt(s)");
    assertThat(registry.getRequestCount()).as("the core API asked at once, then the call retried").isEqualTo(4);
    registry.takeRequest();
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/config");
    assertThat(client.associations("-", "orders", "topic", "value")).as("not learned as missing").isEmpty();
    assertThat(registry.getRequestCount()).isEqualTo(5);
  }

  /**
   * The serde's first call goes to the associations API: a URL that never answered as a registry, whose core API
   * answers a proxy's 404 too, is a wrong URL, given as such (not an outage), as the core API's first call says it.
   */
  @Test
  void neverAnsweredUrl_proxyNotFoundEverywhere_wrongUrl() {
    for (int i = 0; i < 3; i++) {
      registry.enqueue(proxyPage());
    }

    assertThatThrownBy(() -> client("/", 1).associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(WrongRegistryUrlException.class).hasMessageContaining("check that schema.registry.url");
  }

  /**
   * Issue 51, 404 classification: Confluent's own answer for a path it does not serve (a registry before 8.3), JSON
   * {@code error_code} 404, while its core API answers: the API is missing, learned.
   */
  @Test
  void confluentBefore83_errorCode404_missingApi_learned() {
    registry.enqueue(json(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}"));
    registry.enqueue(config());
    HttpSchemaRegistryClient client = client("/", 3);

    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("error_code 404");
    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(registry.getRequestCount()).as("remembered: the second call sent nothing").isEqualTo(2);
  }

  /** Karapace answers a path it does not serve with the bare JSON string "Not Found": its own answer, learned. */
  @Test
  void karapace_jsonStringNotFound_missingApi_learned() {
    registry.enqueue(json(404, "\"Not Found\""));
    registry.enqueue(config());

    assertThatThrownBy(() -> client("/", 3).associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("Karapace");
  }

  /**
   * Redpanda's schema registry leaves a path it does not serve to Seastar's HTTP server, which answers
   * {@code {"message": "Not found", "code": 404}} (redpanda-data/redpanda#21426): its own answer, learned. Before,
   * that was taken for an outage, so a producer on Redpanda with the default strategy retried every record for good.
   */
  @Test
  void redpanda_seastarNotFound_missingApi_learned() {
    registry.enqueue(redpandaPathNotServed());
    registry.enqueue(config());
    registry.enqueue(json(200, "[]")); // the call sent again, were Redpanda's answer taken for an outage

    assertThatThrownBy(() -> client("/", 3).associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("Redpanda");
    assertThat(registry.getRequestCount()).as("the call, then the core API").isEqualTo(2);
  }

  /**
   * Issue 51, 404 classification: from a URL of Confluent's kind, a 404 in no registry's known shape (an empty body,
   * as Envoy answers; an API gateway's JSON without an error code, as Kong's; Apicurio's JAX-RS answer, which only
   * Apicurio's URL gives) is an outage: never learned as a missing API (which would send the topic's records to the
   * fallback's subject for five minutes), retried, named with the URL and the status.
   */
  @ParameterizedTest
  @ValueSource(strings = {"", GATEWAY_NOT_FOUND,
      "{\"message\":\"Not Found\"}", "{\"message\":\"RESTEASY003210: Could not find resource\",\"error_code\":0}",
      "{\"error_code\":0,\"name\":\"NotFoundException\"}", "\"Gone fishing\"",
      "\"Not Found\" and more", "\"Not Found\"\"Not Found\"", "{\"error_code\":404,\"message\":\"HTTP 404\"} trailing",
      "{\"message\":\"Not found\",\"code\":404,\"path\":\"/associations\"}",
      "{\"message\":\"Not found\",\"code\":\"404\"}", "{\"message\":\"Not Found\",\"code\":404}"})
  void confluentKindUrl_unknown404Shape_outage_retried_notLearned(String body) throws Exception {
    HttpSchemaRegistryClient client = client("/", 1);
    registry.enqueue(config());
    client.compatibility(); // the URL has answered as a registry: a 404 from it is retried
    registry.enqueue(bare404(body));
    registry.enqueue(bare404(body));
    registry.enqueue(json(200, "[]"));

    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("HTTP 404")
        .hasMessageContaining(registry.url("/associations/resources/-/orders").toString())
        .hasMessageContaining("not a registry's own answer").hasMessageContaining("gave up after 2 attempt(s)");
    assertThat(registry.getRequestCount()).as("retried, the core API not asked").isEqualTo(3);
    assertThat(client.associations("-", "orders", "topic", "value")).as("not learned as missing: asked").isEmpty();
    assertThat(client.stats().errors()).as("an outage is a failed call").isEqualTo(1);
  }

  /**
   * An empty 404 from a URL of Confluent's kind that never answered: the core API answers, so it is an outage, and
   * the call goes on with its retries.
   */
  @Test
  void confluentKindUrl_empty404_neverAnsweredUrl_outage_afterAskingTheCoreApi() throws Exception {
    registry.enqueue(empty404());
    registry.enqueue(config());
    registry.enqueue(empty404());
    registry.enqueue(empty404());

    assertThatThrownBy(() -> client("/", 1).associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(RegistryUnavailableException.class).hasMessageContaining("gave up after 2 attempt(s)");
    assertThat(registry.getRequestCount()).isEqualTo(4);
    registry.takeRequest();
    assertThat(registry.takeRequest().getTarget()).as("the core API asked at once").isEqualTo("/config");
  }

  /**
   * On Apicurio's URL, only Apicurio's own shapes say so: a gateway's JSON 404 there is an outage too, and so are
   * Karapace's and Redpanda's answers, which no Apicurio gives.
   */
  @ParameterizedTest
  @ValueSource(strings = {GATEWAY_NOT_FOUND, "\"Not Found\"", REDPANDA_NOT_FOUND})
  void apicurioUrl_gatewaysOrOtherRegistrysJson404_outage(String body) throws Exception {
    HttpSchemaRegistryClient client = client("/apis/ccompat/v7", 0);
    registry.enqueue(config());
    client.compatibility();
    registry.enqueue(bare404(body));
    registry.enqueue(config());

    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("not a registry's own answer");
    assertThat(registry.getRequestCount()).as("an outage at once: the core API not asked").isEqualTo(2);
  }

  /** A bare 404 on one URL is an outage: failed over to the next URL, whose answer counts. */
  @Test
  void unknown404Shape_failedOverToTheNextUrl() throws Exception {
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", registry.url("/a") + ","
        + registry.url("/b"), "max.retries", 1, "retries.wait.ms", 1, "retries.max.wait.ms", 5));
    HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(config, RegistryHttp.of(config, null), ticker);
    registry.enqueue(config());
    client.compatibility();
    registry.enqueue(bare404(""));
    registry.enqueue(json(200, "[{\"subject\":\"orders-contract\"}]"));

    assertThat(client.associations("-", "orders", "topic", "value")).extracting(Association::subject)
        .containsExactly("orders-contract");
    registry.takeRequest();
    assertThat(registry.takeRequest().getTarget()).startsWith("/a/associations/");
    assertThat(registry.takeRequest().getTarget()).startsWith("/b/associations/");
  }

  /**
   * Review of issue 51, item 7: Karapace's bare "Not Found" and Redpanda's Seastar 404 count only as JSON: the same
   * text as a page of text (a proxy's) is an outage.
   */
  @ParameterizedTest
  @ValueSource(strings = {"\"Not Found\"", REDPANDA_NOT_FOUND})
  void registrysAnswer_notAsJson_outage_notLearned(String body) throws Exception {
    HttpSchemaRegistryClient client = client("/", 0);
    registry.enqueue(config());
    client.compatibility();
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/plain").body(body).build());
    registry.enqueue(json(200, "[]"));

    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(RegistryUnavailableException.class).hasMessageContaining("not a registry's own answer");
    assertThat(client.associations("-", "orders", "topic", "value")).as("not learned as missing").isEmpty();
  }

  /**
   * Review of issue 51, item 4: a success without JSON on the associations path (a login page's 200
   * {@code text/html}, a proxy's 204) is no registry's answer: an outage, retriable, never learned as a missing API
   * (which would send records to the fallback's subjects for five minutes).
   */
  @ParameterizedTest
  @ValueSource(ints = {200, 204})
  void successWithoutJson_outage_notLearnedAsMissing(int status) throws Exception {
    HttpSchemaRegistryClient client = client("/", 0);
    registry.enqueue(config());
    client.compatibility();
    MockResponse.Builder answer = new MockResponse.Builder().code(status);
    if (status == 200) {
      answer.setHeader("Content-Type", "text/html").body("<html><body>Sign in</body></html>");
    }
    registry.enqueue(answer.build());
    registry.enqueue(json(200, "[{\"subject\":\"orders-contract\"}]"));

    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("HTTP " + status).hasMessageContaining("not the registry's answer");
    assertThat(client.associations("-", "orders", "topic", "value")).as("not learned as missing: asked")
        .extracting(Association::subject).containsExactly("orders-contract");
  }

  /**
   * Review of issue 51, item 7: Apicurio's "not found" JSON (its exception's name, no 404xx code) is the registry's
   * own "not found" only from Apicurio's URL; from a URL of Confluent's kind it is no registry's answer: an outage.
   */
  @Test
  void apicuriosNotFoundJson_fromAConfluentKindUrl_notANotFound() throws Exception {
    String body = "{\"message\":\"No artifact with ID '7' was found.\",\"name\":\"ArtifactNotFoundException\"}";
    HttpSchemaRegistryClient confluent = client("/", 0);
    registry.enqueue(config());
    confluent.compatibility();
    registry.enqueue(json(404, body));
    assertThatThrownBy(() -> confluent.schemaById(7)).isInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(SchemaNotFoundException.class);

    HttpSchemaRegistryClient apicurio = client("/apis/ccompat/v7", 0);
    registry.enqueue(config());
    apicurio.compatibility();
    registry.enqueue(json(404, body));
    assertThatThrownBy(() -> apicurio.schemaById(7)).isInstanceOf(SchemaNotFoundException.class);
  }

  @Test
  void serverError_outage() {
    registry.enqueue(json(503, "{\"error_code\":50301,\"message\":\"busy\"}"));

    HttpSchemaRegistryClient client = client("/", 0);
    assertThatThrownBy(() -> client.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(RegistryUnavailableException.class);
    assertThat(client.stats().errors()).as("an outage is a failed call").isEqualTo(1);
  }

  @Test
  void clientWithoutTheApi_answersMissing() {
    // A client of the user's own that predates the API: only the interface's default answers for it.
    SchemaRegistryClient plain = (SchemaRegistryClient) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.isDefault()) {
            return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
          }
          throw new AssertionError("not called: " + method);
        });

    assertThatThrownBy(() -> plain.associations("-", "orders", "topic", "value"))
        .isExactlyInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("no associations API");
  }

  /**
   * The in-memory ({@code mock://}) registry, through the cached client of a {@code mock://} URL: as Confluent's,
   * {@code "-"} matches every namespace.
   */
  @Test
  void inMemory_associations_byNamespaceNameAndType_replaced() {
    io.kavro.registry.mock.MockRegistry scope = io.kavro.registry.mock.MockRegistries.scope("associations-api");
    SchemaRegistryClient mock = SchemaRegistryClients.create(Map.of("schema.registry.url", "mock://associations-api"));
    io.kavro.registry.mock.MockRegistries.drop("associations-api");
    scope.associate(new Association("a", "orders", "lkc-1", "topic", "value"));
    scope.associate(new Association("k", "orders", "lkc-1", "topic", "key"));
    scope.associate(new Association("b", "orders", "lkc-1", "topic", "value"));

    assertThat(mock.associations("-", "orders", "topic", "value")).extracting(Association::subject)
        .containsExactly("b");
    assertThat(mock.associations("lkc-1", "orders", "topic", "key")).extracting(Association::subject)
        .containsExactly("k");
    assertThat(mock.associations("lkc-2", "orders", "topic", "value")).isEmpty();
    assertThat(mock.associations("-", "payments", "topic", "value")).isEmpty();
    assertThatThrownBy(() -> new Association(" ", "orders", "-", "topic", "value"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("subject");
  }
}
