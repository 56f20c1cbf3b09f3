package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.IncompatibleSchemaException;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 49, item 11: a registry's refusal to register an incompatible schema, as Confluent's registry words it (its
 * details quote the old schema whole, so the text runs long), reaches the producer with Kavro's full reading of
 * Avro's reason, as the Maven plugin gives it: the field and both types; the registry's words are shortened after a
 * whole word, never within one.
 */
class IncompatibleSchemaMessageTest {
  private static final String SUBJECT = "orders-value";
  private static final String V1 = """
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},\
      {"name":"customerReference","type":"string"}]}""";
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"string"},\
      {"name":"customerReference","type":"string"}]}""");
  /** Confluent 7's answer to the registration of V2 under BACKWARD. */
  private static final String REFUSAL = "{\"error_code\":409,\"message\":\"Schema being registered is incompatible "
      + "with an earlier schema for subject \\\"orders-value\\\", details: [{errorType:'TYPE_MISMATCH', "
      + "description:'The type (path '/fields/0/type') of a field in the new schema does not match with the old "
      + "schema', additionalInfo:'reader type: STRING not compatible with writer type: LONG'}, "
      + "{oldSchemaVersion: 1}, {oldSchema: '" + V1.replace("\"", "\\\"") + "'}, "
      + "{validateFields: 'false', compatibility: 'BACKWARD'}]\"}";

  private final MockWebServer server = new MockWebServer();

  @BeforeEach
  void start() throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        String path = request.getTarget().replaceFirst("\\?.*", "");
        String call = request.getMethod() + " " + path;
        return switch (call) {
          case "POST /subjects/" + SUBJECT + "/versions" -> json(409, REFUSAL);
          case "GET /config/" + SUBJECT -> json(200, "{\"compatibilityLevel\":\"BACKWARD\"}");
          case "GET /subjects/" + SUBJECT + "/versions" -> json(200, "[1]");
          case "GET /subjects/" + SUBJECT + "/versions/1" -> json(200, "{\"subject\":\"" + SUBJECT
              + "\",\"version\":1,\"id\":1,\"schema\":\"" + V1.replace("\"", "\\\"") + "\"}");
          default -> json(404, "{\"error_code\":40401,\"message\":\"Subject not found\"}");
        };
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  @Test
  void serializer_incompatibleSchema_namesTheFieldAndBothTypes_wordsNeverCut() {
    GenericRecord order = new GenericData.Record(V2);
    order.put("id", "o-1");
    order.put("customerReference", "c-1");

    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", server.url("/").toString()), false);

      assertThatThrownBy(() -> serializer.serialize("orders", order))
          .isInstanceOf(SchemaRegistrationException.class)
          .hasMessageContaining("cannot serialize value of topic 'orders' under subject 'orders-value': the "
              + "registry rejected the schema as incompatible: BACKWARD: new schema cannot read version 1 (Order.id "
              + "is long in the writer's schema and string in the reader's)")
          .hasMessageContaining("the registry said: ")
          .hasMessageContaining("Schema being registered is incompatible")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContainPattern("\\w\\.\\.\\."))
          .cause().isInstanceOf(IncompatibleSchemaException.class)
          .satisfies(e -> assertThat(((IncompatibleSchemaException) e).reason()).startsWith("BACKWARD: new schema "
              + "cannot read version 1 (Order.id is long in the writer's schema and string in the reader's); the "
              + "registry said: Schema being registered is incompatible"));
    }
  }
}
