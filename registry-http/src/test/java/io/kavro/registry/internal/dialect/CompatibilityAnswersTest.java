package io.kavro.registry.internal.dialect;

import static io.kavro.registry.TestSchemas.USER_V2;
import static io.kavro.registry.TestSchemas.USER_V3_INCOMPATIBLE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 4: {@code kavro schema compatibility} contradicted the registry. Apicurio's reason (its
 * {@code reason} field) was dropped, and the level in force was read as Apicurio's subject-level {@code NONE}
 * while the registry enforced its global {@code BACKWARD}: Avro then found "no reason" either.
 */
class CompatibilityAnswersTest {
  private static final String JSON = "application/vnd.schemaregistry.v1+json";
  private static final String APICURIO_REASON = "Incompatible artifact: io.kavro.test.User [AVRO], num of "
      + "incompatible diffs: {1}, list of diff types: [READER_FIELD_MISSING_DEFAULT_VALUE age at /fields/2]";

  @StartStop
  final MockWebServer server = new MockWebServer();

  /** A client of the registry at {@code path}: Apicurio's Confluent-compatible API, or a registry at the root. */
  private HttpSchemaRegistryClient client(String path) {
    return new HttpSchemaRegistryClient(RegistryConfig.from(Map.of("schema.registry.url",
        server.url(path).toString(), "max.retries", 0)));
  }

  private HttpSchemaRegistryClient apicurio() {
    return client("/apis/ccompat/v7");
  }

  private HttpSchemaRegistryClient confluent() {
    return client("/");
  }

  private void answer(int code, String body) {
    server.enqueue(new MockResponse.Builder().code(code).setHeader("Content-Type", JSON).body(body).build());
  }

  private void answerVersion(int version, org.apache.avro.Schema schema) {
    answer(200, JsonNodeFactory.instance.objectNode().put("subject", "s").put("version", version)
        .put("id", version).put("schema", schema.toString()).toString());
  }

  @Test
  void checkCompatibility_apicurioReasonField_isTheMessage() throws Exception {
    answer(200, "{\"is_compatible\":false,\"reason\":\"" + APICURIO_REASON + "\"}");

    CompatibilityCheck check = apicurio().checkCompatibility("s", USER_V3_INCOMPATIBLE);

    assertThat(check.compatible()).isFalse();
    assertThat(check.messages()).containsExactly(APICURIO_REASON);
    assertThat(server.getRequestCount()).as("the registry's reason: no reading of Kavro's").isEqualTo(1);
  }

  @Test
  void checkCompatibility_messagesAndReason_bothReadEachOnce() {
    answer(200, "{\"is_compatible\":false,\"messages\":[\"READER_FIELD_MISSING_DEFAULT_VALUE: age\","
        + "{\"errorType\":\"TYPE_MISMATCH\"},\"  \"],\"reason\":\"READER_FIELD_MISSING_DEFAULT_VALUE: age\"}");
    answer(200, "{\"is_compatible\":false,\"messages\":\"one message, not a list\",\"reason\":[\"r1\",\"r2\"]}");

    assertThat(confluent().checkCompatibility("s", USER_V3_INCOMPATIBLE).messages())
        .containsExactly("READER_FIELD_MISSING_DEFAULT_VALUE: age", "{\"errorType\":\"TYPE_MISMATCH\"}");
    assertThat(confluent().checkCompatibility("s", USER_V3_INCOMPATIBLE).messages())
        .containsExactly("one message, not a list", "r1", "r2");
  }

