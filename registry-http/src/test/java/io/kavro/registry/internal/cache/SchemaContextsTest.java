package io.kavro.registry.internal.cache;

import static io.kavro.registry.TestSchemas.ORDER;
import static io.kavro.registry.TestSchemas.USER_V1;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaContexts;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.dialect.HttpSchemaRegistryClient;
import io.kavro.registry.internal.http.JsonBodies;
import io.kavro.registry.mock.MockRegistries;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 51, item 2: Confluent's schema contexts in the registry client. The expected names and requests are written
 * out by hand from Confluent's {@code QualifiedSubject}, {@code RestService.getId} ({@code /schemas/ids/{id}} with a
 * {@code subject} query parameter) and {@code ContextFilter} (a base URL ending in {@code /contexts/.ctx}). Ids are
 * numbered per context: the same number in two contexts is two schemas, and no cache may serve one for the other.
 */
class SchemaContextsTest {
  private static final String JSON = "application/vnd.schemaregistry.v1+json";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private Map<String, Object> config(String path) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url(path).toString());
    config.put("max.retries", 0);
    return config;
  }

  private void answer(String body) {
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", JSON).body(body).build());
  }

  private static String schemaAnswer(Schema schema) {
    return "{\"schema\":" + JsonBodies.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(schema.toString()))
        + "}";
  }

  private RecordedRequest next() throws InterruptedException {
    RecordedRequest request = server.takeRequest(5, TimeUnit.SECONDS);
    assertThat(request).as("a request").isNotNull();
    return request;
  }

  @ParameterizedTest
  @CsvSource(nullValues = "null", value = {"ctx,:.ctx:", ".ctx,:.ctx:", ":.ctx:,:.ctx:", ":.ctx,:.ctx:",
      ".ctx:,:.ctx:", ":ctx:,:.ctx:", "null,''", "'',''", ".,''", ":.:,''", "a.b,:.a.b:"})
  void qualifier_readsAContextNameAsConfluentDoes(String name, String qualifier) {
    assertThat(SchemaContexts.qualifier(name)).isEqualTo(qualifier);
  }

  @Test
  void qualifier_refusesAColonInsideTheName() {
    assertThatThrownBy(() -> SchemaContexts.qualifier(".a:b")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'.a:b'").hasMessageContaining("colon");
  }

  @ParameterizedTest
  @CsvSource({":.ctx:orders-value,:.ctx:", ":.ctx,:.ctx:", ":.ctx:,:.ctx:", "orders-value,''", ":.:orders-value,''",
      "a:.b:c,''", ":*:orders,''"})
  void of_isTheContextASubjectIsIn(String subject, String qualifier) {
    assertThat(SchemaContexts.of(subject)).isEqualTo(qualifier);
  }

  @Test
  void idInAContext_isAskedWithTheContextAsSubject_asConfluentsDeserializerAsks() throws Exception {
    try (SchemaRegistryClient client = new HttpSchemaRegistryClient(RegistryConfig.from(config("/reg")))) {
      answer(schemaAnswer(USER_V1));
      assertThat(client.inContext("ctx").schemaById(7)).isEqualTo(USER_V1);
      RecordedRequest request = next();
      assertThat(request.getTarget()).isEqualTo("/reg/schemas/ids/7?subject=%3A.ctx%3A");
      assertThat(request.getUrl().queryParameter("subject")).isEqualTo(":.ctx:");

      answer("{\"schema\":\"\\\"string\\\"\",\"guid\":\"3c5b5c2c-8f6a-4f1c-9d1e-0c6a1b2e3f40\"}");
      assertThat(client.inContext(":.ctx:").guidOf(7)).hasToString("3c5b5c2c-8f6a-4f1c-9d1e-0c6a1b2e3f40");
      assertThat(next().getTarget()).isEqualTo("/reg/schemas/ids/7?subject=%3A.ctx%3A");

      answer(schemaAnswer(USER_V1));
      assertThat(client.inContext(".").schemaById(7)).isEqualTo(USER_V1);
      assertThat(next().getTarget()).as("the default context asks as ever").isEqualTo("/reg/schemas/ids/7");
    }
  }

  /** mock://'s registry gives one view per context, as the javadoc of {@code inContext} promises. */
  @Test
  void inMemoryRegistry_oneViewPerContext() {
    SchemaRegistryClient client = MockRegistries.inMemory();
    SchemaRegistryClient a = client.inContext("a");
    assertThat(a).isNotSameAs(client).isSameAs(client.inContext(":.a:")).isSameAs(a.inContext(".a"));
    assertThat(a.inContext(".")).isSameAs(client);
  }

  @Test
  void contextQualifiedSubject_isSentAsOneSegmentThatDecodesToIt() throws Exception {
    try (SchemaRegistryClient client = new HttpSchemaRegistryClient(RegistryConfig.from(config("/reg")))) {
      answer("{\"id\":1}");
      assertThat(client.register(":.ctx:orders-value", USER_V1)).isEqualTo(1);
      RecordedRequest request = next();
      assertThat(request.getMethod()).isEqualTo("POST");
      assertThat(request.getUrl().pathSegments()).containsExactly("reg", "subjects", ":.ctx:orders-value",
          "versions");
    }
  }

  /**
   * The misread this guards against: a registration in context {@code .a} answers id 1, and the default context's id
   * 1 is another schema. The cached client must ask the registry for the default context's id 1, and serve context
   * {@code .a}'s id 1 from what the registration taught it, never one for the other.
   */
  @Test
  void cachedClient_neverServesOneContextsIdForAnothers() throws Exception {
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config("/reg"))) {
      answer("{\"id\":1}");
      assertThat(client.register(":.a:orders-value", ORDER)).isEqualTo(1);
      assertThat(next().getUrl().pathSegments()).contains(":.a:orders-value");

      answer(schemaAnswer(USER_V1));
      assertThat(client.schemaById(1)).as("the default context's id 1").isEqualTo(USER_V1);
      assertThat(next().getTarget()).isEqualTo("/reg/schemas/ids/1");

      answer(schemaAnswer(USER_V1));
      assertThat(client.inContext("b").schemaById(1)).as("context .b's id 1").isEqualTo(USER_V1);
      assertThat(next().getTarget()).isEqualTo("/reg/schemas/ids/1?subject=%3A.b%3A");

      int before = server.getRequestCount();
      assertThat(client.inContext("a").schemaById(1)).as("context .a's id 1, as its registration said")
          .isEqualTo(ORDER);
      assertThat(client.inContext(".a").schemaById(1)).isEqualTo(ORDER);
      assertThat(client.schemaById(1)).isEqualTo(USER_V1);
      assertThat(server.getRequestCount()).as("each answered from its own cache").isEqualTo(before);
      assertThat(client.inContext("a")).as("one view per context").isSameAs(client.inContext(":.a:"));
      assertThat(client.inContext(".")).isSameAs(client);
    }
  }

  @Test
  void registryUrlWithAContextPath_isABaseUrlTheRegistryQualifies() throws Exception {
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config("/contexts/.ctx"))) {
      answer("{\"id\":3}");
      assertThat(client.register("orders-value", USER_V1)).isEqualTo(3);
      assertThat(next().getTarget()).isEqualTo("/contexts/.ctx/subjects/orders-value/versions");

      answer(schemaAnswer(ORDER));
      assertThat(client.schemaById(4)).isEqualTo(ORDER);
      assertThat(next().getTarget()).isEqualTo("/contexts/.ctx/schemas/ids/4");
    }
  }

  @Test
  void apicurio_hasNoContexts_andSaysSoByName_beforeAnythingIsSent() {
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config("/apis/ccompat/v7"))) {
      assertThatThrownBy(() -> client.register(":.ctx:orders-value", USER_V1))
          .isInstanceOf(UnsupportedRegistryApiException.class)
          .hasMessageContaining("Apicurio Registry has no schema contexts")
          .hasMessageContaining("':.ctx:orders-value'");
      assertThatThrownBy(() -> client.latestVersion(":.ctx:orders-value"))
          .isInstanceOf(UnsupportedRegistryApiException.class)
          .hasMessageContaining("Apicurio Registry has no schema contexts");
      assertThatThrownBy(() -> client.inContext("ctx").schemaById(1))
          .isInstanceOf(UnsupportedRegistryApiException.class)
          .hasMessageContaining("Apicurio Registry has no schema contexts").hasMessageContaining("':.ctx:'");
      assertThat(client.inContext(".")).isSameAs(client);
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void diskCache_keepsEachContextsIdsInAFolderOfItsOwn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
    SchemaFileStore store = new SchemaFileStore(dir, "http://registry");
    store.inContext(":.a:").save(1, ORDER);
    store.save(1, USER_V1);

    assertThat(store.inContext(":.a:").load(1)).isEqualTo(ORDER);
    assertThat(store.load(1)).isEqualTo(USER_V1);
    assertThat(store.inContext(":.b:").load(1)).isNull();
  }

  @Test
  void inMemoryRegistry_numbersIdsPerContext() {
    try (SchemaRegistryClient client = SchemaRegistryClients.create(Map.of("schema.registry.url",
        "mock://contexts-" + java.util.UUID.randomUUID()))) {
      assertThat(client.register(":.a:orders-value", ORDER)).isEqualTo(1);
      assertThat(client.register(":.b:orders-value", USER_V1)).isEqualTo(1);
      assertThat(client.register("orders-value", USER_V1)).isEqualTo(1);
      assertThat(client.register(":.b:other-value", ORDER)).isEqualTo(2);

      assertThat(client.inContext("a").schemaById(1)).isEqualTo(ORDER);
      assertThat(client.inContext("b").schemaById(1)).isEqualTo(USER_V1);
      assertThat(client.inContext("b").schemaById(2)).isEqualTo(ORDER);
      assertThat(client.schemaById(1)).isEqualTo(USER_V1);
      assertThatThrownBy(() -> client.inContext("a").schemaById(2)).isInstanceOf(SchemaNotFoundException.class);
      assertThat(client.latestVersion(":.b:orders-value").schema()).isEqualTo(USER_V1);
      assertThat(client.subjects()).contains(":.a:orders-value", ":.b:orders-value", "orders-value");
    }
  }

  @Test
  void aClientWithoutContexts_refusesOneByName() {
    SchemaRegistryClient none = new SchemaRegistryClient() {
      @Override public int register(String s, Schema schema, List<SchemaReference> r) { return 0; }
      @Override public SubjectVersion lookup(String s, Schema schema, List<SchemaReference> r) { return null; }
      @Override public Schema schemaById(int id) { return null; }
      @Override public Schema schemaByGuid(java.util.UUID guid) { return null; }
      @Override public java.util.UUID guidOf(int id) { return null; }
      @Override public SubjectVersion latestVersion(String s) { return null; }
      @Override public SubjectVersion latestWithMetadata(String s, Map<String, String> m) { return null; }
      @Override public SubjectVersion version(String s, int v) { return null; }
      @Override public List<String> subjects() { return List.of(); }
      @Override public List<Integer> versions(String s) { return List.of(); }
      @Override public CompatibilityCheck checkCompatibility(String s, Schema schema) { return null; }
      @Override public CompatibilityLevel compatibility() { return null; }
      @Override public CompatibilityInForce compatibilityInForce(String s) { return null; }
      @Override public void setCompatibility(CompatibilityLevel level) { }
      @Override public void setCompatibility(String s, CompatibilityLevel level) { }
      @Override public List<Integer> deleteSubject(String s) { return List.of(); }
      @Override public List<Integer> deleteSubjectPermanently(String s) { return List.of(); }
      @Override public int deleteVersion(String s, int v) { return 0; }
      @Override public int deleteVersionPermanently(String s, int v) { return 0; }
      @Override public void close() { }
    };
    assertThat(none.inContext(null)).isSameAs(none);
    assertThatThrownBy(() -> none.inContext("ctx")).isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("':.ctx:'").hasMessageContaining("has no schema contexts");
  }
}
