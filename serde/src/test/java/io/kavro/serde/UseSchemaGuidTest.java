package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.mock.MockRegistries;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Map;
import java.util.UUID;
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
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, item 3: {@code use.schema.guid}, with the semantics of Confluent's serializer
 * ({@code AbstractKafkaAvroSerializer.serializeImpl}): with {@code auto.register.schemas=false} and no
 * {@code use.schema.id}, every record is written with the schema of that GUID; the prefix carries the id the
 * subject has for it ({@code PrefixSchemaIdSerializer} writes {@code idToBytes()}), the header {@code 0x01} and the
 * GUID ({@code HeaderSchemaIdSerializer} writes {@code guidToBytes()}).
 */
class UseSchemaGuidTest {
  private static final Schema V1 = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
       {"name":"note","type":"string","default":""}]}""");
  private static final Schema UNRELATED = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"sku","type":"long"}]}""");

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord v2(long id, String note) {
    GenericRecord record = new GenericData.Record(V2);
    record.put("id", id);
    record.put("note", note);
    return record;
  }

  /** The Avro body of a V1 order, written by Avro itself. */
  private static byte[] v1Body(long id) throws Exception {
    GenericRecord record = new GenericData.Record(V1);
    record.put("id", id);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(V1).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  /** {@code 0x01} and the GUID's 16 bytes, spelled from its text: the hex digits in order, as Confluent's. */
  private static byte[] guidHeader(UUID guid) {
    return HexFormat.of().parseHex("01" + guid.toString().replace("-", ""));
  }

  /** V1 then V2 under orders-value; the registry's GUID of V1. */
  private UUID registerBoth() {
    SchemaRegistryClient registry = serdes.registry();
    int v1 = registry.register("orders-value", V1);
    registry.register("orders-value", V2);
    return MockRegistries.scope(serdes.scope).guidOf(v1);
  }

  @Test
  void prefix_carriesTheIdTheSubjectHasForTheGuidsSchema_andTheBodyIsWrittenWithIt() throws Exception {
    UUID guid = registerBoth();
    int v1 = serdes.registry().lookup("orders-value", V1).id();

    byte[] bytes = serdes.serializer("auto.register.schemas", false, "use.schema.guid", guid.toString())
        .serialize("orders", v2(7, "dropped"));

    byte[] body = v1Body(7);
    assertThat(bytes).isEqualTo(ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(v1).put(body).array());
    GenericRecord read = (GenericRecord) serdes.deserializer().deserialize("orders", bytes);
    assertThat(read.getSchema()).isEqualTo(V1);
    assertThat(read.get("id")).isEqualTo(7L);
  }

  @Test
  void header_carriesTheGuid_theBodyAlone_andIsReadBack() throws Exception {
    UUID guid = registerBoth();
    Headers headers = new RecordHeaders();

    byte[] bytes = serdes.serializer("auto.register.schemas", false, "use.schema.guid", guid.toString(),
        "value.schema.id.serializer", "HeaderSchemaIdSerializer").serialize("orders", headers, v2(7, "dropped"));

    assertThat(bytes).isEqualTo(v1Body(7));
    assertThat(headers.headers("__value_schema_id")).hasSize(1);
    assertThat(HexFormat.of().formatHex(headers.lastHeader("__value_schema_id").value()))
        .isEqualTo(HexFormat.of().formatHex(guidHeader(guid)));
    GenericRecord read = (GenericRecord) serdes.deserializer().deserialize("orders", headers, bytes);
    assertThat(read.getSchema()).isEqualTo(V1);
    assertThat(read.get("id")).isEqualTo(7L);
  }

  @Test
  void keys_theGuidGoesInTheKeyHeader() throws Exception {
    SchemaRegistryClient registry = serdes.registry();
    UUID guid = MockRegistries.scope(serdes.scope).guidOf(registry.register("orders-key", V1));
    Headers headers = new RecordHeaders();

    serdes.keySerializer("auto.register.schemas", false, "use.schema.guid", guid.toString(),
        "key.schema.id.serializer", "HeaderSchemaIdSerializer").serialize("orders", headers, v2(1, ""));

    assertThat(headers.lastHeader("__key_schema_id").value()).isEqualTo(guidHeader(guid));
    assertThat(headers.lastHeader("__value_schema_id")).isNull();
  }

  @Test
  void precedence_autoRegisterThenSchemaId_thenTheGuid_asConfluent() {
    UUID guid = registerBoth();
    int v2 = serdes.registry().lookup("orders-value", V2).id();

    byte[] registered = serdes.serializer("use.schema.guid", guid.toString()).serialize("orders", v2(1, "x"));
    assertThat(ByteBuffer.wrap(registered, 1, 4).getInt()).as("auto.register.schemas=true (default) first")
        .isEqualTo(v2);

    Headers headers = new RecordHeaders();
    serdes.serializer("auto.register.schemas", false, "use.schema.id", v2, "use.schema.guid", guid.toString(),
        "value.schema.id.serializer", "HeaderSchemaIdSerializer").serialize("orders", headers, v2(1, "x"));
    assertThat(headers.lastHeader("__value_schema_id").value()).as("use.schema.id before use.schema.guid")
        .isEqualTo(guidHeader(MockRegistries.scope(serdes.scope).guidOf(v2)));

    byte[] latest = serdes.serializer("auto.register.schemas", false, "use.latest.version", true,
        "use.schema.guid", guid.toString()).serialize("orders", v2(1, "x"));
    assertThat(ByteBuffer.wrap(latest, 1, 4).getInt()).as("use.schema.guid before use.latest.version")
        .isEqualTo(serdes.registry().lookup("orders-value", V1).id());
  }

  @Test
  void strict_refusesAGuidsSchemaThatCannotReadTheDatum_nonStrictWritesAsIs() {
    SchemaRegistryClient registry = serdes.registry();
    int unrelated = registry.register("orders-value", UNRELATED);
    UUID guid = MockRegistries.scope(serdes.scope).guidOf(unrelated);

    assertThatThrownBy(() -> serdes.serializer("auto.register.schemas", false, "use.schema.guid", guid.toString())
        .serialize("orders", v2(5, "x")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("use.schema.guid")
        .hasMessageContaining(guid.toString())
        .hasMessageContaining("id.compatibility.strict");

    byte[] bytes = serdes.serializer("auto.register.schemas", false, "use.schema.guid", guid.toString(),
        "id.compatibility.strict", false).serialize("orders", v2(5, "x"));
    assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(unrelated);
    // Confluent's non-strict path writes the datum with that schema as it is: here field by field position.
    GenericRecord read = (GenericRecord) serdes.deserializer().deserialize("orders", bytes);
    assertThat(read.get("sku")).isEqualTo(5L);
  }

  @Test
  void unknownGuid_andAGuidNotUnderTheSubject_clearErrors() {
    SchemaRegistryClient registry = serdes.registry();
    UUID elsewhere = MockRegistries.scope(serdes.scope).guidOf(registry.register("other-value", V1));
    UUID unknown = UUID.fromString("00000000-0000-0000-0000-00000000002a");

    assertThatThrownBy(() -> serdes.serializer("auto.register.schemas", false, "use.schema.guid", unknown.toString())
        .serialize("orders", v2(1, "")))
        .isInstanceOf(SerializationException.class)
        .isNotInstanceOf(RetriableException.class)
        .hasMessageContaining("value of topic 'orders'")
        .hasMessageContaining("no schema with GUID " + unknown + " (use.schema.guid)");

    assertThatThrownBy(() -> serdes.serializer("auto.register.schemas", false, "use.schema.guid",
        elsewhere.toString()).serialize("orders", v2(1, "")))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("under subject 'orders-value'")
        .hasMessageContaining("schema of GUID " + elsewhere + " (use.schema.guid) is not registered under this "
            + "subject");
  }

  @Test
  void theGuidsVersionsRules_runOnWrite() {
    Schema item = new Schema.Parser().parse("""
        {"type":"record","name":"Item","namespace":"com.acme","fields":[{"name":"s","type":"string"}]}""");
    io.kavro.registry.mock.MockRegistry registry = MockRegistries.scope(serdes.scope);
    int id = registry.register("items-value", item, java.util.List.of(), Contracts.domain(Contracts.rule("w",
        io.kavro.registry.contract.Rule.Kind.TRANSFORM, io.kavro.registry.contract.Rule.Mode.WRITE, "APPEND", "-w")));
    GenericRecord x = new GenericData.Record(item);
    x.put("s", "x");

    byte[] written = serdes.serializer("auto.register.schemas", false, "use.schema.guid",
        registry.guidOf(id).toString(), "rule.executors", "append", "rule.executors.append.class",
        RulesTest.Append.class.getName()).serialize("items", x);

    GenericRecord read = (GenericRecord) serdes.deserializer("rules.ignore", true).deserialize("items", written);
    assertThat(read.get("s")).hasToString("x-w");
  }

  @Test
  void notAGuid_configError() {
    assertThatThrownBy(() -> serdes.serializer("use.schema.guid", "42"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("use.schema.guid")
        .hasMessageContaining("must be a schema GUID");
    assertThat(new AvroSerdeConfig(serdes.config("use.schema.guid", " 550E8400-E29B-41D4-A716-446655440000 "), false)
        .useSchemaGuid()).isEqualTo(UUID.fromString("550e8400-e29b-41d4-a716-446655440000"));
    assertThat(new AvroSerdeConfig(serdes.config(), false).useSchemaGuid()).isNull();
  }

  /**
   * Once warm, a record costs no registry call and allocates its output alone: a datum of the GUID's own schema
   * (nothing to project) allocates the output array alone (24 bytes a record here), below 64.
   */
  @Test
  void warm_noRegistryCall_andTheOutputAloneIsAllocated() {
    UUID guid = registerBoth();
    Headers headers = new RecordHeaders();
    KafkaAvroSerializer byGuid = serdes.serializer("auto.register.schemas", false, "use.schema.guid",
        guid.toString());
    GenericRecord datum = new GenericData.Record(V1);
    datum.put("id", 3L);
    byGuid.serialize("orders", headers, datum);
    long requests = serdes.registryRequests();

    long bytes = Allocations.leastPerCall(() -> byGuid.serialize("orders", headers, datum), 20_000, 20, 1_000);

    assertThat(serdes.registryRequests()).as("registry calls once warm").isEqualTo(requests);
    assertThat(bytes).as("bytes allocated a record (the output is a 6-byte array)").isLessThan(64);
  }

  /**
   * A registry without GUIDs (Apicurio, Karapace, Confluent before 8: its own JSON 404 for the GUID path while its
   * core API answers): the record fails, not retriable, naming the setting and the registry; no id is written in
   * the GUID's place, in the prefix or the header.
   */
  @Test
  void registryWithoutGuids_clearError_namingTheSettingAndTheRegistry_nothingWritten() throws Exception {
    try (MockWebServer registry = new MockWebServer()) {
      registry.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          String path = request.getUrl().encodedPath();
          // Such a registry has no associations API either (the default subject name strategy asks it first):
          // the same JSON 404, so topic-value is the subject.
          if (path.startsWith("/schemas/guids/") || path.startsWith("/associations/resources/")) {
            return new MockResponse.Builder().code(404).setHeader("Content-Type", "application/json")
                .body("{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}").build();
          }
          if (path.equals("/config")) {
            return new MockResponse.Builder().setHeader("Content-Type", "application/json")
                .body("{\"compatibilityLevel\":\"BACKWARD\"}").build();
          }
          return new MockResponse.Builder().code(500).body("unexpected " + path).build();
        }
      });
      registry.start();
      String url = registry.url("/").toString();
      String base = url.substring(0, url.length() - 1);
      UUID guid = UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427");
      for (String idSerializer : new String[] {"PrefixSchemaIdSerializer", "HeaderSchemaIdSerializer"}) {
        Headers headers = new RecordHeaders();
        KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        serializer.configure(Map.of("schema.registry.url", base,
            "auto.register.schemas", false, "use.schema.guid", guid.toString(),
            "value.schema.id.serializer", idSerializer), false);

        assertThatThrownBy(() -> serializer.serialize("orders", headers, v2(1, "")))
            .as(idSerializer)
            .isInstanceOf(SerializationException.class)
            .isNotInstanceOf(RetriableException.class)
            .hasCauseInstanceOf(UnsupportedRegistryApiException.class)
            .hasMessageContaining("value of topic 'orders'")
            .hasMessageContaining("use.schema.guid=" + guid + " needs a registry with schema GUIDs")
            .hasMessageContaining("the registry at " + base + " has none");
        assertThat(headers.toArray()).as(idSerializer + ": no id header").isEmpty();
        serializer.close();
      }
    }
  }

  /**
   * A GUID-framed record read, and a {@code use.schema.guid} write, through something that answers the GUID path
   * with an empty 404 (a load balancer, a proxy in front of a Confluent registry whose core API answers): an outage,
   * Kafka's retriable family, never a non-retriable SerializationException that Connect's
   * {@code errors.tolerance=all} would skip; and not remembered as a missing API: the next record asks again.
   */
  @Test
  void proxysEmpty404_forTheGuid_retriable_notLearnedAsMissing() throws Exception {
    try (MockWebServer registry = new MockWebServer()) {
      java.util.concurrent.atomic.AtomicInteger guidCalls = new java.util.concurrent.atomic.AtomicInteger();
      registry.setDispatcher(new Dispatcher() {
        @Override
        public MockResponse dispatch(RecordedRequest request) {
          String path = request.getUrl().encodedPath();
          if (path.startsWith("/schemas/guids/")) {
            guidCalls.incrementAndGet();
            return new MockResponse.Builder().code(404).build();
          }
          if (path.startsWith("/associations/resources/")) {
            return new MockResponse.Builder().setHeader("Content-Type", "application/json").body("[]").build();
          }
          if (path.equals("/config")) {
            return new MockResponse.Builder().setHeader("Content-Type", "application/json")
                .body("{\"compatibilityLevel\":\"BACKWARD\"}").build();
          }
          return new MockResponse.Builder().code(500).body("unexpected " + path).build();
        }
      });
      registry.start();
      Map<String, Object> config = Map.of("schema.registry.url", registry.url("/").toString(), "max.retries", 1,
          "retries.wait.ms", 1, "retries.max.wait.ms", 5);
      UUID guid = UUID.fromString("1b4e28ba-2fa1-11d2-883f-0016d3cca427");
      byte[] guidFramed = ByteBuffer.allocate(WireFormat.GUID_HEADER_SIZE + 1).put(WireFormat.guidPrefix(guid))
          .put((byte) 0).array();
      try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
        deserializer.configure(config, false);
        for (int record = 1; record <= 2; record++) {
          assertThatThrownBy(() -> deserializer.deserialize("orders", guidFramed))
              .isInstanceOf(RetriableSerdeException.class)
              .hasRootCauseInstanceOf(io.kavro.registry.RegistryUnavailableException.class)
              .hasMessageContaining("HTTP 404");
          assertThat(guidCalls.get()).as("record " + record + " asks the GUID API").isGreaterThanOrEqualTo(record);
        }
      }

      int before = guidCalls.get();
      try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
        serializer.configure(Map.of("schema.registry.url", registry.url("/").toString(), "max.retries", 1,
            "retries.wait.ms", 1, "retries.max.wait.ms", 5, "auto.register.schemas", false,
            "use.schema.guid", guid.toString()), false);
        assertThatThrownBy(() -> serializer.serialize("orders", v2(1, "")))
            .isInstanceOf(RetriableException.class)
            .hasRootCauseInstanceOf(io.kavro.registry.RegistryUnavailableException.class);
        assertThatThrownBy(() -> serializer.serialize("orders", v2(2, "")))
            .as("not learned as missing").isInstanceOf(RetriableException.class);
      }
      assertThat(guidCalls.get()).as("each write asked the GUID API").isGreaterThanOrEqualTo(before + 2);
    }
  }
}
