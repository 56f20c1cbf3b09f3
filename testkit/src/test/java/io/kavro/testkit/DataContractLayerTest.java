package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** DataContractLayer in front of a MockWebServer that stands in for Apicurio's ccompat API. */
class DataContractLayerTest {
  private static final String SCHEMA = "{\"schema\":\"\\\"string\\\"\"}";
  private static final String RULE_SET = "{\"domainRules\":[{\"name\":\"checkLength\",\"type\":\"CEL\","
      + "\"expr\":\"size(message) < 10\"}]}";
  private static final String NORMALIZED_RULE_SET = "{\"domainRules\":[{\"name\":\"checkLength\",\"type\":\"CEL\","
      + "\"expr\":\"size(message) < 10\",\"kind\":\"TRANSFORM\",\"mode\":\"WRITEREAD\",\"disabled\":false}]}";
  private static final String METADATA = "{\"properties\":{\"owner\":\"team-a\",\"tier\":\"gold\"}}";

  @StartStop
  private final MockWebServer registry = new MockWebServer();
  private final HttpClient http = HttpClient.newHttpClient();
  private DataContractLayer layer;

  @BeforeEach
  void startLayer() throws Exception {
    layer = DataContractLayer.start(registry.url("/apis/ccompat/v7").toString(), () -> 1_700_000_000_000L);
  }

  @AfterEach
  void closeLayer() {
    layer.close();
  }

  private void upstream(int code, String body) {
    registry.enqueue(new MockResponse.Builder().code(code)
        .setHeader("Content-Type", "application/vnd.schemaregistry.v1+json").body(body).build());
  }

  private record Reply(int status, String body) {}

