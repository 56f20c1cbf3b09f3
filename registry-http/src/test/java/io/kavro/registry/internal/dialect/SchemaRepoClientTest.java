package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSubjectException;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryConfigException;
import io.kavro.registry.internal.http.JsonBodies;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * schema-repo's protocol, request by request, with its answers as schema-repo 0.1.2 gives them (text bodies, its
 * {@code ERROR:} "not found", a 403 without a reason): what is sent, and which failure each answer is. The real
 * server's behaviour is tested end to end in the testkit and tests modules.
 */
class SchemaRepoClientTest {
  private static final Schema V1 = SchemaBuilder.record("Order").fields().requiredLong("id").endRecord();
  private static final Schema V2 = SchemaBuilder.record("Order").fields().requiredLong("id")
      .optionalString("note").endRecord();
  /** {@code id} became a string: neither reads the other. */
  private static final Schema BROKEN = SchemaBuilder.record("Order").fields().requiredString("id").endRecord();
  private static final String NO_SUBJECT = "ERROR: This subject does not exist.\n";
  private static final String NO_SCHEMA = "ERROR: This schema does not exist.\n";

  @StartStop
  final MockWebServer repo = new MockWebServer();

  @TempDir
  Path cacheDir;

  private Map<String, Object> config() {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", repo.url("/schema-repo").toString());
    config.put("schema.registry.api", "schema-repo");
    config.put("retries.wait.ms", 1);
    config.put("retries.max.wait.ms", 5);
    config.put("max.retries", 1);
    return config;
  }

  private SchemaRepoClient client(Map<String, Object> config) {
    RegistryConfig parsed = RegistryConfig.from(config);
    return new SchemaRepoClient(parsed, RegistryHttp.of(parsed, null));
  }

