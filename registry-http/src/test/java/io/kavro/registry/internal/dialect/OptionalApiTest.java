package io.kavro.registry.internal.dialect;

import static io.kavro.registry.internal.dialect.RegistryAnswers.confluentPathNotServed;
import static io.kavro.registry.internal.dialect.RegistryAnswers.config;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.cache.CachingSchemaRegistryClientTest;
import java.util.Map;
import java.util.UUID;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * An optional API the registry lacks (Confluent 8's GUIDs, the metadata API) is the registry's answer: learned from
 * one 404 in a shape known for the kind of registry the URL leads to while the core API answers, not retried, not
 * asked again for five minutes, then asked again ({@link GuidAndMetadata404Test} has the 404s that are outages). A 404
 * whose core API answers such a 404 too is a wrong URL, given at once; one whose core API does not answer is an
 * outage, retried and failed over as ever. Neither is remembered.
 */
class OptionalApiTest {
  private static final UUID GUID = UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427");

  @StartStop
  final MockWebServer registry = new MockWebServer();

  private HttpSchemaRegistryClient client() {
    return client("/");
  }

  private HttpSchemaRegistryClient client(String basePath) {
    return new HttpSchemaRegistryClient(RegistryConfig.from(Map.of("schema.registry.url",
        registry.url(basePath).toString(), "retries.wait.ms", 1, "retries.max.wait.ms", 5)));
  }

  /**
   * Review of issue 49, item 8: a 404 with a page of text (a proxy's HTML) is no registry's answer that it lacks
   * the API: an outage, retried, and not remembered; the next call asks again.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"<html><body><h1>404 Not Found</h1>nginx</body></html>",
      "Not Found"})
  void guids_nonJson404FromAProxy_isAnOutage_notLearned(String body) throws Exception {
    HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(RegistryConfig.from(Map.of("schema.registry.url",
        registry.url("/").toString(), "max.retries", 0)));
    registry.enqueue(config());
    client.compatibility(); // the URL has answered as a registry: a 404 from it is an outage at once
    registry.takeRequest();
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html").body(body).build());
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html").body(body).build());

    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class);
    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(RegistryUnavailableException.class);
    assertThat(registry.getRequestCount()).as("asked again, the core API never").isEqualTo(1 + 2);
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/schemas/guids/" + GUID);
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/schemas/guids/" + GUID);
  }

  /**
   * Apicurio 3.3 answers a ccompat path it does not route with a 404 and no body: learned as missing, on Apicurio's
   * URL, once the core API answers (its real answer is pinned by Apicurio3RegistryContractTest).
   */
  @Test
  void guids_empty404_onApicuriosUrl_whileTheCoreApiAnswers_isLearned() {
    registry.enqueue(new MockResponse.Builder().code(404).build());
    registry.enqueue(config());

    assertThatThrownBy(() -> client("/apis/ccompat/v7").schemaByGuid(GUID))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("GUID API");
  }

  /** Karapace answers a path it does not serve with a bare JSON string: its answer all the same. */
  @Test
  void guids_karapacesJsonString404_isLearned() {
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
        .body("\"Not Found\"").build());
    registry.enqueue(config());

    assertThatThrownBy(() -> client().schemaByGuid(GUID)).isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("GUID API");
  }

  @Test
  void guids_missing_typedErrorAtOnce_thenNoRequestAgain() throws Exception {
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(config());
    HttpSchemaRegistryClient client = client();

    assertThatThrownBy(() -> client.schemaByGuid(GUID))
        .isInstanceOf(UnsupportedRegistryApiException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("GUID API")
        .hasMessageContaining("asks it again after 5 minutes");
    RecordedRequest feature = registry.takeRequest();
    RecordedRequest probe = registry.takeRequest();
    assertThat(feature.getTarget()).isEqualTo("/schemas/guids/" + GUID);
    assertThat(probe.getTarget()).isEqualTo("/config");

    assertThatThrownBy(() -> client.schemaByGuid(UUID.randomUUID()))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("as it answered before");
    assertThat(registry.getRequestCount()).as("the second GUID is not asked").isEqualTo(2);
  }

  /** Issue 49, item 1: a missing API is remembered for a bounded time, then asked again. */
  @Test
  void guids_missing_rememberedForMinutes_thenAskedAgain() throws Exception {
    CachingSchemaRegistryClientTest.FakeTicker ticker = new CachingSchemaRegistryClientTest.FakeTicker();
    RegistryConfig config = RegistryConfig.from(Map.of("schema.registry.url", registry.url("/").toString(),
        "retries.wait.ms", 1, "retries.max.wait.ms", 5));
    HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(config, RegistryHttp.of(config, null), ticker);
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(config());
    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(registry.getRequestCount()).isEqualTo(2);

    ticker.advance(java.time.Duration.ofMinutes(4));
    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("as it answered before");
    assertThat(registry.getRequestCount()).as("still remembered after 4 minutes").isEqualTo(2);

    ticker.advance(java.time.Duration.ofMinutes(1).plusSeconds(1));
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json")
        .body("{\"schema\":\"\\\"string\\\"\"}").build());
    assertThat(client.schemaByGuid(GUID).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(registry.getRequestCount()).as("asked again after 5 minutes").isEqualTo(3);
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/schemas/guids/" + GUID);
  }

  @Test
  void metadata_missing_typedError_otherApisUnaffected() {
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(config());
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
        .body("{\"error_code\":40403,\"message\":\"Schema not found\"}").build());
    HttpSchemaRegistryClient client = client();

    assertThatThrownBy(() -> client.latestWithMetadata("orders-value", Map.of("app", "billing")))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("metadata API");
    assertThatThrownBy(() -> client.schemaByGuid(GUID))
        .as("the GUID API is another API: asked, and here it answers").isInstanceOf(SchemaNotFoundException.class);
    assertThat(registry.getRequestCount()).isEqualTo(3);
  }

  @Test
  void guids_presentButUnknown_isNotFound_andTheApiStaysAsked() {
    MockResponse unknown = new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
        .body("{\"error_code\":40403,\"message\":\"Schema not found\"}").build();
    registry.enqueue(unknown);
    registry.enqueue(unknown);
    HttpSchemaRegistryClient client = client();

    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(SchemaNotFoundException.class);
    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(SchemaNotFoundException.class);
    assertThat(registry.getRequestCount()).isEqualTo(2);
  }

  /** Issue 37, item 8b: the core API answers a 404 without a registry error code too: the URL is wrong. */
  @Test
  void featureAndCoreBothNotFound_isAWrongUrl_atOnce_andNotRemembered() throws Exception {
    for (int i = 0; i < 1 + 4 + 1 + 4; i++) {
      registry.enqueue(confluentPathNotServed());
    }
    HttpSchemaRegistryClient client = client();

    assertThatThrownBy(() -> client.schemaByGuid(GUID))
        .isInstanceOf(WrongRegistryUrlException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class)
        .isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("check that schema.registry.url is the registry's base URL")
        .hasMessageContaining(registry.url("/config").toString());
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/schemas/guids/" + GUID);
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/config");
    assertThat(registry.getRequestCount()).as("the GUID call once, the core API once: no retry").isEqualTo(2);

    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(WrongRegistryUrlException.class);
    assertThat(registry.getRequestCount()).as("not remembered as missing: asked again").isEqualTo(4);
  }

  /** A 404 of the feature while the core API is down: an outage, retried and failed over, not a missing API. */
  @Test
  void featureNotFound_coreUnavailable_isUnavailable_retried_andNotRemembered() {
    registry.enqueue(confluentPathNotServed());
    for (int i = 0; i < 4; i++) {
      registry.enqueue(new MockResponse.Builder().code(503).build());
    }
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(config());
    HttpSchemaRegistryClient client = client();

    assertThatThrownBy(() -> client.schemaByGuid(GUID))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("gave up after 4 attempt(s)");
    assertThat(registry.getRequestCount()).as("the GUID call once, the core API with its retries").isEqualTo(5);

    assertThatThrownBy(() -> client.schemaByGuid(GUID)).isInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(registry.getRequestCount()).as("not remembered as missing: asked again").isEqualTo(7);
  }

  @Test
  void featureAnswers503_isRetriedAsEver() {
    registry.enqueue(new MockResponse.Builder().code(503).build());
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json")
        .body("{\"schema\":\"\\\"string\\\"\"}").build());

    assertThat(client().schemaByGuid(GUID).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(registry.getRequestCount()).isEqualTo(2);
  }

  /**
   * Apicurio 3 answers the metadata path with 204 and no body: on its URL, the API is not there, once the core API
   * answers (from a URL of Confluent's kind, a proxy's 204 is an outage: {@link GuidAndMetadata404Test}).
   */
  @Test
  void metadata_noContent_onApicuriosUrl_isAMissingApi() throws Exception {
    registry.enqueue(new MockResponse.Builder().code(204).build());
    registry.enqueue(config());
    HttpSchemaRegistryClient client = client("/apis/ccompat/v7");

    assertThatThrownBy(() -> client.latestWithMetadata("orders-value", Map.of("app", "billing")))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("metadata API")
        .hasMessageContaining("204");
    assertThatThrownBy(() -> client.latestWithMetadata("orders-value", Map.of("app", "billing")))
        .isInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(registry.getRequestCount()).isEqualTo(2);
    registry.takeRequest();
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config");
  }

  /** A core API that denies access still answers: the registry is there, and lacks the GUID API. */
  @Test
  void coreApiDeniesAccess_stillAnAnswer_apiMissing() {
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(new MockResponse.Builder().code(403).setHeader("Content-Type", "application/json")
        .body("{\"error_code\":40301,\"message\":\"forbidden\"}").build());

    assertThatThrownBy(() -> client().schemaByGuid(GUID)).isInstanceOf(UnsupportedRegistryApiException.class);
    assertThat(registry.getRequestCount()).isEqualTo(2);
  }
}