  private Reply call(String method, String path, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(layer.url() + path))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .header("Content-Type", "application/vnd.schemaregistry.v1+json").build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    return new Reply(response.statusCode(), response.body());
  }

  /**
   * Registers version {@code version} through the layer, where the registry answers {@code registryId} and the latest
   * version before it was {@code previous} (0: none); answers the id the layer answered.
   */
  private int register(String subject, String body, int previous, int version, int registryId) throws Exception {
    if (previous == 0) {
      upstream(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
    } else {
      upstream(200, "{\"subject\":\"" + subject + "\",\"version\":" + previous + ",\"id\":" + previous
          + ",\"schema\":\"\\\"int\\\"\"}");
    }
    upstream(200, "{\"id\":" + registryId + "}");
    upstream(200, "{\"subject\":\"" + subject + "\",\"version\":" + version + ",\"id\":" + registryId
        + ",\"schema\":\"\\\"string\\\"\"}");
    Reply reply = call("POST", "/subjects/" + subject + "/versions?normalize=false", body);
    assertThat(reply.status()).isEqualTo(200);
    registry.takeRequest();
    registry.takeRequest();
    registry.takeRequest();
    java.util.regex.Matcher id = java.util.regex.Pattern.compile("\\{\"id\":(\\d+)[,}].*").matcher(reply.body());
    assertThat(id.matches()).as(reply.body()).isTrue();
    return Integer.parseInt(id.group(1));
  }

  /** An id the layer made up: docs/testkit.md says from 1,000,000,000 to 2^31 - 10,000,000. */
  private static int madeUp(int id) {
    assertThat(id).as("an id the layer made up").isBetween(1_000_000_000, 2_147_483_647 - 10_000_000);
    return id;
  }

  @Test
  void register_withContract_forwardsTheSchemaAloneAndRemembersTheContract() throws Exception {
    upstream(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
    upstream(200, "{\"id\":7}");
    upstream(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":7,\"schema\":\"\\\"string\\\"\"}");

    Reply reply = call("POST", "/subjects/t-value/versions?normalize=false",
        "{\"schema\":\"\\\"string\\\"\",\"metadata\":" + METADATA + ",\"ruleSet\":" + RULE_SET + "}");

    int id = madeUp(Integer.parseInt(reply.body().replaceFirst("^\\{\"id\":(\\d+),.*", "$1")));
    assertThat(reply).as("as Confluent 8 answers: the id and the version's contract").isEqualTo(new Reply(200,
        "{\"id\":" + id + ",\"metadata\":" + METADATA + ",\"ruleSet\":" + NORMALIZED_RULE_SET + "}"));
    RecordedRequest latest = registry.takeRequest();
    assertThat(latest.getMethod() + " " + latest.getTarget())
        .isEqualTo("GET /apis/ccompat/v7/subjects/t-value/versions/latest");
    RecordedRequest registered = registry.takeRequest();
    assertThat(registered.getMethod() + " " + registered.getTarget())
        .isEqualTo("POST /apis/ccompat/v7/subjects/t-value/versions?normalize=false");
    assertThat(registered.getBody().utf8()).isEqualTo(SCHEMA);
    RecordedRequest lookUp = registry.takeRequest();
    assertThat(lookUp.getMethod() + " " + lookUp.getTarget()).isEqualTo("POST /apis/ccompat/v7/subjects/t-value");
    assertThat(lookUp.getBody().utf8()).isEqualTo(SCHEMA);

    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/" + id + "?subject=t-value", null)).isEqualTo(new Reply(200,
        "{\"schema\":\"\\\"string\\\"\",\"metadata\":" + METADATA + ",\"ruleSet\":" + NORMALIZED_RULE_SET + "}"));
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/schemas/ids/7?subject=t-value");

    upstream(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":7,\"schema\":\"\\\"string\\\"\"}");
    assertThat(call("GET", "/subjects/t-value/versions/latest", null)).isEqualTo(new Reply(200,
        "{\"subject\":\"t-value\",\"version\":1,\"id\":" + id + ",\"schema\":\"\\\"string\\\"\",\"metadata\":"
            + METADATA + ",\"ruleSet\":" + NORMALIZED_RULE_SET + "}"));

    upstream(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":7,\"schema\":\"\\\"string\\\"\"}");
    assertThat(call("POST", "/subjects/t-value?normalize=false&deleted=true",
        "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":{}}")).isEqualTo(new Reply(200,
        "{\"subject\":\"t-value\",\"version\":1,\"id\":" + id + ",\"schema\":\"\\\"string\\\"\",\"metadata\":"
            + METADATA + ",\"ruleSet\":" + NORMALIZED_RULE_SET + "}"));
    registry.takeRequest();
    assertThat(registry.takeRequest().getBody().utf8()).as("the lookup goes upstream without the contract")
        .isEqualTo(SCHEMA);
  }

  @Test
  void register_withoutRuleSet_inheritsTheLatestVersionsParts() throws Exception {
    register("t-value", "{\"schema\":\"\\\"int\\\"\",\"metadata\":" + METADATA + ",\"ruleSet\":" + RULE_SET + "}",
        0, 1, 1);
    int second = madeUp(register("t-value",
        "{\"schema\":\"\\\"string\\\"\",\"metadata\":{\"properties\":{\"owner\":\"team-b\"}}}", 1, 2, 2));

    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/" + second, null)).isEqualTo(new Reply(200,
        "{\"schema\":\"\\\"string\\\"\",\"metadata\":{\"properties\":{\"owner\":\"team-b\"}},\"ruleSet\":"
            + NORMALIZED_RULE_SET + "}"));
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/schemas/ids/2");
  }

  @Test
  void register_sameSchemaWithAnotherContract_newIdForTheVersion_theOldIdKeepsItsContract() throws Exception {
    int first = madeUp(register("t-value", "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + RULE_SET + "}", 0, 1, 1));
    int second = madeUp(register("t-value", "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":{\"domainRules\":[]}}", 1,
        1, 1));
    assertThat(second).isNotEqualTo(first);

    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/" + first, null)).as("records written with the first id keep their rules")
        .isEqualTo(new Reply(200, "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + NORMALIZED_RULE_SET + "}"));
    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/" + second, null))
        .isEqualTo(new Reply(200, "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":{\"domainRules\":[]}}"));
    registry.takeRequest();
    assertThat(registry.takeRequest().getTarget()).as("the registry is asked about its own id")
        .isEqualTo("/apis/ccompat/v7/schemas/ids/1");
  }

  /**
   * Issue 49, item 11: the same schema with an ENCRYPT rule under subject A, then without rules under subject B.
   * The registry answers one id for both; A's id must keep A's rules (a reader of A's records without kavro-rules
   * read ciphertext with no error), and B's version, without rules, has the registry's id.
   */
  @Test
  void sameSchemaUnderAnotherSubjectWithoutRules_leavesTheFirstSubjectsRules() throws Exception {
    String encrypt = "{\"encodingRules\":[],\"domainRules\":[{\"name\":\"enc\",\"type\":\"ENCRYPT\","
        + "\"tags\":[\"PII\"],\"kind\":\"TRANSFORM\",\"mode\":\"WRITEREAD\",\"disabled\":false}]}";
    int a = madeUp(register("a-value", "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + encrypt + "}", 0, 1, 5));
    assertThat(register("b-value", "{\"schema\":\"\\\"string\\\"\"}", 0, 1, 5)).as("no contract: the registry's id")
        .isEqualTo(5);

    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/" + a, null)).as("A's records still read with A's rule")
        .isEqualTo(new Reply(200, "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + encrypt + "}"));
    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/5", null)).as("B's records, without rules")
        .isEqualTo(new Reply(200, SCHEMA));

    upstream(200, "{\"subject\":\"b-value\",\"version\":1,\"id\":5,\"schema\":\"\\\"string\\\"\"}");
    assertThat(call("GET", "/subjects/b-value/versions/latest", null)).isEqualTo(new Reply(200,
        "{\"subject\":\"b-value\",\"version\":1,\"id\":5,\"schema\":\"\\\"string\\\"\"}"));
    upstream(200, "{\"subject\":\"a-value\",\"version\":1,\"id\":5,\"schema\":\"\\\"string\\\"\"}");
    assertThat(call("POST", "/subjects/a-value", SCHEMA)).isEqualTo(new Reply(200,
        "{\"subject\":\"a-value\",\"version\":1,\"id\":" + a + ",\"schema\":\"\\\"string\\\"\",\"ruleSet\":"
            + encrypt + "}"));

    String both = "[{\"subject\":\"a-value\",\"version\":1},{\"subject\":\"b-value\",\"version\":1}]";
    upstream(200, both);
    assertThat(call("GET", "/schemas/ids/5/versions", null))
        .isEqualTo(new Reply(200, "[{\"subject\":\"b-value\",\"version\":1}]"));
    upstream(200, both);
    assertThat(call("GET", "/schemas/ids/" + a + "/subjects", null)).isEqualTo(new Reply(200, "[\"a-value\"]"));

    upstream(200, "[{\"subject\":\"a-value\",\"version\":1,\"id\":5,\"schema\":\"x\"},"
        + "{\"subject\":\"b-value\",\"version\":1,\"id\":5,\"schema\":\"x\"}]");
    assertThat(call("GET", "/schemas", null).body()).isEqualTo("[{\"subject\":\"a-value\",\"version\":1,\"id\":"
        + a + ",\"schema\":\"x\"},{\"subject\":\"b-value\",\"version\":1,\"id\":5,\"schema\":\"x\"}]");

    // Registered again under B, as its serializer does: the same id, no new one.
    assertThat(register("b-value", "{\"schema\":\"\\\"string\\\"\"}", 1, 1, 5)).isEqualTo(5);
  }

  /**
   * A version registered at the registry directly, not through the layer, has no contract (docs/testkit.md), even
   * when the registry gives its schema the id of another subject's schema with rules (Apicurio 3's ccompat ids are
   * content ids): its readers must not get that subject's rules.
   */
  @Test
  void aVersionRegisteredAtTheRegistryDirectly_sharingAnId_hasNoContract() throws Exception {
    int a = madeUp(register("a-value", "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + RULE_SET + "}", 0, 1, 5));
    assertThat(a).isNotEqualTo(5);

    upstream(200, "{\"subject\":\"c-value\",\"version\":1,\"id\":5,\"schema\":\"\\\"string\\\"\"}");
    assertThat(call("GET", "/subjects/c-value/versions/1", null)).isEqualTo(new Reply(200,
        "{\"subject\":\"c-value\",\"version\":1,\"id\":5,\"schema\":\"\\\"string\\\"\"}"));
    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/5", null)).as("C's records, read by the registry's id: no rules")
        .isEqualTo(new Reply(200, SCHEMA));
  }

  /**
   * A subject deleted and made again at the registry, not through the layer: once the registry answers another id
   * for its version, the layer's old id and contract for that version are no longer answered.
   */
  @Test
  void aSubjectMadeAgainAtTheRegistry_withAnotherId_losesTheRememberedIdAndContract() throws Exception {
    int a = madeUp(register("a-value", "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + RULE_SET + "}", 0, 1, 5));

    upstream(200, "{\"subject\":\"a-value\",\"version\":1,\"id\":9,\"schema\":\"\\\"long\\\"\"}");
    assertThat(call("GET", "/subjects/a-value/versions/latest", null)).isEqualTo(new Reply(200,
        "{\"subject\":\"a-value\",\"version\":1,\"id\":9,\"schema\":\"\\\"long\\\"\"}"));
    upstream(200, "{\"subject\":\"a-value\",\"version\":1,\"id\":9,\"schema\":\"\\\"long\\\"\"}");
    assertThat(call("POST", "/subjects/a-value", "{\"schema\":\"\\\"long\\\"\"}").body()).doesNotContain("ruleSet")
        .contains("\"id\":9");
    upstream(200, SCHEMA);
    assertThat(call("GET", "/schemas/ids/" + a, null)).as("the old id keeps its contract, for its records")
        .isEqualTo(new Reply(200, "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + NORMALIZED_RULE_SET + "}"));
  }

  /**
   * Two layers in front of one registry (a layer started again in front of a registry that outlives it) never
   * answer one made-up id for two contracts: a client's cache on disk would read records under the wrong rules.
   */
  @Test
  void aLayerStartedAgain_makesUpOtherIds() throws Exception {
    int first = madeUp(register("t-value", "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":" + RULE_SET + "}", 0, 1,
        1));
    layer.close();
    layer = DataContractLayer.start(registry.url("/apis/ccompat/v7").toString(), () -> 1_700_000_000_000L);
    int again = madeUp(register("t-value", "{\"schema\":\"\\\"string\\\"\",\"ruleSet\":{\"domainRules\":[]}}",
        1, 1, 1));
    assertThat(again).as("another contract, after a restart").isNotEqualTo(first);
  }

  @Test
  void underTheRegistrysPath_servedAsAtTheRoot_andTheRegistrysOtherPathsPassThrough() throws Exception {
    assertThat(layer.registryUrl()).isEqualTo(layer.url() + "/apis/ccompat/v7");
    upstream(200, "[\"a\"]");
    assertThat(send("GET", layer.registryUrl() + "/subjects?deleted=true")).isEqualTo(new Reply(200, "[\"a\"]"));
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects?deleted=true");

    assertThat(send("GET", layer.registryUrl() + "/dek-registry/v1/keks/none")).isEqualTo(new Reply(404,
        "{\"error_code\":40470,\"message\":\"Key 'none' not found\"}"));

    upstream(200, "{\"type\":\"AVRO\"}");
    HttpResponse<String> own = http.send(HttpRequest.newBuilder(URI.create(layer.url()
        + "/apis/registry/v2/groups/default/artifacts?x=1")).header("X-Registry-ArtifactId", "orders-value")
        .POST(HttpRequest.BodyPublishers.ofString("\"long\"")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(new Reply(own.statusCode(), own.body())).isEqualTo(new Reply(200, "{\"type\":\"AVRO\"}"));
    RecordedRequest passed = registry.takeRequest();
    assertThat(passed.getMethod() + " " + passed.getTarget())
        .isEqualTo("POST /apis/registry/v2/groups/default/artifacts?x=1");
    assertThat(passed.getHeaders().get("X-Registry-ArtifactId")).as("Apicurio's own headers pass").isEqualTo(
        "orders-value");
    assertThat(passed.getBody().utf8()).isEqualTo("\"long\"");
    assertThat(registry.getRequestCount()).isEqualTo(2);
  }

  /** Apicurio's /ui and health are no Confluent API: they reach the registry's host as they are, headers too. */
  @Test
  void pathsOutsideConfluentsApi_passThroughToTheHost_withTheRegistrysHeaders() throws Exception {
    registry.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .setHeader("ETag", "\"v1\"").setHeader("X-Registry-Name", "apicurio").body("<html></html>").build());
    HttpResponse<String> ui = http.send(HttpRequest.newBuilder(URI.create(layer.url() + "/ui/index.html?x=1"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(new Reply(ui.statusCode(), ui.body())).isEqualTo(new Reply(200, "<html></html>"));
    assertThat(ui.headers().firstValue("ETag")).hasValue("\"v1\"");
    assertThat(ui.headers().firstValue("X-Registry-Name")).hasValue("apicurio");
    assertThat(ui.headers().firstValue("Content-Type")).hasValue("text/html");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/ui/index.html?x=1");

    upstream(200, "{\"status\":\"UP\"}");
    assertThat(call("GET", "/health/ready", null)).isEqualTo(new Reply(200, "{\"status\":\"UP\"}"));
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/health/ready");
  }

  @Test
  void onAGivenPort_listensThere_aTakenOneIsAnIOException() throws Exception {
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    try (DataContractLayer onPort = DataContractLayer.start(registry.url("/apis/ccompat/v7").toString(), port)) {
      assertThat(onPort.registryUrl()).isEqualTo("http://127.0.0.1:" + port + "/apis/ccompat/v7");
      assertThatThrownBy(() -> DataContractLayer.start(registry.url("/").toString(), port))
          .isInstanceOf(java.io.IOException.class);
    }
  }

  private Reply send(String method, String url) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(url))
        .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(response.statusCode(), response.body());
  }

  @Test
  void answers_ofSchemasWithoutContract_passUnchanged() throws Exception {
    upstream(200, "{\"schema\" : \"\\\"long\\\"\"}");
    assertThat(call("GET", "/schemas/ids/3", null)).isEqualTo(new Reply(200, "{\"schema\" : \"\\\"long\\\"\"}"));
    upstream(404, "{\"error_code\":40403,\"message\":\"Schema 4 not found\"}");
    assertThat(call("GET", "/schemas/ids/4", null))
        .isEqualTo(new Reply(404, "{\"error_code\":40403,\"message\":\"Schema 4 not found\"}"));
    upstream(200, "[\"a\",\"b\"]");
    assertThat(call("GET", "/subjects?deleted=true", null)).isEqualTo(new Reply(200, "[\"a\",\"b\"]"));
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/schemas/ids/3");
    registry.takeRequest();
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects?deleted=true");
  }

  @Test
  void metadata_answersTheLatestVersionWithEveryPair() throws Exception {
    int first = madeUp(register("t-value", "{\"schema\":\"\\\"int\\\"\",\"metadata\":" + METADATA + "}", 0, 1, 1));
    int second = madeUp(register("t-value",
        "{\"schema\":\"\\\"string\\\"\",\"metadata\":{\"properties\":{\"owner\":\"team-a\"}}}", 1, 2, 2));

    upstream(200, "[1,2]");
    upstream(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":1,\"schema\":\"\\\"int\\\"\"}");
    assertThat(call("GET", "/subjects/t-value/metadata?key=owner&value=team-a&key=tier&value=gold&deleted=true",
        null)).isEqualTo(new Reply(200, "{\"subject\":\"t-value\",\"version\":1,\"id\":" + first
            + ",\"schema\":\"\\\"int\\\"\",\"metadata\":" + METADATA + "}"));
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/t-value/versions");
    assertThat(registry.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/subjects/t-value/versions/1");

    upstream(200, "[1,2]");
    upstream(200, "{\"subject\":\"t-value\",\"version\":2,\"id\":2,\"schema\":\"\\\"string\\\"\"}");
    assertThat(call("GET", "/subjects/t-value/metadata?key=owner&value=team-a", null).body())
        .isEqualTo("{\"subject\":\"t-value\",\"version\":2,\"id\":" + second + ",\"schema\":\"\\\"string\\\"\","
            + "\"metadata\":{\"properties\":{\"owner\":\"team-a\"}}}");

    upstream(200, "[1,2]");
    assertThat(call("GET", "/subjects/t-value/metadata?key=owner&value=team-c", null)).isEqualTo(new Reply(404,
        "{\"error_code\":40401,\"message\":\"Subject 't-value' not found: no version has the metadata properties "
            + "{owner=team-c}\"}"));
  }

  @Test
  void associations_noneForAnyTopic_asConfluentAnswers() throws Exception {
    assertThat(call("GET", "/associations/resources/-/orders?resourceType=topic&associationType=value", null))
        .isEqualTo(new Reply(200, "[]"));
    assertThat(registry.getRequestCount()).isZero();
  }

  @Test
  void dekRegistry_keks_createReadAndConflict() throws Exception {
    String kek = "{\"name\":\"kek1\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"mykey\",\"shared\":false}";
    String stored = "{\"name\":\"kek1\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"mykey\",\"kmsProps\":{},"
        + "\"shared\":false,\"ts\":1700000000000,\"deleted\":false}";
    assertThat(call("GET", "/dek-registry/v1/keks/kek1?deleted=false", null))
        .isEqualTo(new Reply(404, "{\"error_code\":40470,\"message\":\"Key 'kek1' not found\"}"));
    assertThat(call("POST", "/dek-registry/v1/keks", kek)).isEqualTo(new Reply(200, stored));
    assertThat(call("POST", "/dek-registry/v1/keks", kek)).isEqualTo(new Reply(409,
        "{\"error_code\":40971,\"message\":\"Key 'kek1' already exists; use a different value\"}"));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1?deleted=false", null)).isEqualTo(new Reply(200, stored));
    assertThat(call("GET", "/dek-registry/v1/keks?deleted=false", null)).isEqualTo(new Reply(200, "[\"kek1\"]"));
    assertThat(call("POST", "/dek-registry/v1/keks",
        "{\"name\":\"kek2\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"k\",\"shared\":true}")).isEqualTo(new Reply(422,
        "{\"error_code\":42271,\"message\":\"Invalid key: KEK 'kek2' is shared: DataContractLayer supports only KEKs "
            + "that are not shared\"}"));
    assertThat(registry.getRequestCount()).isZero();
  }

  /** The calls of Confluent's RewrapDeks: a KEK's subjects, and {@code ?rewrap=true} overwriting a version. */
  @Test
  void dekRegistry_subjectsAndRewrap_asConfluentsRewrapDeksCallsThem() throws Exception {
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks?deleted=true", null))
        .isEqualTo(new Reply(404, "{\"error_code\":40470,\"message\":\"Key 'kek1' not found\"}"));
    call("POST", "/dek-registry/v1/keks", "{\"name\":\"kek1\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"mykey\"}");
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks?deleted=true", null)).isEqualTo(new Reply(200, "[]"));
    String create = "{\"subject\":\"t value\",\"version\":1,\"algorithm\":\"AES128_GCM\","
        + "\"encryptedKeyMaterial\":\"AAEC\"}";
    call("POST", "/dek-registry/v1/keks/kek1/deks/t%20value", create);
    call("POST", "/dek-registry/v1/keks/kek1/deks/a-value",
        "{\"subject\":\"a-value\",\"encryptedKeyMaterial\":\"AQ==\"}");
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks?deleted=true", null))
        .isEqualTo(new Reply(200, "[\"a-value\",\"t value\"]"));

    String rewrap = create.replace("AAEC", "AwQF").replace("}", ",\"deleted\":false}");
    assertThat(call("POST", "/dek-registry/v1/keks/kek1/deks/t%20value", rewrap).status()).isEqualTo(409);
    String rewrapped = "{\"kekName\":\"kek1\",\"subject\":\"t value\",\"version\":1,\"algorithm\":\"AES128_GCM\","
        + "\"encryptedKeyMaterial\":\"AwQF\",\"ts\":1700000000000,\"deleted\":false}";
    assertThat(call("POST", "/dek-registry/v1/keks/kek1/deks/t%20value?rewrap=true", rewrap))
        .isEqualTo(new Reply(200, rewrapped));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t%20value/versions/1?algorithm=AES128_GCM", null))
        .isEqualTo(new Reply(200, rewrapped));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t%20value/versions?algorithm=AES128_GCM", null))
        .isEqualTo(new Reply(200, "[1]"));
  }

  @Test
  void dekRegistry_deks_createOnBothPathsAndReadVersions() throws Exception {
    call("POST", "/dek-registry/v1/keks", "{\"name\":\"kek1\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"mykey\"}");
    assertThat(call("POST", "/dek-registry/v1/keks/nokek/deks/t-value", "{\"subject\":\"t-value\"}"))
        .isEqualTo(new Reply(404, "{\"error_code\":40470,\"message\":\"Key 'nokek' not found\"}"));
    String dek1 = "{\"kekName\":\"kek1\",\"subject\":\"t-value\",\"version\":1,\"algorithm\":\"AES256_GCM\","
        + "\"encryptedKeyMaterial\":\"AAEC\",\"ts\":1700000000000,\"deleted\":false}";
    String dek2 = "{\"kekName\":\"kek1\",\"subject\":\"t-value\",\"version\":2,\"algorithm\":\"AES256_GCM\","
        + "\"encryptedKeyMaterial\":\"AwQF\",\"ts\":1700000000000,\"deleted\":false}";
    assertThat(call("POST", "/dek-registry/v1/keks/kek1/deks/t-value",
        "{\"subject\":\"t-value\",\"version\":1,\"algorithm\":\"AES256_GCM\",\"encryptedKeyMaterial\":\"AAEC\"}"))
        .isEqualTo(new Reply(200, dek1));
    assertThat(call("POST", "/dek-registry/v1/keks/kek1/deks/t-value",
        "{\"subject\":\"t-value\",\"encryptedKeyMaterial\":\"AAEC\"}")).isEqualTo(new Reply(409,
        "{\"error_code\":40971,\"message\":\"Key 't-value' already exists; use a different value\"}"));
    assertThat(call("POST", "/dek-registry/v1/keks/kek1/deks",
        "{\"subject\":\"t-value\",\"version\":2,\"encryptedKeyMaterial\":\"AwQF\"}")).isEqualTo(new Reply(200, dek2));
    assertThat(call("POST", "/dek-registry/v1/keks/kek1/deks/t-value", "{\"subject\":\"t-value\"}").body())
        .isEqualTo("{\"error_code\":42271,\"message\":\"Invalid key: DEK 't-value' needs encryptedKeyMaterial, as KEK "
            + "'kek1' is not shared\"}");

    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t-value?deleted=false&algorithm=AES256_GCM", null))
        .isEqualTo(new Reply(200, dek2));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t-value/versions/-1?algorithm=AES256_GCM", null))
        .isEqualTo(new Reply(200, dek2));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t-value/versions/latest", null))
        .isEqualTo(new Reply(200, dek2));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t-value/versions/1?algorithm=AES256_GCM&deleted=false",
        null)).isEqualTo(new Reply(200, dek1));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t-value/versions", null))
        .isEqualTo(new Reply(200, "[1,2]"));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t-value/versions/1?algorithm=AES256_SIV", null))
        .isEqualTo(new Reply(404, "{\"error_code\":40470,\"message\":\"Key 't-value' not found\"}"));
    assertThat(call("GET", "/dek-registry/v1/keks/kek1/deks/t-value/versions/3", null))
        .isEqualTo(new Reply(404, "{\"error_code\":40470,\"message\":\"Key 't-value' not found\"}"));
    assertThat(call("DELETE", "/dek-registry/v1/keks/kek1/deks/t-value", null).status()).isEqualTo(405);
    assertThat(registry.getRequestCount()).isZero();
  }
}
