package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What Kavro's reading of a refused schema costs the registry: a non-transitive level judges only the latest
 * version, so only the latest is fetched, however many versions the subject has; a transitive level judges every
 * one, so every one is fetched. Three versions, each of {@code id} in another type: the reading names the version
 * it was judged against.
 */
class RefusedSchemaReadingRequestsTest {
  private static final String SUBJECT = "orders-value";
  private static final Schema CANDIDATE = order("string");

  private final MockWebServer server = new MockWebServer();
  private final List<String> calls = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    server.close();
  }

  private static Schema order(String idType) {
    return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"com.acme\","
        + "\"fields\":[{\"name\":\"id\",\"type\":\"" + idType + "\"}]}");
  }

  /** A registry whose subject has versions 1 (id long), 2 (id string) and 3 (id int), at {@code level}. */
  private void start(String level) throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String call = request.getMethod() + " " + request.getTarget().replaceFirst("\\?.*", "");
        calls.add(call);
        return switch (call) {
          case "POST /subjects/" + SUBJECT + "/versions" -> json(409, "{\"error_code\":409,\"message\":\"Schema "
              + "being registered is incompatible with an earlier schema for subject \\\"" + SUBJECT + "\\\"\"}");
          case "GET /config/" + SUBJECT -> json(200, "{\"compatibilityLevel\":\"" + level + "\"}");
          case "GET /subjects/" + SUBJECT + "/versions" -> json(200, "[1,2,3]");
          case "GET /subjects/" + SUBJECT + "/versions/1" -> version(1, order("long"));
          case "GET /subjects/" + SUBJECT + "/versions/2" -> version(2, order("string"));
          case "GET /subjects/" + SUBJECT + "/versions/3" -> version(3, order("int"));
          default -> json(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        };
      }
    });
    server.start();
  }

  private static MockResponse version(int version, Schema schema) {
    return json(200, "{\"subject\":\"" + SUBJECT + "\",\"version\":" + version + ",\"id\":" + version
        + ",\"schema\":\"" + schema.toString().replace("\"", "\\\"") + "\"}");
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  /** Serializes a record of {@link #CANDIDATE} and returns the refusal's message. */
  private String refusal() {
    GenericRecord order = new GenericData.Record(CANDIDATE);
    order.put("id", "o-1");
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", server.url("/").toString()), false);
      Throwable thrown = catchThrowable(() -> serializer.serialize("orders", order));
      assertThat(thrown).isInstanceOf(SchemaRegistrationException.class);
      return thrown.getMessage();
    }
  }

  /**
   * The reading's requests: the GETs (the serializer's own are POSTs: the registration, and its lookup; and the
   * default strategy's lookup of the topic's association, before them).
   */
  private List<String> reads() {
    assertThat(calls).contains("POST /subjects/" + SUBJECT + "/versions");
    assertThat(calls.get(0)).isEqualTo("GET /associations/resources/-/orders");
    return calls.stream().filter(call -> call.startsWith("GET ") && !call.startsWith("GET /associations/"))
        .toList();
  }

  @Test
  void refusedAtBackward_fetchesOnlyTheLatestVersion() throws Exception {
    start("BACKWARD");

    assertThat(refusal()).contains("BACKWARD: new schema cannot read version 3 (Order.id is int in the writer's "
        + "schema and string in the reader's)");

    assertThat(reads()).containsExactly("GET /config/orders-value", "GET /subjects/orders-value/versions",
        "GET /subjects/orders-value/versions/3");
  }

  @Test
  void refusedAtBackwardTransitive_fetchesEveryVersion() throws Exception {
    start("BACKWARD_TRANSITIVE");

    assertThat(refusal()).contains("BACKWARD_TRANSITIVE: new schema cannot read version 1 (Order.id is long in the "
        + "writer's schema and string in the reader's)");

    assertThat(reads()).containsExactly("GET /config/orders-value", "GET /subjects/orders-value/versions",
        "GET /subjects/orders-value/versions/1", "GET /subjects/orders-value/versions/2",
        "GET /subjects/orders-value/versions/3");
  }

  @Test
  void refusedAtNone_fetchesNoVersion() throws Exception {
    start("NONE");

    assertThat(refusal()).contains("Schema being registered is incompatible");

    assertThat(reads()).containsExactly("GET /config/orders-value");
  }
}
