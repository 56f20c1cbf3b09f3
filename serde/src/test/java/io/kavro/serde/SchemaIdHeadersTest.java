package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Confluent 8's schema ids in record headers and GUID prefixes. The formats are Confluent's
 * ({@code io.confluent.kafka.serializers.schema.id.SchemaId}): a header {@code __key_schema_id} /
 * {@code __value_schema_id} whose value is {@code [0x00][int32 id]} or {@code [0x01][16-byte GUID, most
 * significant half first]}, with the Avro body alone in the payload; or a payload prefixed with either.
 */
class SchemaIdHeadersTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord order(long id) {
    GenericRecord record = new GenericData.Record(ORDER);
    record.put("id", id);
    return record;
  }

  /** The Avro body of {@code order(id)}: the zig-zag varint of the long. */
  private static byte[] body(long id) {
    try {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      org.apache.avro.io.BinaryEncoder encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
      new org.apache.avro.generic.GenericDatumWriter<GenericRecord>(ORDER).write(order(id), encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void goldenBytes_ofConfluentsFormats() {
    UUID guid = UUID.fromString("550e8400-e29b-41d4-a716-446655440000");
    assertThat(HexFormat.of().formatHex(WireFormat.guidPrefix(guid)))
        .isEqualTo("01550e8400e29b41d4a716446655440000");
    assertThat(HexFormat.of().formatHex(WireFormat.idPrefix(258))).isEqualTo("0000000102");
    assertThat(WireFormat.guid(WireFormat.guidPrefix(guid), 0, WireFormat.GUID_HEADER_SIZE)).isEqualTo(guid);
    assertThat(HexFormat.of().formatHex(body(1))).isEqualTo("02");
  }

  @Test
  void headerSerializer_writesTheBodyAlone_andTheGuidInTheValueHeader() {
    Headers headers = new RecordHeaders();
    byte[] payload = serdes.serializer("value.schema.id.serializer", "HeaderSchemaIdSerializer")
        .serialize("orders", headers, order(1));

    int id = serdes.registry().lookup("orders-value", ORDER).id();
    UUID guid = MockRegistries.scope(serdes.scope).guidOf(id);
    assertThat(payload).isEqualTo(body(1));
    assertThat(headers.lastHeader("__value_schema_id").value()).isEqualTo(WireFormat.guidPrefix(guid));
    assertThat(headers.lastHeader("__key_schema_id")).isNull();

    Headers keyHeaders = new RecordHeaders();
    serdes.keySerializer("key.schema.id.serializer",
        "io.confluent.kafka.serializers.schema.id.HeaderSchemaIdSerializer").serialize("orders", keyHeaders, order(2));
    assertThat(keyHeaders.lastHeader("__key_schema_id")).isNotNull();
  }

  @Test
  void headerSerializer_sameHeaderTwice_isNotAddedAgain_asConfluentDoes() {
    KafkaAvroSerializer serializer = serdes.serializer("value.schema.id.serializer", "HeaderSchemaIdSerializer");
    Headers headers = new RecordHeaders();

    serializer.serialize("orders", headers, order(1));
    serializer.serialize("orders", headers, order(1));

    assertThat(headers.headers("__value_schema_id")).hasSize(1);
  }

  @Test
  void dualDeserializer_readsPrefixHeaderAndGuidPrefix_alike() {
    KafkaAvroDeserializer deserializer = serdes.deserializer();
    byte[] prefixed = serdes.serializer().serialize("orders", order(1));
    int id = WireFormat.schemaId(ByteBuffer.wrap(prefixed));
    UUID guid = MockRegistries.scope(serdes.scope).guidOf(id);

    Headers guidHeader = new RecordHeaders().add("__value_schema_id", WireFormat.guidPrefix(guid));
    Headers idHeader = new RecordHeaders().add("__value_schema_id", WireFormat.idPrefix(id));
    byte[] guidFramed = ByteBuffer.allocate(17 + body(4).length).put(WireFormat.guidPrefix(guid)).put(body(4))
        .array();

    assertThat(deserializer.deserialize("orders", new RecordHeaders(), prefixed)).isEqualTo(order(1));
    assertThat(deserializer.deserialize("orders", guidHeader, body(2))).isEqualTo(order(2));
    assertThat(deserializer.deserialize("orders", idHeader, body(3))).isEqualTo(order(3));
    assertThat(deserializer.deserialize("orders", guidFramed)).isEqualTo(order(4));
    assertThat(deserializer.deserialize("orders", guidHeader, ByteBuffer.wrap(body(5)))).isEqualTo(order(5));
  }

  @Test
  void keyHeader_isReadForKeys_valueHeaderForValues() {
    byte[] prefixed = serdes.serializer().serialize("orders", order(1));
    int id = WireFormat.schemaId(ByteBuffer.wrap(prefixed));
    Headers valueOnly = new RecordHeaders().add("__value_schema_id", WireFormat.idPrefix(id));

    KafkaAvroDeserializer keys = new KafkaAvroDeserializer();
    keys.configure(serdes.config(), true);
    // A key deserializer ignores the value's header and reads the key's own prefix.
    assertThat(keys.deserialize("orders", valueOnly, prefixed)).isEqualTo(order(1));
  }

  @Test
  void prefixDeserializer_ignoresHeaders() {
    byte[] prefixed = serdes.serializer().serialize("orders", order(1));
    int id = WireFormat.schemaId(ByteBuffer.wrap(prefixed));
    Headers idHeader = new RecordHeaders().add("__value_schema_id", WireFormat.idPrefix(id));
    KafkaAvroDeserializer prefixOnly = serdes.deserializer("value.schema.id.deserializer",
        "io.confluent.kafka.serializers.schema.id.PrefixSchemaIdDeserializer");

    assertThat(prefixOnly.deserialize("orders", idHeader, prefixed)).isEqualTo(order(1));
    // The body alone (6 bytes, from a varint with its continuation bit set) is no prefixed payload.
    assertThatThrownBy(() -> prefixOnly.deserialize("orders", idHeader, body(123_456_789_012L)))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("unknown magic byte 0x");
  }

  @Test
  void badHeaderValue_unknownGuid_missingHeaders_clearErrors() {
    KafkaAvroDeserializer deserializer = serdes.deserializer();
    Headers bad = new RecordHeaders().add("__value_schema_id", new byte[] {7, 1});
    assertThatThrownBy(() -> deserializer.deserialize("orders", bad, body(1)))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("__value_schema_id header holds 2 byte(s) starting 0x07");

    UUID unknown = UUID.randomUUID();
    Headers unknownGuid = new RecordHeaders().add("__value_schema_id", WireFormat.guidPrefix(unknown));
    assertThatThrownBy(() -> deserializer.deserialize("orders", unknownGuid, body(1)))
        .isInstanceOf(UnknownSchemaIdException.class).hasMessageContaining(unknown.toString());

    byte[] shortGuid = {1, 2, 3};
    assertThatThrownBy(() -> deserializer.deserialize("orders", shortGuid))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("GUID header");

    assertThatThrownBy(() -> serdes.serializer("value.schema.id.serializer", "HeaderSchemaIdSerializer")
        .serialize("orders", order(1)))
        .isInstanceOf(SerializationException.class).hasMessageContaining("serialize(topic, headers, data)");
  }

  @Test
  void unknownIdSerializer_configError() {
    assertThatThrownBy(() -> serdes.serializer("value.schema.id.serializer", "GuidPrefix"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("HeaderSchemaIdSerializer");
    assertThatThrownBy(() -> serdes.deserializer("value.schema.id.deserializer",
        "io.confluent.kafka.serializers.schema.id.ConfigSchemaIdDeserializer"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("DualSchemaIdDeserializer");
  }
}
