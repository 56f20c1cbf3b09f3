package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A {@code CEL_FIELD} {@code CONDITION} selecting fields by the tag {@code PII}, in Confluent's JavaScript client
 * (1.10.1, tests/js-peer, {@code peer.js serialize} with the subject's latest version and its rule set), on the
 * schema and rule of kavro-rules' {@code FieldSelectionEndToEndTest}, which runs them through Kavro's serde.
 *
 * <p>Where the two agree: a record whose tagged fields pass is written, byte for byte as Avro encodes it (Kavro's
 * bytes are checked against the same encoding); a tagged field that fails refuses the record, naming the rule. Where
 * they differ (docs/data-contracts.md, "Where Kavro differs from Confluent"): the JS client also refuses a record
 * whose untagged field holds a falsy value ({@code false}, {@code 0}, {@code ""}, {@code null}), which Kavro passes.
 * The rule written without tags and with a guard on them passes those in both. A pin canary, as
 * {@link JsCelRuleSerializeTest}: a JS release that changes this fails it, and the docs are to be read again.
 */
class JsCelFieldConditionTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOPIC = "orders";
  private static final String SCHEMA = """
      {"type":"record","name":"Order","namespace":"io.kavro.sel","fields":[
        {"name":"name","type":"string"},
        {"name":"email","type":"string","confluent:tags":["PII"]},
        {"name":"active","type":"boolean"},
        {"name":"count","type":"int"},
        {"name":"note","type":"string"},
        {"name":"nickname","type":["null","string"],"default":null},
        {"name":"address","type":{"type":"record","name":"Address","fields":[
          {"name":"city","type":"string"},{"name":"verified","type":"boolean"}]}}]}""";
  private static final String TAGGED = "size(value) > 0";
  private static final String GUARDED = "'PII' in tags ; size(value) > 0";

  private final MockWebServer server = new MockWebServer();
  private final List<String> unexpected = new CopyOnWriteArrayList<>();
  private volatile String expr;
  private volatile boolean byTag;
  private String url;

  /** The subject's latest version: {@link #SCHEMA}, {@code name} tagged PII by metadata, one WRITE condition. */
  private final class LatestWithRule extends Dispatcher {
    @Override
    public MockResponse dispatch(RecordedRequest request) {
      List<String> path = request.getUrl().pathSegments();
      if (request.getMethod().equals("GET") && path.equals(List.of("subjects", TOPIC + "-value", "versions",
          "latest"))) {
        ObjectNode version = JSON.createObjectNode().put("subject", TOPIC + "-value").put("version", 1)
            .put("id", 1).put("schema", SCHEMA);
        version.putObject("metadata").putObject("tags").putArray("**.name").add("PII");
        ObjectNode rule = version.putObject("ruleSet").putArray("domainRules").addObject().put("name", "checked")
            .put("kind", "CONDITION").put("mode", "WRITE").put("type", "CEL_FIELD").put("expr", expr)
            .put("onFailure", "ERROR");
        ArrayNode tags = rule.putArray("tags");
        if (byTag) {
          tags.add("PII");
        }
        return new MockResponse.Builder().setHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
            .body(version.toString()).build();
      }
      unexpected.add(request.getMethod() + " " + request.getTarget());
      return new MockResponse.Builder().code(404).setHeader("Content-Type", "application/vnd.schemaregistry.v1+json")
          .body("{\"error_code\":40401,\"message\":\"Subject not found\"}").build();
    }
  }

  @BeforeEach
  void start() throws Exception {
    server.setDispatcher(new LatestWithRule());
    server.start();
    url = server.url("/").toString();
    url = url.substring(0, url.length() - 1);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  /** An order whose every field is truthy, with {@code change} ({@code "field":value} pairs) over it. */
  private static ObjectNode order(String change) throws Exception {
    ObjectNode order = (ObjectNode) JSON.readTree("""
        {"name":"ann","email":"ann@example.com","active":true,"count":1,"note":"x","nickname":"n",
         "address":{"city":"Oslo","verified":true}}""");
    order.setAll((ObjectNode) JSON.readTree("{" + change + "}"));
    return order;
  }

  private JsPeer.Run serialize(JsPeer peer, boolean tagged, String rule, ObjectNode record) throws Exception {
    byTag = tagged;
    expr = rule;
    return peer.run("serialize", url, TOPIC, record.toString());
  }

  /** The Confluent framing under id 1 of {@code order}, encoded by Avro's own writer. */
  private static byte[] framed(ObjectNode order) throws Exception {
    Schema schema = new Schema.Parser().parse(SCHEMA);
    GenericRecord address = new GenericData.Record(schema.getField("address").schema());
    address.put("city", order.get("address").get("city").asText());
    address.put("verified", order.get("address").get("verified").asBoolean());
    GenericRecord record = new GenericData.Record(schema);
    for (String field : List.of("name", "email", "note")) {
      record.put(field, order.get(field).asText());
    }
    record.put("active", order.get("active").asBoolean());
    record.put("count", order.get("count").asInt());
    record.put("nickname", order.get("nickname").isNull() ? null : order.get("nickname").asText());
    record.put("address", address);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(new byte[] {0, 0, 0, 0, 1});
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    return out.toByteArray();
  }

  @Test
  void jsClient_conditionByTag_agreesWithKavroOnTheTaggedFields() throws Exception {
    JsPeer peer = JsPeer.require();

    ObjectNode passing = order("");
    JsPeer.Run written = serialize(peer, true, TAGGED, passing);
    assertThat(Base64.getDecoder().decode(written.line())).isEqualTo(framed(passing));

    for (String change : List.of("\"name\":\"\"", "\"email\":\"\"")) {
      JsPeer.Run refused = serialize(peer, true, TAGGED, order(change));
      assertThat(refused.exitCode()).as(change + ": " + refused).isEqualTo(1);
      assertThat(refused.stderr()).contains("rule checked failed");
    }
    assertThat(unexpected).as("calls the double does not answer").isEmpty();
  }

  @Test
  void jsClient_conditionByTag_refusesUntaggedFalsyValues_whichKavroPasses() throws Exception {
    JsPeer peer = JsPeer.require();

    for (String change : List.of("\"active\":false", "\"count\":0", "\"note\":\"\"", "\"nickname\":null",
        "\"address\":{\"city\":\"Oslo\",\"verified\":false}")) {
      JsPeer.Run refused = serialize(peer, true, TAGGED, order(change));
      assertThat(refused.exitCode()).as("the JS client on an untagged " + change + ": " + refused).isEqualTo(1);
      assertThat(refused.stderr()).contains("rule checked failed");
    }
    assertThat(unexpected).as("calls the double does not answer").isEmpty();
  }

  @Test
  void jsClient_conditionGuardedOnTags_passesUntaggedFalsyValues_asKavroDoes() throws Exception {
    JsPeer peer = JsPeer.require();

    ObjectNode falsy = order("\"active\":false,\"count\":0,\"note\":\"\"");
    JsPeer.Run written = serialize(peer, false, GUARDED, falsy);
    assertThat(Base64.getDecoder().decode(written.line())).isEqualTo(framed(falsy));

    JsPeer.Run refused = serialize(peer, false, GUARDED, order("\"name\":\"\""));
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
    assertThat(refused.stderr()).contains("rule checked failed");
    JsPeer.Run nullField = serialize(peer, false, GUARDED, order("\"nickname\":null"));
    assertThat(nullField.exitCode()).as("the JS client still fails a null field: " + nullField).isEqualTo(1);
    assertThat(unexpected).as("calls the double does not answer").isEmpty();
  }
}