  /** No reason given: Avro's, at the level in force (Apicurio's global BACKWARD), naming the field. */
  @Test
  void checkCompatibility_noReason_avroAtTheLevelInForce() throws Exception {
    answer(200, "{\"is_compatible\":false}");
    answer(200, "{\"compatibilityLevel\":\"NONE\"}"); // Apicurio: the subject sets none
    answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
    answer(200, "[1]");
    answerVersion(1, USER_V2);

    CompatibilityCheck check = apicurio().checkCompatibility("s", USER_V3_INCOMPATIBLE);

    assertThat(check.messages()).singleElement().asString()
        .startsWith("BACKWARD: new schema cannot read version 1")
        .contains("field User.age is not in the writer's schema and has no default")
        .endsWith("(Kavro's reading; the registry gave no reason)");
    server.takeRequest();
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config/s");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config");
  }

  /** No reason given, at a non-transitive level: only the latest version is fetched, however many there are. */
  @Test
  void checkCompatibility_noReason_nonTransitive_fetchesOnlyTheLatestVersion() throws Exception {
    answer(200, "{\"is_compatible\":false}");
    answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
    answer(200, "[1,2,3]");
    answerVersion(3, USER_V2);

    CompatibilityCheck check = confluent().checkCompatibility("s", USER_V3_INCOMPATIBLE);

    assertThat(check.messages()).singleElement().asString()
        .startsWith("BACKWARD: new schema cannot read version 3");
    server.takeRequest();
    server.takeRequest();
    assertThat(server.takeRequest().getTarget()).isEqualTo("/subjects/s/versions");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/subjects/s/versions/3");
    assertThat(server.getRequestCount()).isEqualTo(4);
  }

  @Test
  void compatibilityInForce_apicurioNone_isTheGlobalLevel() throws Exception {
    answer(200, "{\"compatibilityLevel\":\"NONE\"}");
    answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}");

    CompatibilityInForce inForce = apicurio().compatibilityInForce("s");

    assertThat(inForce).isEqualTo(new CompatibilityInForce(CompatibilityLevel.BACKWARD,
        CompatibilityInForce.Scope.GLOBAL));
    assertThat(inForce).hasToString("BACKWARD (global; the subject sets none)");
    assertThat(server.takeRequest().getTarget()).as("asked whose level it is: no defaultToGlobal")
        .isEqualTo("/apis/ccompat/v7/config/s");
  }

  @Test
  void compatibilityInForce_confluentNone_isTheSubjectsOwn() throws Exception {
    answer(200, "{\"compatibilityLevel\":\"NONE\"}");

    assertThat(confluent().compatibilityInForce("s")).isEqualTo(new CompatibilityInForce(CompatibilityLevel.NONE,
        CompatibilityInForce.Scope.SUBJECT));
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void compatibilityInForce_subjectLevel_isTheSubjectsOwn() {
    answer(200, "{\"compatibilityLevel\":\"FULL\"}");

    assertThat(apicurio().compatibilityInForce("s")).isEqualTo(new CompatibilityInForce(CompatibilityLevel.FULL,
        CompatibilityInForce.Scope.SUBJECT));
  }

  @Test
  void compatibilityInForce_confluent40408_isTheGlobalLevel() throws Exception {
    answer(404, "{\"error_code\":40408,\"message\":\"Subject 's' does not have subject-level compatibility "
        + "configured\"}");
    answer(200, "{\"compatibilityLevel\":\"FORWARD\"}");

    assertThat(confluent().compatibilityInForce("s")).isEqualTo(new CompatibilityInForce(CompatibilityLevel.FORWARD,
        CompatibilityInForce.Scope.GLOBAL));
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config/s");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config");
  }

  /**
   * Confluent 7.x and later keep a subject config that holds only normalize, metadata, ruleSets or alias: asked
   * without defaultToGlobal, it answers 200 without a level, and the global level applies.
   */
  @Test
  void compatibilityInForce_subjectConfigWithoutLevel_isTheGlobalLevel() throws Exception {
    answer(200, "{\"normalize\":true,\"ruleSets\":{\"domainRules\":[]}}");
    answer(200, "{\"compatibilityLevel\":\"FULL\"}");

    assertThat(confluent().compatibilityInForce("s")).isEqualTo(new CompatibilityInForce(CompatibilityLevel.FULL,
        CompatibilityInForce.Scope.GLOBAL));
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config/s");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config");
  }

  /** The level alone: one request, the registry answering the global level itself when the subject sets none. */
  @Test
  void compatibility_subject_oneRequestWithDefaultToGlobal() throws Exception {
    answer(200, "{\"compatibilityLevel\":\"FORWARD\"}");
    answer(200, "{\"compatibilityLevel\":\"NONE\"}");

    assertThat(confluent().compatibility("s")).isEqualTo(CompatibilityLevel.FORWARD);
    assertThat(confluent().compatibility("s")).as("Confluent's NONE is the level").isEqualTo(CompatibilityLevel.NONE);

    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config/s?defaultToGlobal=true");
  }

  /**
   * An Apicurio that ignores defaultToGlobal answers NONE for a subject that sets none: its global level is asked
   * for too. So is it for an answer without a level.
   */
  @Test
  void compatibility_subject_apicurioNoneOrNoLevel_asksTheGlobalLevel() throws Exception {
    answer(200, "{\"compatibilityLevel\":\"NONE\"}");
    answer(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
    answer(200, "{\"normalize\":true}");
    answer(200, "{\"compatibilityLevel\":\"FULL\"}");

    assertThat(apicurio().compatibility("s")).isEqualTo(CompatibilityLevel.BACKWARD);
    assertThat(confluent().compatibility("s")).isEqualTo(CompatibilityLevel.FULL);

    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config/s?defaultToGlobal=true");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/apis/ccompat/v7/config");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config/s?defaultToGlobal=true");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config");
  }

  /**
   * Only the registry's own not-found means "the subject sets none": a 404 from no registry is a failure (from a URL
   * that never answered as a registry, a wrong URL).
   */
  @Test
  void compatibilityInForce_404WithoutErrorCode_isAFailureNotTheGlobalLevel() {
    server.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
        .body("<html>Not Found</html>").build());

    assertThatThrownBy(() -> confluent().compatibilityInForce("s"))
        .isInstanceOf(WrongRegistryUrlException.class).hasMessageContaining("HTTP 404");
    assertThat(server.getRequestCount()).as("no global level asked for").isEqualTo(1);
  }
}
