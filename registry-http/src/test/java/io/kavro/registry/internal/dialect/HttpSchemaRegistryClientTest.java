package io.kavro.registry.internal.dialect;

import static io.kavro.registry.TestSchemas.USER_V1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.InvalidSubjectException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.http.JsonBodies;
import io.kavro.registry.internal.http.RestTransport;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every endpoint's request and answer, and every mapped error: enqueue, call, assert, take the request. */
class HttpSchemaRegistryClientTest {
  private static final String JSON = "application/vnd.schemaregistry.v1+json";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private HttpSchemaRegistryClient client(Map<String, Object> extra) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/apis/ccompat/v7").toString());
    config.put("max.retries", 0);
    config.putAll(extra);
    return new HttpSchemaRegistryClient(RegistryConfig.from(config));
  }

  private HttpSchemaRegistryClient client() {
    return client(Map.of());
  }

  private void answer(int code, String body) {
    server.enqueue(new MockResponse.Builder().code(code).setHeader("Content-Type", JSON).body(body).build());
  }

  private static JsonNode body(RecordedRequest request) {
    return JsonBodies.tryParse(request.getBody().utf8());
  }

  @Test
  void register_postsSchemaToVersions() throws Exception {
    answer(200, "{\"id\":7}");

    assertThat(client().register("orders-value", USER_V1)).isEqualTo(7);

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/apis/ccompat/v7/subjects/orders-value/versions");
    assertThat(request.getHeaders().get("Content-Type")).startsWith(JSON);
    assertThat(request.getHeaders().get("Accept")).contains(JSON).contains("application/json");
    assertThat(body(request).get("schema").asText()).isEqualTo(USER_V1.toString());
    assertThat(body(request).has("schemaType")).isFalse();
  }

  /**
   * Issue 23, item 3: registered with references, the schema is sent with each referenced type, and the types it
   * defines, by name only, and the references beside it, as Confluent's REST API takes them.
   */
  @Test
  void register_withReferences_sendsReferencedTypesByName() throws Exception {
    Schema placed = io.kavro.registry.TestSchemas.parse("""
        {"type":"record","name":"OrderPlaced","namespace":"com.acme","fields":[{"name":"to","type":
          {"type":"record","name":"Address","fields":[{"name":"street","type":"string"}]}}]}""");
    Schema union = Schema.createUnion(placed, USER_V1);
    answer(200, "{\"id\":9}");

    assertThat(client().register("events-value", union,
        List.of(new SchemaReference("com.acme.OrderPlaced", "com.acme.OrderPlaced", 2)))).isEqualTo(9);

    JsonNode body = body(server.takeRequest());
    assertThat(body.get("schema").asText()).startsWith("[\"com.acme.OrderPlaced\",{\"type\":\"record\"")
        .doesNotContain("Address");
    assertThat(body.get("references").toString())
        .isEqualTo("[{\"name\":\"com.acme.OrderPlaced\",\"subject\":\"com.acme.OrderPlaced\",\"version\":2}]");
    assertThatThrownBy(() -> client().register("events-value", union,
        List.of(new SchemaReference("com.acme.Address2", "a", 1))))
        .isInstanceOf(InvalidSchemaException.class).hasMessageContaining("com.acme.Address2")
        .hasMessageContaining("it uses com.acme.OrderPlaced, com.acme.Address");
    assertThat(server.getRequestCount()).as("nothing sent for the refused registration").isEqualTo(1);
  }

  @Test
  void register_normalize_addsQueryParameter() throws Exception {
    answer(200, "{\"id\":7}");

    client(Map.of("normalize.schemas", true)).register("s", USER_V1);

    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/s/versions?normalize=true");
  }

  @Test
  void register_subjectIsPathEncoded() throws Exception {
    answer(200, "{\"id\":1}");

    client().register("a/b c?d#e%f", USER_V1);

    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/apis/ccompat/v7/subjects/a%2Fb%20c%3Fd%23e%25f/versions");
  }

  @Test
  void lookup_postsToSubject() throws Exception {
    answer(200, "{\"subject\":\"s\",\"id\":3,\"version\":2,\"schema\":" + quoted(USER_V1.toString()) + "}");

    SubjectVersion found = client().lookup("s", USER_V1);

    assertThat(found).isEqualTo(new SubjectVersion("s", 2, 3, USER_V1));
    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/apis/ccompat/v7/subjects/s");
    assertThat(body(request).get("schema").asText()).isEqualTo(USER_V1.toString());
  }

  @Test
  void schemaById_getsAndParses() throws Exception {
    answer(200, "{\"schema\":" + quoted(USER_V1.toString()) + "}");

    assertThat(client().schemaById(12)).isEqualTo(USER_V1);

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getTarget()).isEqualTo("/apis/ccompat/v7/schemas/ids/12");
  }

  @Test
  void schemaById_plainJsonContentType_accepted() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json")
        .body("{\"schema\":\"\\\"string\\\"\",\"schemaType\":\"AVRO\"}").build());

    assertThat(client().schemaById(1).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);
  }

  @Test
  void schemaById_protobufSchema_invalidSchema() {
    answer(200, "{\"schema\":\"syntax = \\\"proto3\\\";\",\"schemaType\":\"PROTOBUF\"}");

    assertThatThrownBy(() -> client().schemaById(4))
        .isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("id 4 is a PROTOBUF schema");
  }

  @Test
  void schemaById_unparseableSchema_invalidSchema() {
    answer(200, "{\"schema\":\"{not avro\"}");

    assertThatThrownBy(() -> client().schemaById(4)).isInstanceOf(InvalidSchemaException.class)
        .hasMessageContaining("get schema by id 4");
  }

  @Test
  void latestVersion_getsLatest() throws Exception {
    answer(200, "{\"subject\":\"s\",\"version\":4,\"id\":9,\"schema\":" + quoted(USER_V1.toString()) + "}");

    assertThat(client().latestVersion("s")).isEqualTo(new SubjectVersion("s", 4, 9, USER_V1));
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/s/versions/latest");
  }

  @Test
  void version_getsNumberedVersion() throws Exception {
    answer(200, "{\"subject\":\"s\",\"version\":2,\"id\":5,\"schema\":" + quoted(USER_V1.toString()) + "}");

    assertThat(client().version("s", 2).id()).isEqualTo(5);
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/s/versions/2");
  }

  @Test
  void subjects_and_versions_listed() throws Exception {
    answer(200, "[\"a-value\",\"b-key\"]");
    answer(200, "[1,2,5]");

    assertThat(client().subjects()).containsExactly("a-value", "b-key");
    HttpSchemaRegistryClient client = client();
    assertThat(client.versions("a-value")).containsExactly(1, 2, 5);
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/a-value/versions");
  }

  @Test
  void isCompatible_postsToCompatibilityEndpoint() throws Exception {
    answer(200, "{\"is_compatible\":false}");

    assertThat(client().isCompatible("s", USER_V1)).isFalse();

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/apis/ccompat/v7/compatibility/subjects/s/versions/latest");
    assertThat(body(request).get("schema").asText()).isEqualTo(USER_V1.toString());
  }

  /** Issue 25, item 3: the registry's reasons, asked for with verbose=true, come with the answer. */
  @Test
  void checkCompatibility_asksVerbose_andReturnsTheRegistrysReasons() throws Exception {
    answer(200, "{\"is_compatible\":false,\"messages\":[\"READER_FIELD_MISSING_DEFAULT_VALUE: email\"]}");

    io.kavro.registry.CompatibilityCheck check = client().checkCompatibility("s", USER_V1);

    assertThat(check.compatible()).isFalse();
    assertThat(check.messages()).containsExactly("READER_FIELD_MISSING_DEFAULT_VALUE: email");
    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/apis/ccompat/v7/compatibility/subjects/s/versions/latest?verbose=true");
  }

  /** Apicurio 3 calls a schema compatible with a subject that does not exist: the subject's versions say so. */
  @Test
  void isCompatible_trueForASubjectThatDoesNotExist_notFound() {
    answer(200, "{\"is_compatible\":true}");
    answer(404, "{\"error_code\":40401,\"message\":\"Subject 's' not found.\"}");
    assertThatThrownBy(() -> client().isCompatible("s", USER_V1))
        .isInstanceOf(io.kavro.registry.SchemaNotFoundException.class);

    answer(200, "{\"is_compatible\":true}");
    answer(200, "[1]");
    assertThat(client().isCompatible("s", USER_V1)).isTrue();
  }

  /** Issue 22, item 12: an unknown subject (40401) is an error that names it; it was "compatible". */
  @Test
  void isCompatible_unknownSubject_notFound() {
    answer(404, "{\"error_code\":40401,\"message\":\"Subject 's' not found.\"}");

    assertThatThrownBy(() -> client().isCompatible("s", USER_V1))
        .isInstanceOf(io.kavro.registry.SchemaNotFoundException.class).hasMessageContaining("Subject 's' not found");
  }

  @Test
  void compatibility_global_getAndPut() throws Exception {
    answer(200, "{\"compatibilityLevel\":\"FULL_TRANSITIVE\"}");
    answer(200, "{\"compatibility\":\"NONE\"}");
    HttpSchemaRegistryClient client = client();

    assertThat(client.compatibility()).isEqualTo(CompatibilityLevel.FULL_TRANSITIVE);
    client.setCompatibility(CompatibilityLevel.NONE);

    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config");
    RecordedRequest put = server.takeRequest();
    assertThat(put.getMethod()).isEqualTo("PUT");
    assertThat(put.getTarget()).isEqualTo("/apis/ccompat/v7/config");
    assertThat(body(put).get("compatibility").asText()).isEqualTo("NONE");
  }

  @Test
  void compatibility_subject_getAndPut() throws Exception {
    answer(200, "{\"compatibility\":\"forward\"}");
    answer(200, "{\"compatibility\":\"BACKWARD\"}");
    HttpSchemaRegistryClient client = client();

    assertThat(client.compatibility("s")).isEqualTo(CompatibilityLevel.FORWARD);
    client.setCompatibility("s", CompatibilityLevel.BACKWARD);

    // The level alone is one request: compatibilityInForce asks without defaultToGlobal, for whose level it is.
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config/s?defaultToGlobal=true");
    RecordedRequest put = server.takeRequest();
    assertThat(put.getMethod()).isEqualTo("PUT");
    assertThat(put.getTarget()).isEqualTo("/apis/ccompat/v7/config/s");
  }

  @Test
  void compatibility_subjectWithoutLevel_fallsBackToGlobal() {
    answer(404, "{\"error_code\":40408,\"message\":\"Subject 's' does not have subject-level compatibility\"}");
    answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}");

    assertThat(client().compatibility("s")).isEqualTo(CompatibilityLevel.BACKWARD);
  }

  @Test
  void deletes_softAndPermanent() throws Exception {
    answer(200, "[1,2]");
    answer(200, "[1,2]");
    answer(200, "3");
    answer(200, "3");
    HttpSchemaRegistryClient client = client();

    assertThat(client.deleteSubject("s")).containsExactly(1, 2);
    assertThat(client.deleteSubjectPermanently("s")).containsExactly(1, 2);
    assertThat(client.deleteVersion("s", 3)).isEqualTo(3);
    assertThat(client.deleteVersionPermanently("s", 3)).isEqualTo(3);

    List<String> targets = List.of(server.takeRequest().getTarget(), server.takeRequest().getTarget(),
        server.takeRequest().getTarget(), server.takeRequest().getTarget());
    assertThat(targets).containsExactly("/apis/ccompat/v7/subjects/s",
        "/apis/ccompat/v7/subjects/s?permanent=true",
        "/apis/ccompat/v7/subjects/s/versions/3",
        "/apis/ccompat/v7/subjects/s/versions/3?permanent=true");
  }

  @ParameterizedTest
  @CsvSource({
      "404, 40401, io.kavro.registry.SchemaNotFoundException",
      "404, 40402, io.kavro.registry.SchemaNotFoundException",
      "404, 40403, io.kavro.registry.SchemaNotFoundException",
      "404, 404, io.kavro.registry.WrongRegistryUrlException",
      "409, 409, io.kavro.registry.IncompatibleSchemaException",
      "422, 42201, io.kavro.registry.InvalidSchemaException",
      "422, 42202, io.kavro.registry.SchemaRegistryException",
      "401, 401, io.kavro.registry.RegistryAccessDeniedException",
      "403, 40301, io.kavro.registry.RegistryAccessDeniedException",
      "400, 400, io.kavro.registry.SchemaRegistryException",
      "500, 50001, io.kavro.registry.RegistryUnavailableException",
      "503, 50003, io.kavro.registry.RegistryUnavailableException",
      "429, 429, io.kavro.registry.RegistryUnavailableException",
      "408, 408, io.kavro.registry.RegistryUnavailableException",
  })
  void errors_mappedToTypedExceptions(int status, int errorCode, String type) {
    answer(status, "{\"error_code\":" + errorCode + ",\"message\":\"the registry says no\"}");

    assertThatThrownBy(() -> client().schemaById(1))
        .isExactlyInstanceOf(classFor(type))
        .hasMessageContaining("get schema by id 1 failed: HTTP " + status)
        .hasMessageContaining("error_code " + errorCode)
        .hasMessageContaining("the registry says no")
        .hasMessageContaining(server.url("/apis/ccompat/v7/schemas/ids/1").toString())
        .satisfies(e -> {
          SchemaRegistryException sre = (SchemaRegistryException) e;
          assertThat(sre.status()).isEqualTo(status);
          assertThat(sre.errorCode()).isEqualTo(errorCode);
          assertThat(sre.url()).isEqualTo(server.url("/apis/ccompat/v7/schemas/ids/1").toString());
        });
  }

  @Test
  void error_htmlPageFromProxy_clearRegistryException() {
    server.enqueue(new MockResponse.Builder().code(502).setHeader("Content-Type", "text/html")
        .body("<html><body><h1>502 Bad Gateway</h1></body></html>").build());

    assertThatThrownBy(() -> client().register("s", USER_V1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("HTTP 502")
        .hasMessageContaining("non-JSON body (text/html)")
        .hasMessageContaining("502 Bad Gateway")
        .satisfies(e -> {
          for (Throwable t = e; t != null; t = t.getCause()) {
            assertThat(t).isInstanceOf(SchemaRegistryException.class);
          }
        });
  }

  /** Trust item 1: a success without JSON (a login page) is no registry's answer: an outage, retriable. */
  @Test
  void success_withMalformedJson_clearRetriableException() {
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/html")
        .body("<html>login page</html>").build());

    assertThatThrownBy(() -> client().register("s", USER_V1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("register schema under subject 's' failed: HTTP 200 with a body that is not JSON")
        .hasMessageContaining("text/html");
  }

  @Test
  void success_missingField_clearRegistryException() {
    answer(200, "{\"identifier\":7}");

    assertThatThrownBy(() -> client().register("s", USER_V1))
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("no valid 'id' field");
  }

  @Test
  void error_emptyBody_stillTyped() {
    server.enqueue(new MockResponse.Builder().code(500).build());

    assertThatThrownBy(() -> client().schemaById(1)).isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("(empty body)");
  }

  /**
   * Issue 13, item 7: a 404 without the registry's 404xx error_code is not "unknown id". Issue 37, item 8b: nor is
   * it an outage: the URL is wrong.
   */
  @Test
  void error_404WithoutRegistryErrorCode_wrongUrlNotNotFound() {
    server.enqueue(new MockResponse.Builder().code(404).build());

    assertThatThrownBy(() -> client().schemaById(1)).isInstanceOf(WrongRegistryUrlException.class)
        .isNotInstanceOf(SchemaNotFoundException.class).isNotInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("(empty body)").hasMessageContaining("without the registry's own 404xx error_code");
  }

  /**
   * Issue 37, item 8b: Apicurio's root given as the URL, without its {@code /apis/ccompat/v7}. Apicurio 2 answers
   * the core API there with JAX-RS's plain 404 (error_code 404, not a 404xx): a configuration error, given at once
   * with the URL, without its credentials, and what to check. One request: not retried, though retries are on.
   */
  @Test
  void apicurioRootAsTheUrl_wrongUrl_atOnce_oneRequest_noCredentialsShown() throws Exception {
    server.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
        .body("{\"message\":\"RESTEASY003210: Could not find resource for full path: "
            + "http://127.0.0.1/schemas/ids/1\",\"error_code\":404,\"name\":\"NotFoundException\"}").build());
    answer(200, "{\"schema\":\"\\\"string\\\"\"}"); // what a retry would get
    String root = server.url("/").newBuilder().username("alice").password("s3cret").build().toString();
    HttpSchemaRegistryClient client = client(Map.of("schema.registry.url", root, "max.retries", 3,
        "retries.wait.ms", 1, "retries.max.wait.ms", 5));

    assertThatThrownBy(() -> client.schemaById(1))
        .isExactlyInstanceOf(WrongRegistryUrlException.class)
        .hasMessage("get schema by id 1 failed: HTTP 404, error_code 404: RESTEASY003210: Could not find resource "
            + "for full path: http://127.0.0.1/schemas/ids/1 (" + server.url("/schemas/ids/1") + "); a 404 from the "
            + "registry's core API without the registry's own 404xx error_code, so " + server.url("/") + " is not "
            + "the base URL of a schema registry's API: check that schema.registry.url is the registry's base URL "
            + "(for Apicurio: " + server.url("/apis/ccompat/v7") + ") and that nothing in between (a proxy, a "
            + "gateway) answers for it. A configuration error: not retried")
        .hasMessageNotContaining("alice").hasMessageNotContaining("s3cret")
        .satisfies(e -> {
          WrongRegistryUrlException wrong = (WrongRegistryUrlException) e;
          assertThat(wrong.status()).isEqualTo(404);
          assertThat(wrong.errorCode()).isEqualTo(404);
          assertThat(wrong.url()).isEqualTo(server.url("/schemas/ids/1").toString());
          assertThat(wrong.base()).as("the configured URL, without its credentials").isEqualTo(server.url("/")
              .toString());
          assertThat(wrong.answer()).isEqualTo("HTTP 404, error_code 404: RESTEASY003210: Could not find resource "
              + "for full path: http://127.0.0.1/schemas/ids/1");
          assertThat(wrong.getCause()).isNull();
        });
    RecordedRequest request = server.takeRequest();
    assertThat(request.getTarget()).isEqualTo("/schemas/ids/1");
    assertThat(server.getRequestCount()).as("one request: no retry").isEqualTo(1);
    assertThat(client.stats().retries()).isZero();
  }

  /**
   * Issue 37, item 8b: each core endpoint answered with a 404 without error_code (an empty body, as a load
   * balancer's) is a wrong URL at once: one request each, though retries are on.
   */
  @ParameterizedTest
  @CsvSource({"register", "lookup", "schemaById", "latestVersion", "subjects", "versions", "compatibility",
      "subjectCompatibility", "isCompatible"})
  void coreEndpoint_404WithoutErrorCode_wrongUrl_oneRequest(String call) throws Exception {
    server.enqueue(new MockResponse.Builder().code(404).build());
    answer(200, "{}"); // what a retry would get
    HttpSchemaRegistryClient client = client(Map.of("max.retries", 3, "retries.wait.ms", 1, "retries.max.wait.ms", 5));

    assertThatThrownBy(() -> {
      switch (call) {
        case "register" -> client.register("s", USER_V1);
        case "lookup" -> client.lookup("s", USER_V1);
        case "schemaById" -> client.schemaById(1);
        case "latestVersion" -> client.latestVersion("s");
        case "subjects" -> client.subjects();
        case "versions" -> client.versions("s");
        case "compatibility" -> client.compatibility();
        case "subjectCompatibility" -> client.compatibility("s");
        case "isCompatible" -> client.isCompatible("s", USER_V1);
        default -> throw new AssertionError(call);
      }
    }).isExactlyInstanceOf(WrongRegistryUrlException.class)
        .hasMessageContaining("failed: HTTP 404: (empty body)")
        .hasMessageContaining("check that schema.registry.url is the registry's base URL (for Apicurio: "
            + "http://host:port/apis/ccompat/v7)");
    assertThat(server.takeRequest().getTarget()).startsWith("/apis/ccompat/v7/");
    assertThat(server.getRequestCount()).as("one request: no retry").isEqualTo(1);
  }

  @Test
  void hugeBody_refused() {
    okio.Buffer big = new okio.Buffer();
    byte[] chunk = new byte[1024 * 1024];
    java.util.Arrays.fill(chunk, (byte) ' ');
    for (int i = 0; i < 17; i++) {
      big.write(chunk);
    }
    server.enqueue(new MockResponse.Builder().setHeader("Content-Type", JSON).body(big).build());

    assertThatThrownBy(() -> client().subjects())
        .isExactlyInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("larger than " + RestTransport.MAX_BODY_BYTES + " bytes");
  }

  @Test
  void register_conflictFromConcurrentRegistration_resolvedByLookup() throws Exception {
    answer(409, "{\"error_code\":409,\"message\":\"An artifact with ID 's' already exists.\"}");
    answer(200, "{\"subject\":\"s\",\"id\":11,\"version\":1,\"schema\":" + quoted(USER_V1.toString()) + "}");

    assertThat(client().register("s", USER_V1)).isEqualTo(11);

    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/s/versions");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/s");
  }

  @Test
  void incompatible_messageFromRegistryKept() {
    answer(409, "{\"error_code\":409,\"message\":\"Schema being registered is incompatible\"}");
    answer(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");

    assertThatThrownBy(() -> client().register("s", USER_V1))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("Schema being registered is incompatible");
  }

  @SuppressWarnings("unchecked")
  private static Class<? extends Throwable> classFor(String name) {
    try {
      return (Class<? extends Throwable>) Class.forName(name);
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  private static String quoted(String text) {
    return JsonBodies.MAPPER.getNodeFactory().textNode(text).toString();
  }

  /**
   * Issue 23, item 1: a schema the registry already holds is read even when a default does not match its type
   * (registered before Avro 1.9, say), as Confluent reads it; a schema about to be registered is checked, and one
   * with such a default is refused before any request, naming the field.
   */
  @Test
  void invalidDefaults_readFromTheRegistry_refusedForRegistration() {
    String legacy = "{\"type\":\"record\",\"name\":\"Legacy\",\"fields\":[{\"name\":\"n\",\"type\":\"int\","
        + "\"default\":\"x\"},{\"name\":\"at\",\"type\":\"long\",\"default\":null}]}";
    answer(200, "{\"schema\":" + quoted(legacy) + "}");

    Schema read = client().schemaById(5);
    assertThat(read.getField("n").schema().getType()).isEqualTo(Schema.Type.INT);

    assertThatThrownBy(() -> client().register("legacy-value", read))
        .isInstanceOf(io.kavro.registry.InvalidSchemaException.class)
        .hasMessageContaining("register schema under subject 'legacy-value' refused")
        .hasMessageContaining("Invalid default for field n");
    assertThat(server.getRequestCount()).as("nothing sent for the refused registration").isEqualTo(1);
  }

  /**
   * Issue 35: the data contract of an answer ({@code metadata}, {@code ruleSet}) is read with Confluent's defaults,
   * from the same answer as the schema (no second request), and a registration sends it in the body.
   */
  @Test
  void contract_readFromTheSchemaAnswer_withConfluentsDefaults() throws Exception {
    String contract = ",\"metadata\":{\"tags\":{\"**.ssn\":[\"PII\"]},\"properties\":{\"owner\":\"a\"}},"
        + "\"ruleSet\":{\"domainRules\":[{\"name\":\"encryptPII\",\"type\":\"encrypt\",\"tags\":[\"PII\"],"
        + "\"params\":{\"encrypt.kek.name\":\"k1\"},\"onFailure\":\"ERROR,NONE\"}],\"migrationRules\":[],"
        + "\"enableAt\":\"CLIENT\"}";
    answer(200, "{\"schema\":" + quoted(USER_V1.toString()) + contract + "}");
    SchemaRegistryClient client = client();
    assertThat(client.schemaById(3)).isEqualTo(USER_V1);
    io.kavro.registry.contract.DataContract read = client.contractOf(3);
    assertThat(server.getRequestCount()).as("one answer for schema and contract").isEqualTo(1);
    io.kavro.registry.contract.Rule rule = read.ruleSet().domainRules().get(0);
    assertThat(rule.name()).isEqualTo("encryptPII");
    assertThat(rule.type()).isEqualTo("ENCRYPT");
    assertThat(rule.kind()).isEqualTo(io.kavro.registry.contract.Rule.Kind.TRANSFORM);
    assertThat(rule.mode()).isEqualTo(io.kavro.registry.contract.Rule.Mode.WRITEREAD);
    assertThat(rule.tags()).containsExactly("PII");
    assertThat(rule.params()).isEqualTo(Map.of("encrypt.kek.name", "k1"));
    assertThat(rule.onSuccess()).isNull();
    assertThat(rule.actionIn(rule.onFailure(), io.kavro.registry.contract.Rule.Mode.WRITE)).isEqualTo("ERROR");
    assertThat(rule.actionIn(rule.onFailure(), io.kavro.registry.contract.Rule.Mode.READ)).isEqualTo("NONE");
    assertThat(read.ruleSet().enableAt()).isEqualTo("CLIENT");
    assertThat(read.metadata().tags()).isEqualTo(Map.of("**.ssn", java.util.Set.of("PII")));
    assertThat(read.metadata().properties()).isEqualTo(Map.of("owner", "a"));

    answer(200, "{\"schema\":" + quoted(USER_V1.toString()) + "}");
    assertThat(client.contractOf(4)).as("an answer without one: none")
        .isEqualTo(io.kavro.registry.contract.DataContract.NONE);
    server.takeRequest();
    server.takeRequest();

    answer(200, "{\"id\":7}");
    assertThat(client.register("s", USER_V1, List.of(), read)).isEqualTo(7);
    JsonNode body = body(server.takeRequest());
    assertThat(body.path("ruleSet").path("domainRules").get(0).toString()).isEqualTo("{\"name\":\"encryptPII\","
        + "\"kind\":\"TRANSFORM\",\"mode\":\"WRITEREAD\",\"type\":\"ENCRYPT\",\"tags\":[\"PII\"],"
        + "\"params\":{\"encrypt.kek.name\":\"k1\"},\"onFailure\":\"ERROR,NONE\",\"disabled\":false}");
    assertThat(body.path("metadata").path("properties").toString()).isEqualTo("{\"owner\":\"a\"}");
    int sent = server.getRequestCount();
    assertThat(client.registeredContract(7)).as("Apicurio and Confluent 7 answer a registration with the id alone")
        .isEqualTo(io.kavro.registry.contract.DataContract.NONE);
    answer(200, "{\"id\":8" + contract + "}");
    assertThat(client.register("s", USER_V1, List.of())).isEqualTo(8);
    server.takeRequest();
    assertThat(client.registeredContract(8).ruleSet().domainRules().get(0).name()).as("Confluent 8's answer")
        .isEqualTo("encryptPII");
    assertThat(server.getRequestCount()).as("no request of their own").isEqualTo(sent + 1);

    java.util.UUID guid = java.util.UUID.fromString("2a1b7f5e-6a1c-4f4e-9c3e-0d7c5b6a8e11");
    answer(200, "{\"schema\":" + quoted(USER_V1.toString()) + contract + "}");
    int before = server.getRequestCount();
    assertThat(client.schemaByGuid(guid)).isEqualTo(USER_V1);
    assertThat(client.contractOf(guid).ruleSet().domainRules().get(0).name()).as("a GUID's, from the same answer")
        .isEqualTo("encryptPII");
    assertThat(server.getRequestCount()).isEqualTo(before + 1);
    assertThat(server.takeRequest().getTarget()).endsWith("/schemas/guids/" + guid);

    answer(200, "{\"schema\":" + quoted(USER_V1.toString()) + ",\"ruleSet\":{\"domainRules\":[{\"name\":\"r\","
        + "\"type\":\"CEL\",\"mode\":\"SOMETIMES\"}]}}");
    assertThatThrownBy(() -> client.contractOf(9)).isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("rule 'r'").hasMessageContaining("SOMETIMES");
  }

  /** An empty, '.' or '..' subject would reach another endpoint (URL builders fold or resolve it): refused, unsent. */
  @Test
  void aSubjectAUrlCannotCarry_isRefusedBeforeAnythingIsSent() {
    for (String subject : java.util.List.of("", ".", "..")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> client().latestVersion(subject))
          .isExactlyInstanceOf(InvalidSubjectException.class)
          .hasMessageContaining("the subject '" + subject + "' cannot be a name in a URL path");
    }
    org.assertj.core.api.Assertions.assertThat(server.getRequestCount()).isZero();
  }
}
