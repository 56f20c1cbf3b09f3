package io.kavro.registry.internal.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import io.kavro.registry.internal.cache.CachingSchemaRegistryClientTest.FakeTicker;
import io.kavro.registry.internal.dialect.HttpSchemaRegistryClient;
import io.kavro.registry.mock.MockRegistries;
import java.time.Duration;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * The DEK registry of the caching client, over the HTTP one: a DEK version is asked once, a KEK and a latest DEK
 * are refreshed after the latest TTL (and kept when the refresh fails), "not found" is kept briefly, creates
 * fill the cache and forget the latest DEK.
 */
class CachingDekRegistryTest {
  private static final String JSON = "application/vnd.schemaregistry.v1+json";
  private static final String KEK_JSON = "{\"name\":\"kek1\",\"kmsType\":\"local-kms\",\"kmsKeyId\":\"mykey\","
      + "\"shared\":false,\"ts\":1718000000000,\"deleted\":false}";
  private static final Kek KEK = new Kek("kek1", "local-kms", "mykey", Map.of(), null, false, false);
  private static final String DEK1_JSON = "{\"kekName\":\"kek1\",\"subject\":\"orders-value\",\"version\":1,"
      + "\"algorithm\":\"AES256_GCM\",\"encryptedKeyMaterial\":\"AQIDBA==\",\"ts\":1718000000123,\"deleted\":false}";
  private static final Dek DEK1 = new Dek("kek1", "orders-value", 1, "AES256_GCM", "AQIDBA==", null, 1718000000123L,
      false);
  private static final String DEK2_JSON = "{\"kekName\":\"kek1\",\"subject\":\"orders-value\",\"version\":2,"
      + "\"algorithm\":\"AES256_GCM\",\"encryptedKeyMaterial\":\"BQYHCA==\",\"ts\":1718000999000,\"deleted\":false}";
  private static final Dek DEK2 = new Dek("kek1", "orders-value", 2, "AES256_GCM", "BQYHCA==", null, 1718000999000L,
      false);
  private static final String NOT_FOUND = "{\"error_code\":40470,\"message\":\"Key 'kek1' not found\"}";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final FakeTicker ticker = new FakeTicker();

  /** A caching client with a latest TTL of one minute, refreshing on the calling thread. */
  private CachingSchemaRegistryClient client(Duration latestTtl) {
    HttpSchemaRegistryClient http = new HttpSchemaRegistryClient(RegistryConfig.from(Map.of(
        "schema.registry.url", server.url("/").toString(), "max.retries", 0)));
    return new CachingSchemaRegistryClient(http, CachePolicy.of(100, latestTtl), null, ticker, Runnable::run);
  }

  private DekRegistry deks() {
    return client(Duration.ofMinutes(1)).dekRegistry();
  }

  private void answer(int code, String body) {
    server.enqueue(new MockResponse.Builder().code(code).setHeader("Content-Type", JSON).body(body).build());
  }

