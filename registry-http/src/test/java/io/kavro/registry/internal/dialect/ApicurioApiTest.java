package io.kavro.registry.internal.dialect;

import static io.kavro.registry.internal.dialect.RegistryAnswers.confluentPathNotServed;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.ApicurioId;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.config.RegistryConfig;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Schemas by Apicurio's own ids, as its serdes frame records: found beside the Confluent-compatible base URL,
 * v3 first and v2 when v3 is missing (learned once), its "not found" (which has no 404xx code) told apart from a
 * missing API and from an outage.
 */
class ApicurioApiTest {
  private static final String RECORD = "{\"type\":\"record\",\"name\":\"Order\",\"fields\":[{\"name\":\"id\","
      + "\"type\":\"long\"}]}";
  private static final ApicurioId GLOBAL_7 = new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 7);
  private static final ApicurioId CONTENT_5 = new ApicurioId(ApicurioId.Kind.CONTENT_ID, 5);

  @StartStop
  final MockWebServer registry = new MockWebServer();

  private HttpSchemaRegistryClient client(String basePath) {
    return new HttpSchemaRegistryClient(RegistryConfig.from(Map.of("schema.registry.url",
        registry.url(basePath).toString(), "retries.wait.ms", 1, "retries.max.wait.ms", 5)));
  }

  private static MockResponse content(String schema) {
    return new MockResponse.Builder().setHeader("Content-Type", "application/octet-stream").body(schema).build();
  }

  @Test
  void v3_globalId_dereferenced_underTheRegistrysRoot() throws Exception {
    registry.enqueue(content(RECORD));

    Schema schema = client("/registry/apis/ccompat/v7").schemaByApicurioId(GLOBAL_7);

    assertThat(schema.getFullName()).isEqualTo("Order");
    assertThat(registry.takeRequest().getTarget())
        .isEqualTo("/registry/apis/registry/v3/ids/globalIds/7?references=DEREFERENCE");
  }

  @Test
  void v3_contentId_bareTextOfAPrimitive() throws Exception {
    registry.enqueue(content("\"string\""));

    assertThat(client("/apis/ccompat/v6/").schemaByApicurioId(CONTENT_5).getType()).isEqualTo(Schema.Type.STRING);
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/registry/v3/ids/contentIds/5");
  }

  /**
   * Apicurio 2 has no v3: it answers JAX-RS's plain 404 ({@code "name": "NotFoundException"}, RESTEASY003210, as
   * Apicurio 2.6.13 does) while the core API answers; v2 from then on.
   */
  @Test
  void v3Missing_v2Used_andV3NotAskedAgain() throws Exception {
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
        .body("{\"message\":\"RESTEASY003210: Could not find resource for full path: "
            + "http://127.0.0.1/apis/registry/v3/ids/globalIds/7\",\"error_code\":404,\"name\":\"NotFoundException\"}")
        .build());
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json")
        .body("{\"compatibilityLevel\":\"BACKWARD\"}").build());
    registry.enqueue(content(RECORD));
    registry.enqueue(content("\"long\""));
    HttpSchemaRegistryClient client = client("/apis/ccompat/v7");

    assertThat(client.schemaByApicurioId(GLOBAL_7).getFullName()).isEqualTo("Order");
    assertThat(client.schemaByApicurioId(CONTENT_5).getType()).isEqualTo(Schema.Type.LONG);

    assertThat(registry.takeRequest().getTarget())
        .isEqualTo("/apis/registry/v3/ids/globalIds/7?references=DEREFERENCE");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/registry/v2/ids/globalIds/7?dereference=true");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/registry/v2/ids/contentIds/5");
    assertThat(registry.getRequestCount()).isEqualTo(4);
  }

  /** Apicurio 3's problem details and Apicurio 2's error JSON: the registry's own "not found", not retried. */
  @Test
  void notFound_eitherVersionsJson_isSchemaNotFound_once() {
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/problem+json")
        .body("{\"detail\":\"No content with id '99' was found.\",\"title\":\"No content with id '99' was found.\","
            + "\"status\":404,\"name\":\"ContentNotFoundException\"}").build());
    registry.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
        .body("{\"message\":\"No artifact with ID '99' was found.\",\"error_code\":404,"
            + "\"name\":\"ArtifactNotFoundException\"}").build());
    HttpSchemaRegistryClient client = client("/apis/ccompat/v7");

    assertThatThrownBy(() -> client.schemaByApicurioId(new ApicurioId(ApicurioId.Kind.CONTENT_ID, 99)))
        .isInstanceOf(SchemaNotFoundException.class).hasMessageContaining("ContentNotFoundException")
        .hasMessageContaining("Apicurio content id 99");
    assertThatThrownBy(() -> client.schemaByApicurioId(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 99)))
        .isInstanceOf(SchemaNotFoundException.class).hasMessageContaining("No artifact with ID '99'");
    assertThat(registry.getRequestCount()).isEqualTo(2);
  }

  @Test
  void notApicurio_neitherApi_unsupported_thenNoRequestAgain() {
    MockResponse config = new MockResponse.Builder().setHeader("Content-Type", "application/json")
        .body("{\"compatibilityLevel\":\"BACKWARD\"}").build();
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(config);
    registry.enqueue(confluentPathNotServed());
    registry.enqueue(config);
    HttpSchemaRegistryClient client = client("/apis/ccompat/v7");

    assertThatThrownBy(() -> client.schemaByApicurioId(GLOBAL_7)).isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("Apicurio's v2 API");
    assertThat(registry.getRequestCount()).isEqualTo(4);
    assertThatThrownBy(() -> client.schemaByApicurioId(CONTENT_5)).isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("as it answered before");
    assertThat(registry.getRequestCount()).as("remembered").isEqualTo(4);
  }

  @Test
  void urlNotApicurios_unsupported_withoutARequest() {
    assertThatThrownBy(() -> client("/").schemaByApicurioId(GLOBAL_7))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("/apis/ccompat/v<n>");
    assertThat(registry.getRequestCount()).isZero();
  }

  @Test
  void outage_isRetried_notAMissingApi() {
    registry.enqueue(new MockResponse.Builder().code(503).build());
    registry.enqueue(content(RECORD));

    assertThat(client("/apis/ccompat/v7").schemaByApicurioId(GLOBAL_7).getFullName()).isEqualTo("Order");
    assertThat(registry.getRequestCount()).isEqualTo(2);
  }

  /**
   * Trust review, item 1: a captive portal's or a load balancer's {@code 200 text/html} for Apicurio's own API is an
   * outage, retried, never that API missing (it was: v3 then v2 learned missing for 5 minutes, Apicurio-framed
   * records failed not retriably).
   */
  @Test
  void captivePortalSuccess_isAnOutage_retried_notAMissingApi() throws Exception {
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html")
        .body("<html><body>Welcome! Accept the terms to continue</body></html>").build());
    registry.enqueue(content(RECORD));

    assertThat(client("/apis/ccompat/v7").schemaByApicurioId(GLOBAL_7).getFullName()).isEqualTo("Order");
    assertThat(registry.takeRequest().getTarget())
        .isEqualTo("/apis/registry/v3/ids/globalIds/7?references=DEREFERENCE");
    assertThat(registry.takeRequest().getTarget()).as("v3 again: not learned missing")
        .isEqualTo("/apis/registry/v3/ids/globalIds/7?references=DEREFERENCE");
    assertThat(registry.getRequestCount()).isEqualTo(2);
  }

  /**
   * Trust review, item 1: a page ({@code 200 text/html}) or no body for Apicurio's own API, every time: an outage
   * once retries end, never a missing API nor an invalid schema.
   */
  @Test
  void pageOrNoBody_untilRetriesEnd_unavailable_notUnsupported() {
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html; charset=UTF-8")
        .body("<html><body>Sign in</body></html>").build());
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/xhtml+xml")
        .body("<html xmlns=\"http://www.w3.org/1999/xhtml\"><body>Sign in</body></html>").build());
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/octet-stream").body("")
        .build());
    HttpSchemaRegistryClient client = new HttpSchemaRegistryClient(RegistryConfig.from(Map.of("schema.registry.url",
        registry.url("/apis/ccompat/v7").toString(), "max.retries", 2, "retries.wait.ms", 1,
        "retries.max.wait.ms", 5)));

    assertThatThrownBy(() -> client.schemaByApicurioId(GLOBAL_7)).isInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("not the registry's answer");
    assertThat(registry.getRequestCount()).isEqualTo(3);
  }

  /**
   * Review, item 1: Apicurio's own API answers a schema's content as uploaded, and Avro's parser reads comments (an
   * .avsc with a licence header): the schema is read, not taken for an outage (it was: retried, failed over, then
   * "check schema.registry.url", on every read of that id).
   */
  @Test
  void contentWithComments_isRead() {
    registry.enqueue(content("/* Licensed under the Apache License, Version 2.0 */\n"
        + "{\"type\":\"record\",\"name\":\"Order\", // the order\n\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}"));

    assertThat(client("/apis/ccompat/v7").schemaByApicurioId(GLOBAL_7).getField("id").schema().getType())
        .isEqualTo(Schema.Type.LONG);
    assertThat(registry.getRequestCount()).isEqualTo(1);
  }

  /**
   * Review, item 1: content that is no page and that Avro cannot parse is the registry's answer: an invalid schema,
   * at once, naming the id and the registry; not an outage retried until it fails.
   */
  @Test
  void garbageContent_invalidSchema_namingTheIdAndTheRegistry_notRetried() {
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/plain").body("200 OK").build());

    assertThatThrownBy(() -> client("/apis/ccompat/v7").schemaByApicurioId(GLOBAL_7))
        .isInstanceOf(InvalidSchemaException.class).isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("Apicurio global id 7").hasMessageContaining(registry.url("/apis/registry/v3").toString())
        .hasMessageContaining("Avro cannot parse").hasMessageNotContaining("schema.registry.url");
    assertThat(registry.getRequestCount()).isEqualTo(1);
  }

  /**
   * Apicurio 3's own answer for a path it does not serve, a 204 without a body: the API is missing once the core
   * API answers (asked first, as for a 404 of Apicurio's), and v2 is used.
   */
  @Test
  void noContent_whileTheCoreApiAnswers_v3Missing_v2Used() throws Exception {
    registry.enqueue(new MockResponse.Builder().code(204).build());
    registry.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json")
        .body("{\"compatibilityLevel\":\"BACKWARD\"}").build());
    registry.enqueue(content(RECORD));

    assertThat(client("/apis/ccompat/v7").schemaByApicurioId(GLOBAL_7).getFullName()).isEqualTo("Order");
    assertThat(registry.takeRequest().getTarget())
        .isEqualTo("/apis/registry/v3/ids/globalIds/7?references=DEREFERENCE");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/registry/v2/ids/globalIds/7?dereference=true");
  }

  @Test
  void behindTheClientsCache_eachIdAskedOnce() {
    registry.enqueue(content(RECORD));
    try (io.kavro.registry.SchemaRegistryClient client = io.kavro.registry.factory.SchemaRegistryClients.create(Map.of(
        "schema.registry.url", registry.url("/apis/ccompat/v7").toString()))) {
      Schema first = client.schemaByApicurioId(GLOBAL_7);
      assertThat(client.schemaByApicurioId(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 7))).isSameAs(first);
    }
    assertThat(registry.getRequestCount()).isEqualTo(1);
  }

  @Test
  void notAnAvroSchema_invalidSchema() {
    registry.enqueue(content("{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\"}"));
    registry.enqueue(content("42"));
    HttpSchemaRegistryClient client = client("/apis/ccompat/v7");

    assertThatThrownBy(() -> client.schemaByApicurioId(GLOBAL_7)).isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("Apicurio global id 7");
    assertThatThrownBy(() -> client.schemaByApicurioId(CONTENT_5)).isInstanceOf(InvalidSchemaException.class)
        .isNotInstanceOf(RegistryUnavailableException.class);
  }
}
