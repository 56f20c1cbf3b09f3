package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 51, after its first stop: each topic's schema context in the deserializer. With the default strategy it
 * comes from the topic's association: kept in {@code schema.cache.dir} for a consumer restarted while the registry
 * is down.
 */
class TopicContextsTest {
  private static final Schema USER = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"com.acme","fields":[{"name":"name","type":"string"}]}""");
  private static final Schema PAGE = new Schema.Parser().parse("""
      {"type":"record","name":"Page","namespace":"com.acme","fields":[{"name":"title","type":"string"}]}""");
  /** Schema id {@code id} and the string "ada": a User or a Page, as the id's schema says. */
  private static byte[] ada(int id) {
    return new byte[] {0, 0, 0, 0, (byte) id, 6, 'a', 'd', 'a'};
  }

  @TempDir
  Path cacheDir;

  private final MockWebServer server = new MockWebServer();
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private volatile boolean down;
  private final Serdes serdes = new Serdes();
  private DeserializerEngine engine;

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
    serdes.close();
    server.close();
  }

  /**
   * A registry where topic {@code orders} is associated with {@code :.a:orders-value}, and id 5 is USER in context
   * {@code .a} and PAGE in the default context; while {@link #down}, every call answers 503.
   */
  private void registry() throws Exception {
    String user = com.fasterxml.jackson.databind.node.TextNode.valueOf(USER.toString()).toString();
    String page = com.fasterxml.jackson.databind.node.TextNode.valueOf(PAGE.toString()).toString();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        calls.add(request.getTarget());
        if (down) {
          return json(503, "{\"error_code\":50301,\"message\":\"down\"}");
        }
        String path = request.getUrl().encodedPath();
        if (path.equals("/associations/resources/-/orders")) {
          return json(200, "[{\"subject\":\":.a:orders-value\",\"resourceName\":\"orders\",\"resourceNamespace\":"
              + "\"-\",\"resourceType\":\"topic\",\"associationType\":\"value\"}]");
        }
        if (path.startsWith("/associations/")) {
          return json(200, "[]");
        }
        if (path.equals("/schemas/ids/5")) {
          return json(200, "{\"schema\":" + (":.a:".equals(request.getUrl().queryParameter("subject")) ? user : page)
              + "}");
        }
        return json(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
      }
    });
    server.start();
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  /**
   * The first thing left open by issue 51's first stop: with the default strategy, a consumer restarted while the
   * registry is down asked the registry for its topic's association first, and failed (retriably) until it answered,
   * though {@code schema.cache.dir} held every id it needed. Now the association's last answer is kept there too.
   * Id 5 is two schemas (USER in {@code .a}, PAGE in the default context), both on disk: the record of {@code orders}
   * must be read in {@code .a}, never as the default context's id 5.
   */
  @Test
  void consumerRestartedDuringOutage_readsTheTopicsContextFromTheDiskCache() throws Exception {
    registry();
    Map<String, Object> config = Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0,
        "schema.cache.dir", cacheDir.toString());
    try (KafkaAvroDeserializer first = new KafkaAvroDeserializer()) {
      first.configure(config, false);
      assertThat(first.deserialize("orders", ada(5))).hasToString("{\"name\": \"ada\"}");
      assertThat(first.deserialize("plain", ada(5))).hasToString("{\"title\": \"ada\"}");
    }
    assertThat(calls).contains("/schemas/ids/5?subject=%3A.a%3A");

    down = true;
    try (KafkaAvroDeserializer restarted = new KafkaAvroDeserializer()) {
      restarted.configure(config, false);
      Object read = restarted.deserialize("orders", ada(5));
      assertThat(((GenericRecord) read).getSchema()).as("id 5 of context .a, not the default one's").isEqualTo(USER);
      assertThat(restarted.deserialize("plain", ada(5))).hasToString("{\"title\": \"ada\"}");
      // A topic whose association was never answered: the outage, retriable, as before.
      assertThatThrownBy(() -> restarted.deserialize("other", ada(5))).isInstanceOf(RetriableException.class);
    }

    try (KafkaAvroDeserializer withoutCache = new KafkaAvroDeserializer()) {
      withoutCache.configure(Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0), false);
      assertThatThrownBy(() -> withoutCache.deserialize("orders", ada(5))).as("no disk cache: the outage")
          .isInstanceOf(RetriableException.class);
    }
  }
}
