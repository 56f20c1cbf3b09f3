package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import mockwebserver3.MockWebServer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, item 3: Kavro's serializer with {@code use.schema.guid} writes the same bytes, and the same
 * {@code __value_schema_id} header, as Confluent's JavaScript client (tests/js-peer) writes for the same record with
 * the same schema against the same Confluent 8 registry; and each reads the other's. The JavaScript client (1.10.1)
 * has no {@code useSchemaGuid}: it writes with the subject's latest version, whose GUID Kavro is given. Its
 * {@code PrefixSchemaIdSerializer} writes {@code 0x00} and the id, its {@code HeaderSchemaIdSerializer} {@code 0x01}
 * and the GUID, as Confluent's Java serializer does.
 */
class UseSchemaGuidJsPeerTest {
  private static final Schema V1 = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"io.kavro.peer","fields":[{"name":"name","type":"string"}]}""");
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"io.kavro.peer","fields":[{"name":"name","type":"string"},
       {"name":"age","type":"int","default":0}]}""");
  private static final String TOPIC = "users";
  private static final String RECORD = "{\"name\":\"alice\",\"age\":30}";
  /** Not derived from the schema: a registry's random GUID, with every byte distinct so that order shows. */
  private static final UUID GUID = UUID.fromString("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0");

  private final MockWebServer server = new MockWebServer();
  private GuidRegistryDouble registry;
  private String url;

  @BeforeEach
  void start() throws Exception {
    registry = new GuidRegistryDouble(TOPIC + "-value", List.of(
        new GuidRegistryDouble.Version(1, 7, UUID.fromString("aaaaaaaa-0000-4000-8000-000000000007"), V1),
        new GuidRegistryDouble.Version(2, 8, GUID, V2)));
    server.setDispatcher(registry);
    server.start();
    url = server.url("/").toString();
    url = url.substring(0, url.length() - 1);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private KafkaAvroSerializer kavro(String idSerializer) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", url, "auto.register.schemas", false,
        "use.schema.guid", GUID.toString(), "value.schema.id.serializer", idSerializer), false);
    return serializer;
  }

  private KafkaAvroDeserializer kavroReader() {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(new HashMap<>(Map.of("schema.registry.url", url)), false);
    return deserializer;
  }

  private static GenericRecord alice() {
    GenericRecord record = new GenericData.Record(V2);
    record.put("name", "alice");
    record.put("age", 30);
    return record;
  }

  private static void assertAlice(Object read) {
    GenericRecord record = (GenericRecord) read;
    assertThat(record.get("name")).hasToString("alice");
    assertThat(record.get("age")).isEqualTo(30);
  }

  @Test
  void prefix_sameBytesAsConfluentsJsClient_andEachReadsTheOthers() throws Exception {
    JsPeer peer = JsPeer.require();
    byte[] js = Base64.getDecoder().decode(peer.run("serialize", url, TOPIC, RECORD).line());

    byte[] ours;
    try (KafkaAvroSerializer serializer = kavro("PrefixSchemaIdSerializer")) {
      ours = serializer.serialize(TOPIC, new RecordHeaders(), alice());
    }

    assertThat(HexFormat.of().formatHex(ours)).as("the JavaScript client's bytes")
        .isEqualTo(HexFormat.of().formatHex(js)).as("the id of the GUID's schema, 8, in the prefix")
        .startsWith("0000000008");
    try (KafkaAvroDeserializer deserializer = kavroReader()) {
      assertAlice(deserializer.deserialize(TOPIC, js));
    }
    assertThat(peer.run("deserialize", url, TOPIC, Base64.getEncoder().encodeToString(ours)).line())
        .isEqualTo(RECORD);
    assertThat(registry.unexpected).isEmpty();
  }

  @Test
  void header_sameBodyAndHeaderAsConfluentsJsClient_andEachReadsTheOthers() throws Exception {
    JsPeer peer = JsPeer.require();
    String[] written = peer.run("serialize", url, TOPIC, RECORD, "--id-in-header").line().split(" ");
    byte[] jsBody = Base64.getDecoder().decode(written[0]);
    byte[] jsHeader = Base64.getDecoder().decode(written[1]);

    Headers headers = new RecordHeaders();
    byte[] ours;
    try (KafkaAvroSerializer serializer = kavro("HeaderSchemaIdSerializer")) {
      ours = serializer.serialize(TOPIC, headers, alice());
    }
    byte[] ourHeader = headers.lastHeader("__value_schema_id").value();

    assertThat(HexFormat.of().formatHex(ourHeader)).as("the JavaScript client's header")
        .isEqualTo(HexFormat.of().formatHex(jsHeader)).as("0x01 and the GUID, as its text spells it")
        .isEqualTo("010f1e2d3c4b5a69788796a5b4c3d2e1f0");
    assertThat(HexFormat.of().formatHex(ours)).isEqualTo(HexFormat.of().formatHex(jsBody));
    assertThat(headers.toArray()).hasSize(1);
    try (KafkaAvroDeserializer deserializer = kavroReader()) {
      assertAlice(deserializer.deserialize(TOPIC, new RecordHeaders().add("__value_schema_id", jsHeader), jsBody));
    }
    assertThat(peer.run("deserialize", url, TOPIC, Base64.getEncoder().encodeToString(ours), "--header",
        Base64.getEncoder().encodeToString(ourHeader)).line()).isEqualTo(RECORD);
    assertThat(registry.unexpected).isEmpty();
  }
}
