package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The DEK registry calls as Confluent's server takes them (literal paths and bodies) and answers them (literal
 * JSON of Confluent's registry): not found, conflicts, the older DEK path, a registry without the API, retries.
 */
class HttpDekRegistryTest {
  private static final String JSON = "application/vnd.schemaregistry.v1+json";
  private static final String KEK_JSON = "{\"name\":\"kek1\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"mykey\","
      + "\"kmsProps\":{\"secret\":\"s3cr3t-value\"},\"doc\":\"orders\",\"shared\":false,\"ts\":1718000000000,"
      + "\"deleted\":false}";
  private static final Kek KEK = new Kek("kek1", "local-kms", "mykey", Map.of("secret", "s3cr3t-value"), "orders",
      false, false);
  private static final String DEK_JSON = "{\"kekName\":\"kek1\",\"subject\":\"orders-value\",\"version\":1,"
      + "\"algorithm\":\"AES256_GCM\",\"encryptedKeyMaterial\":\"AQIDBA==\",\"ts\":1718000000123,\"deleted\":false}";
  private static final Dek DEK = new Dek("kek1", "orders-value", 1, "AES256_GCM", "AQIDBA==", null, 1718000000123L,
      false);
  private static final String KEY_NOT_FOUND = "{\"error_code\":40470,\"message\":\"Key 'kek1' not found\"}";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private DekRegistry deks(Map<String, Object> extra) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/").toString());
    config.put("max.retries", 0);
    config.put("retries.wait.ms", 1);
    config.put("retries.max.wait.ms", 5);
    config.putAll(extra);
    return new HttpSchemaRegistryClient(RegistryConfig.from(config)).dekRegistry();
  }

  private DekRegistry deks() {
    return deks(Map.of());
  }

  private void answer(int code, String body) {
    server.enqueue(new MockResponse.Builder().code(code).setHeader("Content-Type", JSON).body(body).build());
  }

  @Test
  void kek_getsByName_andReadsConfluentsAnswer() throws Exception {
    answer(200, KEK_JSON);

    Optional<Kek> kek = deks().kek("kek1", true);

    assertThat(kek).contains(KEK);
    assertThat(kek.get().toString()).doesNotContain("s3cr3t");
    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getTarget()).isEqualTo("/dek-registry/v1/keks/kek1?deleted=true");
  }

  @Test
  void kek_keyNotFound_isEmpty() throws Exception {
    answer(404, KEY_NOT_FOUND);

    assertThat(deks().kek("kek1", false)).isEmpty();
    assertThat(server.takeRequest().getTarget()).isEqualTo("/dek-registry/v1/keks/kek1?deleted=false");
  }

  @Test
  void createKek_postsConfluentsBody() throws Exception {
    answer(200, KEK_JSON);

    assertThat(deks().createKek(KEK)).isEqualTo(KEK);

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/dek-registry/v1/keks");
    assertThat(request.getBody().utf8()).isEqualTo("{\"name\":\"kek1\",\"kmsType\":\"local-kms\","
        + "\"kmsKeyId\":\"mykey\",\"kmsProps\":{\"secret\":\"s3cr3t-value\"},\"doc\":\"orders\",\"shared\":false}");
  }

  @Test
  void createKek_withoutPropsOrDoc_leavesThemOut() throws Exception {
    answer(200, "{\"name\":\"kek2\",\"kmsType\":\"aws-kms\",\"kmsKeyId\":\"arn:aws:kms:k\",\"shared\":true,"
        + "\"ts\":1,\"deleted\":false}");

    Kek created = deks().createKek(new Kek("kek2", "aws-kms", "arn:aws:kms:k", null, null, true, false));

    assertThat(created).isEqualTo(new Kek("kek2", "aws-kms", "arn:aws:kms:k", Map.of(), null, true, false));
    assertThat(server.takeRequest().getBody().utf8())
        .isEqualTo("{\"name\":\"kek2\",\"kmsType\":\"aws-kms\",\"kmsKeyId\":\"arn:aws:kms:k\",\"shared\":true}");
  }

  @Test
  void createKek_conflict_returnsTheOneThere() throws Exception {
    answer(409, "{\"error_code\":40971,\"message\":\"Key 'kek1' already exists; use a different value\"}");
    answer(200, KEK_JSON);

    assertThat(deks().createKek(KEK)).isEqualTo(KEK);

    assertThat(server.takeRequest().getMethod()).isEqualTo("POST");
    RecordedRequest again = server.takeRequest();
    assertThat(again.getMethod()).isEqualTo("GET");
    assertThat(again.getTarget()).isEqualTo("/dek-registry/v1/keks/kek1?deleted=false");
  }

  @Test
  void createKek_conflictWithNothingThere_isTheConflict() {
    answer(409, "{\"error_code\":40972,\"message\":\"Too many keys\"}");
    answer(404, KEY_NOT_FOUND);

    assertThatThrownBy(() -> deks().createKek(KEK))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("create KEK 'kek1' failed: HTTP 409, error_code 40972")
        .hasMessageContaining("no KEK of that name")
        .satisfies(e -> assertThat(((SchemaRegistryException) e).errorCode()).isEqualTo(40972));
  }

  @Test
  void dek_latest_asksVersionMinusOne_andReadsConfluentsAnswer() throws Exception {
    answer(200, DEK_JSON);

    assertThat(deks().dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(DEK);
    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/dek-registry/v1/keks/kek1/deks/orders-value/versions/-1?algorithm=AES256_GCM&deleted=false");
  }

  @Test
  void dek_version_sharedKek_hasKeyMaterial() throws Exception {
    answer(200, "{\"kekName\":\"kek1\",\"subject\":\"orders-value\",\"version\":3,\"algorithm\":\"AES256_SIV\","
        + "\"encryptedKeyMaterial\":\"AQIDBA==\",\"keyMaterial\":\"BQYHCA==\",\"ts\":42,\"deleted\":true}");

    assertThat(deks().dek("kek1", "orders-value", "AES256_SIV", 3, true)).contains(
        new Dek("kek1", "orders-value", 3, "AES256_SIV", "AQIDBA==", "BQYHCA==", 42, true));
    assertThat(server.takeRequest().getTarget())
        .isEqualTo("/dek-registry/v1/keks/kek1/deks/orders-value/versions/3?algorithm=AES256_SIV&deleted=true");
  }

  @Test
  void dek_keyNotFound_isEmpty() {
    answer(404, "{\"error_code\":40470,\"message\":\"Key 'orders-value' not found\"}");

    assertThat(deks().dek("kek1", "orders-value", "AES256_GCM", 1, false)).isEmpty();
  }

  @Test
  void createDek_postsUnderTheSubject() throws Exception {
    answer(200, DEK_JSON);

    assertThat(deks().createDek("kek1", "orders-value", "AES256_GCM", 1, "AQIDBA==")).isEqualTo(DEK);

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/dek-registry/v1/keks/kek1/deks/orders-value");
    assertThat(request.getBody().utf8()).isEqualTo("{\"subject\":\"orders-value\",\"version\":1,"
        + "\"algorithm\":\"AES256_GCM\",\"encryptedKeyMaterial\":\"AQIDBA==\"}");
  }

  @Test
  void createDek_sharedKek_sendsNoMaterial() throws Exception {
    answer(200, "{\"kekName\":\"kek1\",\"subject\":\"orders-value\",\"version\":2,\"algorithm\":\"AES256_GCM\","
        + "\"encryptedKeyMaterial\":\"AQIDBA==\",\"keyMaterial\":\"BQYHCA==\",\"ts\":7,\"deleted\":false}");

    assertThat(deks().createDek("kek1", "orders-value", "AES256_GCM", 2, null).keyMaterial()).isEqualTo("BQYHCA==");
    assertThat(server.takeRequest().getBody().utf8())
        .isEqualTo("{\"subject\":\"orders-value\",\"version\":2,\"algorithm\":\"AES256_GCM\"}");
  }

  @Test
  void createDek_methodNotAllowed_postsToTheOlderPath() throws Exception {
    answer(405, "{\"error_code\":405,\"message\":\"HTTP 405 Method Not Allowed\"}");
    answer(200, DEK_JSON);

    assertThat(deks().createDek("kek1", "orders-value", "AES256_GCM", 1, "AQIDBA==")).isEqualTo(DEK);

    assertThat(server.takeRequest().getTarget()).isEqualTo("/dek-registry/v1/keks/kek1/deks/orders-value");
    RecordedRequest older = server.takeRequest();
    assertThat(older.getMethod()).isEqualTo("POST");
    assertThat(older.getTarget()).isEqualTo("/dek-registry/v1/keks/kek1/deks");
    assertThat(older.getBody().utf8()).isEqualTo("{\"subject\":\"orders-value\",\"version\":1,"
        + "\"algorithm\":\"AES256_GCM\",\"encryptedKeyMaterial\":\"AQIDBA==\"}");
  }

  @Test
  void createDek_conflict_returnsTheVersionThere() throws Exception {
    answer(409, "{\"error_code\":40971,\"message\":\"Key 'orders-value' already exists; use a different value\"}");
    answer(200, DEK_JSON);

    assertThat(deks().createDek("kek1", "orders-value", "AES256_GCM", 1, "CQoLDA==")).isEqualTo(DEK);

    server.takeRequest();
    RecordedRequest again = server.takeRequest();
    assertThat(again.getMethod()).isEqualTo("GET");
    assertThat(again.getTarget())
        .isEqualTo("/dek-registry/v1/keks/kek1/deks/orders-value/versions/1?algorithm=AES256_GCM&deleted=false");
  }

  @Test
  void createDek_versionBelowOne_isRefusedWithoutARequest() {
    assertThatThrownBy(() -> deks().createDek("kek1", "orders-value", "AES256_GCM", 0, "AQIDBA=="))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("DEK version of KEK 'kek1', subject 'orders-value' must be at least 1 (or DekRegistry.LATEST "
            + "for a lookup), was 0");
    assertThat(server.getRequestCount()).isZero();
  }

  /**
   * Issue 49, item 1: a 404 that is not the DEK registry's own (a proxy's HTML page, a JSON error_code 404, a 40400,
   * another API's 40401) is an outage: retried like a 503, and the answer after it is used.
   */
  @ParameterizedTest
  @ValueSource(strings = {"<html><body>404 Not Found</body></html>", "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}",
      "{\"error_code\":40400,\"message\":\"Not found\"}", "{\"error_code\":40401,\"message\":\"Subject not found.\"}"})
  void notTheDekRegistrys404_isRetried_thenAnswered(String body) throws Exception {
    server.enqueue(new MockResponse.Builder().code(404)
        .setHeader("Content-Type", body.startsWith("<") ? "text/html" : JSON).body(body).build());
    answer(200, KEK_JSON);

    assertThat(deks(Map.of("max.retries", 1)).kek("kek1", false)).contains(KEK);
    assertThat(server.getRequestCount()).as("the 404, then the same request again").isEqualTo(2);
    assertThat(server.takeRequest().getTarget()).isEqualTo("/dek-registry/v1/keks/kek1?deleted=false");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/dek-registry/v1/keks/kek1?deleted=false");
  }

  /**
   * Issue 49, item 1: a 404 that is not the DEK registry's own, past the retries, is an outage (retriable), never
   * "the API is missing", and never remembered: the next call asks again and uses the answer.
   */
  @Test
  void notTheDekRegistrys404_isUnavailable_neverRemembered() {
    DekRegistry deks = deks();
    server.enqueue(new MockResponse.Builder().code(404).setHeader("Content-Type", "text/html")
        .body("<html>Not Found</html>").build());
    assertThatThrownBy(() -> deks.dek("kek1", "orders-value", "AES256_GCM", 1, false))
        .isInstanceOf(RegistryUnavailableException.class)
        .isNotInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("DEK registry API")
        .hasMessageContaining("outage");
    answer(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}");
    assertThatThrownBy(() -> deks.kek("kek1", false)).isInstanceOf(RegistryUnavailableException.class);

    answer(200, KEK_JSON);
    answer(200, DEK_JSON);
    assertThat(deks.kek("kek1", false)).contains(KEK);
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 1, false)).contains(DEK);
    assertThat(server.getRequestCount()).as("no probe of the core API, nothing learned").isEqualTo(4);
  }

  /** Issue 49, item 1: a 200 that is not JSON (a captive portal's page) is no answer of the DEK registry. */
  @Test
  void successThatIsNotJson_isUnavailable() {
    server.enqueue(new MockResponse.Builder().code(200).setHeader("Content-Type", "text/html")
        .body("<html>Please sign in</html>").build());

    assertThatThrownBy(() -> deks().kek("kek1", false))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("not the registry's answer");
  }

  @Test
  void unavailable_isRetried_thenAnswered() throws Exception {
    answer(503, "{\"error_code\":50301,\"message\":\"Service unavailable\"}");
    answer(200, KEK_JSON);

    assertThat(deks(Map.of("max.retries", 2)).kek("kek1", false)).contains(KEK);
    assertThat(server.getRequestCount()).isEqualTo(2);
    assertThat(server.takeRequest().getTarget()).isEqualTo("/dek-registry/v1/keks/kek1?deleted=false");
    assertThat(server.takeRequest().getTarget()).isEqualTo("/dek-registry/v1/keks/kek1?deleted=false");
  }

  @Test
  void malformedAnswer_namesTheField_notTheSecrets() {
    answer(200, "{\"name\":\"kek1\",\"kmsType\":\"local-kms\",\"kmsProps\":{\"secret\":\"s3cr3t-value\"}}");

    assertThatThrownBy(() -> deks().kek("kek1", false))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageStartingWith("get KEK 'kek1' failed: the registry's answer has no valid 'kmsKeyId' field")
        .message().doesNotContain("s3cr3t");
  }

  /** Review item 3: a success that is no KEK or DEK (a gateway's) is an outage, never a refusal a rule passes over. */
  @ParameterizedTest
  @ValueSource(strings = {"{}", "{\"status\":\"ok\"}"})
  void successThatIsNoKeyOrDek_isAnOutage(String body) {
    answer(200, body);
    answer(200, body);

    assertThatThrownBy(() -> deks().kek("kek1", false)).isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("treated as an outage");
    assertThatThrownBy(() -> deks().dek("kek1", "orders-value", "AES256_GCM", 1, false))
        .isInstanceOf(RegistryUnavailableException.class).hasMessageContaining("'version'");
  }

  @Test
  void refusedCreate_doesNotQuoteTheProperties() {
    answer(422, "{\"error_code\":42271,\"message\":\"Invalid key\"}");

    assertThatThrownBy(() -> deks().createKek(KEK))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("create KEK 'kek1' failed: HTTP 422, error_code 42271: Invalid key")
        .message().doesNotContain("s3cr3t");
  }
}
