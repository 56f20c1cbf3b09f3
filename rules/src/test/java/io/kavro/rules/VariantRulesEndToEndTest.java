package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51 item 5, through the serializer: a CEL rule over a record's Avro {@code variant} field (Confluent's
 * logical type: a record of {@code metadata} and {@code value} bytes) and over a JSON string, with Confluent's
 * variant functions. The payloads are built by hand from the variant binary spec.
 */
class VariantRulesEndToEndTest {
  private static final Schema DOC = new Schema.Parser().parse("""
      {"type":"record","name":"Doc","namespace":"com.acme","fields":[
        {"name":"payload","type":{"type":"record","name":"Variant","namespace":"confluent.type",
          "logicalType":"variant","fields":[{"name":"metadata","type":"bytes"},{"name":"value","type":"bytes"}]}},
        {"name":"json","type":"string"}]}""");
  /** Metadata of the keys "name" (id 0) and "tags" (id 1). */
  private static final String METADATA = "01 02 00 04 08 6e 61 6d 65 74 61 67 73";

  private final String scope = "variant-e2e-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private Map<String, Object> config() {
    return Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false,
        "use.latest.version", true);
  }

  private KafkaAvroSerializer serializer() {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config(), false);
    return serializer;
  }

  private void register(String topic, String expr, String onFailure) {
    register(topic, Rule.Kind.CONDITION, expr, onFailure);
  }

  private void register(String topic, Rule.Kind kind, String expr, String onFailure) {
    Rule rule = new Rule("aliceTagged", null, kind, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(), expr, null,
        onFailure, false);
    registry.register(topic + "-value", DOC, List.of(),
        new DataContract(Metadata.EMPTY, new RuleSet(List.of(), List.of(rule), List.of(), null)));
  }

  /**
   * {"name": name, "tags": ["a", "b"]}: object (1-byte ids and offsets), count 2, ids 0 1, offsets 0, 1 + the name's
   * length, then the end; the name a short string; the tags an array of two short strings.
   */
  private static GenericRecord doc(String name, String json) {
    byte[] text = name.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    StringBuilder value = new StringBuilder("02 02 00 01 00 ");
    value.append(String.format("%02x %02x ", 1 + text.length, 1 + text.length + 9));
    value.append(String.format("%02x ", text.length << 2 | 1));
    for (byte b : text) {
      value.append(String.format("%02x ", b));
    }
    value.append("03 02 00 02 04 05 61 05 62");
    GenericRecord payload = new GenericData.Record(DOC.getField("payload").schema());
    payload.put("metadata", ByteBuffer.wrap(HexFormat.ofDelimiter(" ").parseHex(METADATA)));
    payload.put("value", ByteBuffer.wrap(HexFormat.ofDelimiter(" ").parseHex(value.toString().trim())));
    GenericRecord doc = new GenericData.Record(DOC);
    doc.put("payload", payload);
    doc.put("json", json);
    return doc;
  }

  private static final String RULE = "variants.as(variants.path(variant(message.payload), '$.name'), 'string')"
      + " == 'alice' && variants.as(variants.path(variant(message.payload), '$.tags[1]'), 'string') == 'b'"
      + " && variants.path(variant(message.payload), '$.tags[2]') == null"
      + " && variants.as(variants.field(variants.parseJson(message.json), 'n'), 'int') > 0";

  @Test
  void aConditionOverAVariantField_passesAndFailsTheRecord_andTheRecordReadsBack() {
    register("docs", RULE, null);
    KafkaAvroSerializer serializer = serializer();
    GenericRecord alice = doc("alice", "{\"n\": 3}");

    byte[] written = serializer.serialize("docs", alice);

    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config(), false);
    GenericRecord read = (GenericRecord) deserializer.deserialize("docs", written);
    assertThat(((GenericRecord) read.get("payload")).get("value"))
        .isEqualTo(((GenericRecord) alice.get("payload")).get("value"));
    assertThatThrownBy(() -> serializer.serialize("docs", doc("bob", "{\"n\": 3}")))
        .isInstanceOf(SerializationException.class).hasMessageContaining("aliceTagged");
    assertThatThrownBy(() -> serializer.serialize("docs", doc("alice", "{\"n\": 0}")))
        .isInstanceOf(SerializationException.class).hasMessageContaining("aliceTagged");
  }

  @Test
  void aMalformedVariant_failsTheRecord_sayingWhatWasWrong_orGoesToOnFailure() {
    register("docs", RULE, null);
    register("lenient", RULE, "NONE");
    GenericRecord cut = doc("alice", "{\"n\": 3}");
    GenericRecord payload = (GenericRecord) cut.get("payload");
    ByteBuffer value = (ByteBuffer) payload.get("value");
    payload.put("value", ByteBuffer.wrap(java.util.Arrays.copyOf(value.array(), 9)));
    KafkaAvroSerializer serializer = serializer();

    assertThatThrownBy(() -> serializer.serialize("docs", cut)).isInstanceOf(SerializationException.class)
        .hasMessageContaining("aliceTagged").hasStackTraceContaining("malformed variant: its value is cut short")
        .satisfies(e -> assertThat(stackTrace(e)).doesNotContain("IndexOutOfBounds", "NullPointer"));

    assertThat(serializer.serialize("lenient", cut)).isNotEmpty();
  }

  /**
   * A CEL transform that returns a variant for the variant field writes its buffers, as Confluent's
   * {@code VariantConversion} does, and they are the spec's encoding of the JSON: keys in the dictionary in the order
   * first seen ("b" 0, "a" 1, 1-byte offsets), the object's fields in key order (ids 1 0), a = INT32 1 (header
   * 5 << 2), b = short string "x" (header 1 << 2 | 1).
   */
  @Test
  void aTransformReturningAVariant_writesTheVariantRecord() {
    register("shaped", Rule.Kind.TRANSFORM, "{'payload': variants.parseJson(message.json), 'json': message.json}",
        null);
    byte[] written = serializer().serialize("shaped", doc("zed", "{\"b\": \"x\", \"a\": 1}"));

    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config(), false);
    GenericRecord payload = (GenericRecord) ((GenericRecord) deserializer.deserialize("shaped", written))
        .get("payload");
    assertThat(payload.get("metadata")).isEqualTo(ByteBuffer.wrap(HexFormat.ofDelimiter(" ")
        .parseHex("01 02 00 01 02 62 61")));
    assertThat(payload.get("value")).isEqualTo(ByteBuffer.wrap(HexFormat.ofDelimiter(" ")
        .parseHex("02 02 01 00 00 05 07 14 01 00 00 00 05 78")));
  }

  private static String stackTrace(Throwable e) {
    java.io.StringWriter out = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }
}