  private static MockResponse text(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "text/plain").body(body).build();
  }

  private static MockResponse ok(String body) {
    return text(200, body);
  }

  /**
   * A registration looks the schema up first, by text ({@code POST /{subject}/schema}), then by parsed form
   * ({@code GET /{subject}/all}): here the repository has no such subject.
   */
  private void notRegisteredYet() {
    repo.enqueue(text(404, NO_SUBJECT));
    repo.enqueue(text(404, NO_SUBJECT));
  }

  /** As {@link #notRegisteredYet()}, where the subject holds the schemas of {@code all} (its /all answer). */
  private void notAmong(String all) {
    repo.enqueue(text(404, NO_SCHEMA));
    repo.enqueue(ok(all));
  }

  private static String all(Object... idsAndTexts) {
    StringBuilder json = new StringBuilder("[");
    for (int i = 0; i < idsAndTexts.length; i += 2) {
      json.append(i == 0 ? "" : ", ").append("{\"id\": \"").append(idsAndTexts[i]).append("\", \"schema\": ")
          .append(JsonBodies.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(idsAndTexts[i + 1]
              .toString()))).append("}");
    }
    return json.append("]").toString();
  }

  @Test
  void register_sendsTheSchemaTextAsPlainText_andReadsTheId() throws Exception {
    notRegisteredYet();
    repo.enqueue(ok("0"));

    assertThat(client(config()).register("orders", V1)).isZero();

    RecordedRequest byText = repo.takeRequest();
    assertThat(byText.getMethod() + " " + byText.getTarget()).isEqualTo("POST /schema-repo/orders/schema");
    assertThat(repo.takeRequest().getTarget()).isEqualTo("/schema-repo/orders/all");
    RecordedRequest put = repo.takeRequest();
    assertThat(put.getMethod()).isEqualTo("PUT");
    assertThat(put.getTarget()).isEqualTo("/schema-repo/orders/register");
    assertThat(put.getHeaders().get("Content-Type")).startsWith("text/plain");
    assertThat(put.getBody().utf8()).isEqualTo(V1.toString());
  }

  @Test
  void register_aSubjectTheRepositoryLacks_createsIt_withTheConfiguredValidators() throws Exception {
    Map<String, Object> config = config();
    config.put("schema.repo.validators", "full,other");
    notRegisteredYet();
    repo.enqueue(text(404, NO_SUBJECT));
    repo.enqueue(ok("orders"));
    repo.enqueue(ok("0"));

    assertThat(client(config).register("orders", V1)).isZero();

    repo.takeRequest();
    repo.takeRequest();
    repo.takeRequest();
    RecordedRequest create = repo.takeRequest();
    assertThat(create.getMethod()).isEqualTo("PUT");
    assertThat(create.getTarget()).isEqualTo("/schema-repo/orders");
    assertThat(create.getHeaders().get("Content-Type")).startsWith("application/x-www-form-urlencoded");
    assertThat(create.getBody().utf8()).isEqualTo("repo.validators=full%2Cother");
    assertThat(repo.takeRequest().getTarget()).isEqualTo("/schema-repo/orders/register");
  }

  @Test
  void refusedByTheValidators_isIncompatible_withAvrosReasonNamingTheFieldAndTheId() throws Exception {
    notAmong(all(1, V2, 0, V1));
    repo.enqueue(new MockResponse.Builder().code(403).build());
    repo.enqueue(ok("[{\"id\": \"1\", \"schema\": " + quoted(V2) + "}, {\"id\": \"0\", \"schema\": "
        + quoted(V1) + "}]"));

    assertThatThrownBy(() -> client(config()).register("orders", BROKEN))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("register schema under subject 'orders' failed: HTTP 403")
        .hasMessageContaining("cannot read id 1")
        .satisfies(e -> assertThat(((IncompatibleSchemaException) e).reason())
            .contains("the new schema cannot read id 1").contains("Order.id is long"));
    repo.takeRequest();
    repo.takeRequest();
    assertThat(repo.takeRequest().getTarget()).isEqualTo("/schema-repo/orders/register");
    RecordedRequest all = repo.takeRequest();
    assertThat(all.getTarget()).isEqualTo("/schema-repo/orders/all");
    assertThat(all.getHeaders().get("Accept")).isEqualTo("application/json");
  }

  /** What schema-repo 0.1.2's Jetty answers a refusal with: its error page, not schema-repo's words. */
  @Test
  void refusedWithJettysErrorPage_isARefusalToo() {
    notAmong(all(0, V1));
    repo.enqueue(text(403, "<html>\n<head>\n<title>Error 403 Forbidden</title>\n</head>\n<body><h2>HTTP ERROR: 403"
        + "</h2>\n<p>Problem accessing /schema-repo/orders/register. Reason:\n<pre>    Forbidden</pre></p>"));
    repo.enqueue(ok("[{\"id\": \"0\", \"schema\": " + quoted(V1) + "}]"));

    assertThatThrownBy(() -> client(config()).register("orders", BROKEN))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("Order.id is long");
  }

  @Test
  void refusedWhereAvroFindsNoProblem_saysThatAValidatorOfItsOwnRefused() {
    notAmong(all(0, V1));
    repo.enqueue(new MockResponse.Builder().code(403).build());
    repo.enqueue(ok("[{\"id\": \"0\", \"schema\": " + quoted(V1) + "}]"));

    assertThatThrownBy(() -> client(config()).register("orders", V2))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("Avro finds none against the subject's versions");
  }

  @Test
  void a403WithABody_isAnAccessDenial_notARefusal() {
    notRegisteredYet();
    repo.enqueue(text(403, "<html>Forbidden by the proxy</html>"));

    assertThatThrownBy(() -> client(config()).register("orders", V1))
        .isInstanceOf(RegistryAccessDeniedException.class);
  }

  @Test
  void lookup_postsTheText_andTheVersionIsTheIdPlusOne() throws Exception {
    repo.enqueue(ok("4"));

    SubjectVersion found = client(config()).lookup("orders", V1);

    assertThat(found.id()).isEqualTo(4);
    assertThat(found.version()).isEqualTo(5);
    RecordedRequest post = repo.takeRequest();
    assertThat(post.getMethod()).isEqualTo("POST");
    assertThat(post.getTarget()).isEqualTo("/schema-repo/orders/schema");
  }

  @Test
  void lookup_ofASchemaTheSubjectLacks_isNotFound() {
    notAmong(all(0, V2));

    assertThatThrownBy(() -> client(config()).lookup("orders", V1))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessageContaining("ERROR: This schema does not exist.");
  }

  @Test
  void anIdWithoutItsSubject_isAMissingApi_withoutARequest() {
    assertThatThrownBy(() -> client(config()).schemaById(0))
        .isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("per subject");
    assertThat(repo.getRequestCount()).isZero();
  }

  @Test
  void forSubject_readsThatSubjectsId() throws Exception {
    repo.enqueue(ok(V1.toString()));

    assertThat(client(config()).forSubject("orders").schemaById(0)).isEqualTo(V1);
    assertThat(repo.takeRequest().getTarget()).isEqualTo("/schema-repo/orders/id/0");
  }

  /**
   * Trust review, item 1: a captive portal's or a load balancer's {@code 200 text/html} is no answer of schema-repo's
   * (text/plain or JSON): an outage, retried (it was read as the id's schema, and failed not retriably).
   */
  @Test
  void captivePortalSuccess_isAnOutage_retried() {
    repo.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html; charset=utf-8")
        .body("<html><body>Welcome! Accept the terms to continue</body></html>").build());
    repo.enqueue(ok("3\t" + V2));

    assertThat(client(config()).latestVersion("orders").id()).isEqualTo(3);
    assertThat(repo.getRequestCount()).isEqualTo(2);

    repo.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body("<html>portal</html>").build());
    repo.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body("<html>portal</html>").build());
    assertThatThrownBy(() -> client(config()).latestVersion("orders"))
        .isInstanceOf(io.kavro.registry.RegistryUnavailableException.class)
        .hasMessageContaining("HTTP 200 with a page").hasMessageContaining("text/html");
  }

  @Test
  void latest_isTheIdAndTheSchemaAfterATab() {
    repo.enqueue(ok("3\t" + V2));

    SubjectVersion latest = client(config()).latestVersion("orders");

    assertThat(latest.id()).isEqualTo(3);
    assertThat(latest.version()).isEqualTo(4);
    assertThat(latest.schema()).isEqualTo(V2);
  }

  @Test
  void anAnswerThatIsNotSchemaReposShape_isATypedFailureQuotingIt() {
    repo.enqueue(ok("{\"id\": 3}"));

    assertThatThrownBy(() -> client(config()).latestVersion("orders"))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("not what its API gives");
  }

  @Test
  void anIdThatIsNoNumber_isATypedFailureNamingIt() {
    repo.enqueue(ok("abc"));

    assertThatThrownBy(() -> client(config()).register("orders", V1))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("the id 'abc'");
  }

  @Test
  void subjectsAndVersions_askForJson() throws Exception {
    repo.enqueue(ok("[{\"name\": \"b\"}, {\"name\": \"a\"}]"));
    repo.enqueue(ok("[{\"id\": \"1\", \"schema\": " + quoted(V2) + "}, {\"id\": \"0\", \"schema\": "
        + quoted(V1) + "}]"));
    SchemaRepoClient client = client(config());

    assertThat(client.subjects()).containsExactly("a", "b");
    assertThat(client.versions("orders")).containsExactly(1, 2);
    RecordedRequest list = repo.takeRequest();
    assertThat(list.getTarget()).isEqualTo("/schema-repo/");
    assertThat(list.getHeaders().get("Accept")).isEqualTo("application/json");
  }

  @Test
  void a404WithoutSchemaReposText_fromAUrlThatNeverAnswered_isAWrongUrl() {
    repo.enqueue(new MockResponse.Builder().code(404).build());

    assertThatThrownBy(() -> client(config()).latestVersion("orders"))
        .isInstanceOf(WrongRegistryUrlException.class)
        .hasMessageContaining("not the base URL of a schema-repo")
        .satisfies(e -> {
          assertThat(((WrongRegistryUrlException) e).base()).isEqualTo(repo.url("/schema-repo").toString());
          assertThat(((WrongRegistryUrlException) e).answer()).isEqualTo("HTTP 404: (empty body)");
        });
  }

  @Test
  void serverErrors_areRetried() {
    repo.enqueue(text(500, "boom"));
    repo.enqueue(ok("0"));

    assertThat(client(config()).register("orders", V1)).isZero();
    assertThat(repo.getRequestCount()).isEqualTo(2);
  }

  @Test
  void whatSchemaRepoLacks_isAMissingApi_withoutARequest() {
    SchemaRepoClient client = client(config());

    assertThatThrownBy(() -> client.register("orders", V1, List.of(new SchemaReference("Ref", "refs", 1))))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("schema references");
    assertThatThrownBy(() -> client.setCompatibility("orders", CompatibilityLevel.FULL))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("schema.repo.validators");
    assertThatThrownBy(() -> client.deleteSubject("orders"))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("deletes");
    assertThatThrownBy(() -> client.latestWithMetadata("orders", Map.of("a", "b")))
        .isInstanceOf(UnsupportedRegistryApiException.class).hasMessageContaining("metadata");
    assertThat(repo.getRequestCount()).isZero();
  }

  /** Ids of two subjects both start at 0: each subject's cache, in memory and on disk, keeps its own. */
  @Test
  void cachedClient_keepsEachSubjectsIdsApart_inMemoryAndOnDisk() throws Exception {
    Map<String, Object> config = config();
    config.put("schema.cache.dir", cacheDir.toString());
    repo.enqueue(ok(V1.toString()));
    repo.enqueue(ok(BROKEN.toString()));
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config)) {
      assertThat(client.idsPerSubject()).isTrue();
      assertThat(client.forSubject("orders").schemaById(0)).isEqualTo(V1);
      assertThat(client.forSubject("audits").schemaById(0)).isEqualTo(BROKEN);
      assertThat(client.forSubject("orders").schemaById(0)).isEqualTo(V1);
      assertThat(repo.getRequestCount()).isEqualTo(2);
      RegistryStats stats = client.stats();
      assertThat(stats.requests()).isEqualTo(2);
      assertThat(stats.caches().get("schemas-by-id")).isEqualTo(new RegistryStats.CacheStats(1, 2, 0, 0));
    }
    // The repository is down: a new client reads both from disk, each under its subject.
    repo.close();
    config.put("max.retries", 0);
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config)) {
      assertThat(client.forSubject("audits").schemaById(0)).isEqualTo(BROKEN);
      assertThat(client.forSubject("orders").schemaById(0)).isEqualTo(V1);
    }
  }

  @Test
  void aMockRegistry_speaksConfluentsApiOnly() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "mock://x",
        "schema.registry.api", "schema-repo")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("schema.registry.api");
  }

  @Test
  void anUnknownApi_isAConfigErrorNamingTheChoices() {
    assertThatThrownBy(() -> RegistryConfig.from(Map.of("schema.registry.url", "http://x",
        "schema.registry.api", "avro-1124")))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("schema.registry.api")
        .hasMessageContaining("schema-repo");
  }

  /** schema-repo's PUT of an empty subject went to PUT /register, answered 415: refused before it is sent. */
  @Test
  void anEmptySubject_isRefusedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> client(config()).register("", V1))
        .isExactlyInstanceOf(InvalidSubjectException.class)
        .hasMessageContaining("a name must not be empty");
    assertThat(repo.getRequestCount()).isZero();
  }

  /** V1 as {@code curl --data-binary @order.avsc} registers it: pretty-printed, as an .avsc file holds it. */
  private static final String V1_AVSC = V1.toString(true);

  /**
   * Issue 49, item 9: a schema registered through schema-repo's own REST API as its pretty-printed .avsc is found
   * by a lookup (auto.register.schemas=false), by its parsed form: the repository matches texts exactly.
   */
  @Test
  void lookup_findsASchemaRegisteredInAnotherText_byItsParsedForm() throws Exception {
    notAmong(all(1, V2.toString(true), 0, V1_AVSC));

    SubjectVersion found = client(config()).lookup("orders", V1);

    assertThat(found.id()).isZero();
    assertThat(found.version()).isEqualTo(1);
    assertThat(repo.takeRequest().getBody().utf8()).isEqualTo(V1.toString());
    assertThat(repo.takeRequest().getTarget()).isEqualTo("/schema-repo/orders/all");
  }

  /** A schema the repository holds in another text gets its id, not a second one: nothing is registered. */
  @Test
  void register_ofASchemaHeldInAnotherText_answersItsId_andRegistersNothing() {
    notAmong(all(1, V2.toString(true), 0, V1_AVSC));

    assertThat(client(config()).register("orders", V2)).isEqualTo(1);
    assertThat(repo.getRequestCount()).as("no PUT").isEqualTo(2);
  }

  /** The parsed form is exact: a schema that differs in a default, a doc or a name is another schema. */
  @Test
  void lookup_ofASchemaThatDiffersOnlyInADefault_isNotFound() {
    Schema withDefault = SchemaBuilder.record("Order").fields().name("id").type().longType().longDefault(5)
        .endRecord();
    notAmong(all(0, withDefault.toString(true)));

    assertThatThrownBy(() -> client(config()).lookup("orders", V1))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessageContaining("ERROR: This schema does not exist.");
  }

  /**
   * Each registered text is parsed once per client, however many lookups read it: not once per record. A text that
   * Avro cannot parse is passed over (it is no schema to find), once too.
   */
  @Test
  void eachRegisteredText_isParsedOnce_acrossLookups() {
    SchemaRepoClient client = client(config());
    String all = all(2, "{\"type\": \"nope\"}", 1, V2.toString(true), 0, V1_AVSC);
    for (Schema schema : List.of(V1, V2, V1, BROKEN, V2)) {
      notAmong(all);
      try {
        client.lookup("orders", schema);
        assertThat(schema).as("found").isNotEqualTo(BROKEN);
      } catch (SchemaNotFoundException e) {
        assertThat(schema).isEqualTo(BROKEN);
      }
    }

    assertThat(client.parses()).isEqualTo(3);
    assertThat(repo.getRequestCount()).isEqualTo(10);
  }

  /**
   * docs/schema-repo.md: a lookup compares parsed forms ({@code Schema.toString()}), so a different doc or name is
   * another schema, never the registered one.
   */
  @Test
  void lookup_aDifferentDocOrName_isAnotherSchema() {
    Schema withDoc = SchemaBuilder.record("Order").doc("An order").fields().requiredLong("id").endRecord();
    Schema renamed = SchemaBuilder.record("Purchase").fields().requiredLong("id").endRecord();
    SchemaRepoClient client = client(config());
    for (Schema other : List.of(withDoc, renamed)) {
      notAmong(all(0, V1_AVSC));
      assertThatThrownBy(() -> client.lookup("orders", other)).as(other.toString())
          .isInstanceOf(SchemaNotFoundException.class);
    }
    notAmong(all(0, V1_AVSC));
    assertThat(client.lookup("orders", V1).id()).as("the registered one is found").isZero();
  }

  /**
   * Issue 49, item 12: schema-repo's ids are decimal. Only an id of 10 or more tells a parse in another radix
   * (hexadecimal reads "10" as 16): every call that reads or sends an id, with ids 10 and 11.
   */
  @Test
  void idsOfTenAndMore_areReadAndSentAsDecimal() throws Exception {
    SchemaRepoClient client = client(config());
    repo.enqueue(ok("10"));
    repo.enqueue(ok("11\t" + V2));
    repo.enqueue(ok(all(11, V2, 10, V1)));
    repo.enqueue(ok(V1.toString()));
    repo.enqueue(ok(V2.toString()));
    notAmong(all(11, V2.toString(true), 10, V1_AVSC));

    assertThat(client.lookup("orders", V1).id()).isEqualTo(10);
    SubjectVersion latest = client.latestVersion("orders");
    assertThat(latest.id()).isEqualTo(11);
    assertThat(latest.version()).isEqualTo(12);
    assertThat(client.versions("orders")).containsExactly(11, 12);
    assertThat(client.forSubject("orders").schemaById(10)).isEqualTo(V1);
    assertThat(client.version("orders", 12).schema()).isEqualTo(V2);
    assertThat(client.register("orders", V2)).isEqualTo(11);

    for (int i = 0; i < 3; i++) {
      repo.takeRequest();
    }
    assertThat(repo.takeRequest().getTarget()).isEqualTo("/schema-repo/orders/id/10");
    assertThat(repo.takeRequest().getTarget()).isEqualTo("/schema-repo/orders/id/11");
  }

  private static String quoted(Schema schema) {
    return JsonBodies.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(schema.toString()));
  }
}