  @Test
  void dekVersion_askedOnce_evenLongAfter() {
    answer(200, DEK1_JSON);
    DekRegistry deks = deks();

    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 1, false)).contains(DEK1);
    ticker.advance(Duration.ofDays(30));
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 1, false)).contains(DEK1);

    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void kek_secondGet_noRequest_refreshedAfterTheLatestTtl() {
    answer(200, KEK_JSON);
    answer(200, KEK_JSON.replace("\"shared\":false", "\"shared\":true"));
    DekRegistry deks = deks();

    assertThat(deks.kek("kek1", false)).contains(KEK);
    ticker.advance(Duration.ofSeconds(59));
    assertThat(deks.kek("kek1", false)).contains(KEK);
    assertThat(server.getRequestCount()).isEqualTo(1);

    ticker.advance(Duration.ofSeconds(2));
    deks.kek("kek1", false); // due: refreshed (here on this thread)
    assertThat(deks.kek("kek1", false)).contains(new Kek("kek1", "local-kms", "mykey", Map.of(), null, true, false));
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void latestDek_refreshFails_keepsTheOneHeld() {
    answer(200, DEK1_JSON);
    answer(503, "{\"error_code\":50301,\"message\":\"Service unavailable\"}");
    DekRegistry deks = deks();

    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(DEK1);
    ticker.advance(Duration.ofMinutes(2));

    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(DEK1);
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(DEK1);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void latestDek_withoutLatestTtl_isKept() {
    answer(200, DEK1_JSON);
    DekRegistry deks = client(RegistryConfig.NO_EXPIRY).dekRegistry();

    deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false);
    ticker.advance(Duration.ofDays(30));

    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(DEK1);
    assertThat(server.getRequestCount()).isEqualTo(1);
  }

  @Test
  void notFound_keptBriefly() {
    answer(404, NOT_FOUND);
    answer(200, KEK_JSON);
    DekRegistry deks = deks();

    assertThat(deks.kek("kek1", true)).isEmpty();
    ticker.advance(Duration.ofSeconds(4));
    assertThat(deks.kek("kek1", true)).isEmpty();
    assertThat(server.getRequestCount()).isEqualTo(1);

    ticker.advance(Duration.ofSeconds(2));
    assertThat(deks.kek("kek1", true)).contains(KEK);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void createKek_fillsTheCache() {
    answer(404, NOT_FOUND);
    answer(200, KEK_JSON);
    DekRegistry deks = deks();

    assertThat(deks.kek("kek1", false)).isEmpty();
    assertThat(deks.createKek(KEK)).isEqualTo(KEK);

    assertThat(deks.kek("kek1", false)).contains(KEK);
    assertThat(deks.kek("kek1", true)).contains(KEK);
    assertThat(server.getRequestCount()).isEqualTo(2);
  }

  @Test
  void createDek_fillsTheCache_andForgetsTheLatest() {
    answer(200, DEK1_JSON);
    answer(200, DEK2_JSON);
    answer(200, DEK2_JSON);
    DekRegistry deks = deks();

    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(DEK1);
    assertThat(deks.createDek("kek1", "orders-value", "AES256_GCM", 2, "BQYHCA==")).isEqualTo(DEK2);
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 2, false)).contains(DEK2);
    assertThat(server.getRequestCount()).as("version 2 is the one created").isEqualTo(2);

    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(DEK2);
    assertThat(server.getRequestCount()).isEqualTo(3);
  }

  @Test
  void dekRegistry_isOneInstance_andUnsupportedWhereTheWrappedClientHasNone() {
    CachingSchemaRegistryClient client = client(Duration.ofMinutes(1));
    assertThat(client.dekRegistry()).isSameAs(client.dekRegistry());

    SchemaRegistryClient without = (SchemaRegistryClient) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.isDefault()) {
            return java.lang.reflect.InvocationHandler.invokeDefault(proxy, method, args);
          }
          throw new UnsupportedOperationException(method.getName());
        });
    CachingSchemaRegistryClient caching = new CachingSchemaRegistryClient(without,
        CachePolicy.of(10, Duration.ofMinutes(1)), null, ticker, Runnable::run);
    assertThatThrownBy(caching::dekRegistry).isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("no DEK registry");
  }

  /** Two clients of one mock:// scope, each behind its own cache, see one DEK registry. */
  @Test
  void mockScope_sharedByClients() {
    String scope = "caching-dek-test-" + System.nanoTime();
    Map<String, Object> config = Map.of("schema.registry.url", "mock://" + scope);
    try (SchemaRegistryClient writer = SchemaRegistryClients.create(config);
        SchemaRegistryClient reader = SchemaRegistryClients.create(config)) {
      writer.dekRegistry().createKek(KEK);
      Dek created = writer.dekRegistry().createDek("kek1", "orders-value", "AES256_GCM", 1, "AQIDBA==");

      assertThat(reader.dekRegistry().kek("kek1", true)).contains(KEK);
      assertThat(reader.dekRegistry().dek("kek1", "orders-value", "AES256_GCM", 1, true)).contains(created);
    } finally {
      MockRegistries.drop(scope);
    }
  }
}
