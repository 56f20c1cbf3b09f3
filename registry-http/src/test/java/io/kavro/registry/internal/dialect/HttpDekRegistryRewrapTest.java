package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import java.util.HashMap;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * The calls of the rewrap tool as Confluent's {@code RewrapDeks} makes them (literal paths, queries and bodies of
 * its {@code DekRegistryRestService}): a KEK's subjects, a subject's versions per algorithm, and the create with
 * {@code ?rewrap=true}; and the caching client forgetting a re-wrapped DEK.
 */
class HttpDekRegistryRewrapTest {
  private static final String JSON = "application/vnd.schemaregistry.v1+json";
  private static final Dek DEK = new Dek("kek1", "orders value/x", 2, "AES128_GCM", "AQIDBA==", null, 1718000000123L,
      true);
  private static final String REWRAPPED_JSON = "{\"kekName\":\"kek1\",\"subject\":\"orders value/x\",\"version\":2,"
      + "\"algorithm\":\"AES128_GCM\",\"encryptedKeyMaterial\":\"BQYHCA==\",\"ts\":1718000000123,\"deleted\":true}";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private Map<String, Object> config() {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/").toString());
    config.put("max.retries", 0);
    config.put("retries.wait.ms", 1);
    config.put("retries.max.wait.ms", 5);
    return config;
  }

  private DekRegistry deks() {
    return new HttpSchemaRegistryClient(RegistryConfig.from(config())).dekRegistry();
  }

  private void answer(int code, String body) {
    server.enqueue(new MockResponse.Builder().code(code).setHeader("Content-Type", JSON).body(body).build());
  }

  @Test
  void dekSubjects_getsTheKeksDeks_andReadsTheList() throws Exception {
    answer(200, "[\"orders-value\",\"orders value/x\"]");

    assertThat(deks().dekSubjects("kek1", true)).containsExactly("orders-value", "orders value/x");

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getTarget()).isEqualTo("/dek-registry/v1/keks/kek1/deks?deleted=true");
  }

  @Test
  void dekVersions_encodesTheSubject_andSendsTheAlgorithm() throws Exception {
    answer(200, "[1,2,5]");

    assertThat(deks().dekVersions("kek1", "orders value/x", "AES128_GCM", false)).containsExactly(1, 2, 5);

    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("GET");
    assertThat(request.getTarget())
        .isEqualTo("/dek-registry/v1/keks/kek1/deks/orders%20value%2Fx/versions?deleted=false&algorithm=AES128_GCM");
  }

  @Test
  void listings_notAList_areMalformedAnswers_namingTheField() {
    answer(200, "{\"subjects\":[]}");
    assertThatThrownBy(() -> deks().dekSubjects("kek1", false)).isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("list the DEK subjects of KEK 'kek1'").hasMessageContaining("'subjects'");
    answer(200, "[1,\"two\"]");
    assertThatThrownBy(() -> deks().dekVersions("kek1", "s", "AES256_GCM", false))
        .isInstanceOf(SchemaRegistryException.class).hasMessageContaining("'versions'");
  }

  @Test
  void listings_keyNotFound_isTheRegistrysAnswer_aBare404_anOutage() {
    answer(404, "{\"error_code\":40470,\"message\":\"Key 'kek1' not found\"}");
    assertThatThrownBy(() -> deks().dekSubjects("kek1", false)).isInstanceOf(SchemaNotFoundException.class)
        .isNotInstanceOf(RegistryUnavailableException.class);
    answer(404, "<html>not here</html>");
    assertThatThrownBy(() -> deks().dekSubjects("kek1", false)).isInstanceOf(RegistryUnavailableException.class);
  }

  @Test
  void rewrapDek_postsTheVersionWithRewrapTrue_keepingItsDeletedState() throws Exception {
    answer(200, REWRAPPED_JSON);

    Dek rewrapped = deks().rewrapDek(DEK, "BQYHCA==");

    assertThat(rewrapped).isEqualTo(new Dek("kek1", "orders value/x", 2, "AES128_GCM", "BQYHCA==", null,
        1718000000123L, true));
    RecordedRequest request = server.takeRequest();
    assertThat(request.getMethod()).isEqualTo("POST");
    assertThat(request.getTarget()).isEqualTo("/dek-registry/v1/keks/kek1/deks/orders%20value%2Fx?rewrap=true");
    assertThat(request.getBody().utf8()).isEqualTo("{\"subject\":\"orders value/x\",\"version\":2,"
        + "\"algorithm\":\"AES128_GCM\",\"encryptedKeyMaterial\":\"BQYHCA==\",\"deleted\":true}");
  }

  @Test
  void rewrapDek_ofASharedKek_sendsNoKeyMaterial() throws Exception {
    answer(200, REWRAPPED_JSON);

    deks().rewrapDek(DEK, null);

    assertThat(server.takeRequest().getBody().utf8()).isEqualTo("{\"subject\":\"orders value/x\",\"version\":2,"
        + "\"algorithm\":\"AES128_GCM\",\"deleted\":true}");
  }

  @Test
  void rewrapDek_answered405_isNotSentToTheOlderPath() {
    answer(405, "{\"error_code\":405,\"message\":\"HTTP 405 Method Not Allowed\"}");

    assertThatThrownBy(() -> deks().rewrapDek(DEK, "BQYHCA==")).isInstanceOf(SchemaRegistryException.class);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void cachingClient_forgetsTheVersionItRewraps() throws Exception {
    String before = REWRAPPED_JSON.replace("BQYHCA==", "AQIDBA==");
    answer(200, before);
    answer(200, REWRAPPED_JSON);
    answer(200, REWRAPPED_JSON);
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config())) {
      DekRegistry deks = client.dekRegistry();
      assertThat(deks.dek("kek1", "orders value/x", "AES128_GCM", 2, true).orElseThrow().encryptedKeyMaterial())
          .isEqualTo("AQIDBA==");

      deks.rewrapDek(DEK, "BQYHCA==");

      assertThat(deks.dek("kek1", "orders value/x", "AES128_GCM", 2, true).orElseThrow().encryptedKeyMaterial())
          .isEqualTo("BQYHCA==");
    }
    assertThat(server.getRequestCount()).isEqualTo(3);
  }
}
