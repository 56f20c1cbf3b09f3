package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The serializer's output against bytes written by hand from the Avro spec: the 5-byte header (schema id 1
 * in a fresh registry), zig-zag varints, little-endian floats, length-prefixed strings and bytes, union
 * indexes, blocks for arrays and maps.
 */
class GoldenBytesTest {
  private static final String HEADER = "0000000001";
  private final Serdes serdes = Serdes.withLogicalTypeConverters();
  private final KafkaAvroSerializer serializer = serdes.serializer();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static Schema schema(String json) {
    return new Schema.Parser().parse(json);
  }

  private static GenericRecord record(String fieldsJson, Object... values) {
    Schema schema = schema("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"t\",\"fields\":[" + fieldsJson + "]}");
    GenericRecord record = new GenericData.Record(schema);
    for (int i = 0; i < values.length; i++) {
      record.put(i, values[i]);
    }
    return record;
  }

  @Test
  void string() {
    assertThat(hex(serializer.serialize("t", "hi"))).isEqualTo(HEADER + "04" + "6869");
  }

  @Test
  void utf8String_multibyte() {
    // "é" is two UTF-8 bytes: c3 a9.
    assertThat(hex(serializer.serialize("t", new org.apache.avro.util.Utf8("é")))).isEqualTo(HEADER + "04c3a9");
  }

  @Test
  void int_zigZag() {
    assertThat(hex(serializer.serialize("t", 1))).isEqualTo(HEADER + "02");
    assertThat(hex(serializer.serialize("t", -1))).isEqualTo(HEADER + "01");
    assertThat(hex(serializer.serialize("t", 64))).isEqualTo(HEADER + "8001");
  }

  @Test
  void long_varint() {
    assertThat(hex(serializer.serialize("t", 300L))).isEqualTo(HEADER + "d804");
  }

  @Test
  void boolean_float_double() {
    assertThat(hex(serializer.serialize("a", true))).isEqualTo(HEADER + "01");
    assertThat(hex(serializer.serialize("b", 1.0f))).isEqualTo("0000000002" + "0000803f");
    assertThat(hex(serializer.serialize("c", 1.0d))).isEqualTo("0000000003" + "000000000000f03f");
  }

  @Test
  void bytes_arrayAndBufferRespectingPositionAndLimit() {
    assertThat(hex(serializer.serialize("t", new byte[] {1, 2, 3}))).isEqualTo(HEADER + "06010203");
    ByteBuffer window = ByteBuffer.wrap(new byte[] {9, 1, 2, 3, 9}, 1, 3);
    assertThat(hex(serializer.serialize("t", window))).isEqualTo(HEADER + "06010203");
    assertThat(window.position()).isEqualTo(1);
    ByteBuffer direct = ByteBuffer.allocateDirect(3).put(new byte[] {1, 2, 3}).flip();
    assertThat(hex(serializer.serialize("t", direct))).isEqualTo(HEADER + "06010203");
  }

  @Test
  void unionBranches() {
    String field = "{\"name\":\"a\",\"type\":[\"null\",\"string\"]}";
    assertThat(hex(serializer.serialize("t", record(field, (Object) null)))).isEqualTo(HEADER + "00");
    assertThat(hex(serializer.serialize("t", record(field, "x")))).isEqualTo(HEADER + "020278");
  }

  @Test
  void enumSymbol() {
    Schema schema = schema("{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\",\"C\"]}");
    assertThat(hex(serializer.serialize("t", new GenericData.EnumSymbol(schema, "C")))).isEqualTo(HEADER + "04");
  }

  @Test
  void fixed() {
    Schema schema = schema("{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}");
    assertThat(hex(serializer.serialize("t", new GenericData.Fixed(schema, new byte[] {7, 8, 9}))))
        .isEqualTo(HEADER + "070809");
  }

  @Test
  void array() {
    Schema schema = schema("{\"type\":\"array\",\"items\":\"int\"}");
    assertThat(hex(serializer.serialize("t", new GenericData.Array<>(schema, List.of(1, 2)))))
        .isEqualTo(HEADER + "04" + "0204" + "00");
  }

  @Test
  void map() {
    GenericRecord record = record("{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"int\"}}", Map.of("k", 1));
    assertThat(hex(serializer.serialize("t", record))).isEqualTo(HEADER + "02" + "026b" + "02" + "00");
  }

  @Test
  void nestedRecord() {
    Schema inner = schema("{\"type\":\"record\",\"name\":\"I\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}");
    GenericRecord innerRecord = new GenericData.Record(inner);
    innerRecord.put("x", 5);
    GenericRecord outer = record("{\"name\":\"inner\",\"type\":" + inner + "},{\"name\":\"s\",\"type\":\"string\"}",
        innerRecord, "ab");
    assertThat(hex(serializer.serialize("t", outer))).isEqualTo(HEADER + "0a" + "046162");
  }

  @Test
  void logicalTypes() {
    GenericRecord record = record("""
        {"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":6,"scale":2}},
        {"name":"day","type":{"type":"int","logicalType":"date"}},
        {"name":"ts","type":{"type":"long","logicalType":"timestamp-millis"}},
        {"name":"id","type":{"type":"string","logicalType":"uuid"}}""",
        new BigDecimal("12.34"), LocalDate.ofEpochDay(10), Instant.ofEpochMilli(1000),
        UUID.fromString("00000000-0000-0000-0000-000000000001"));

    assertThat(hex(serializer.serialize("t", record))).isEqualTo(HEADER
        + "04" + "04d2"
        + "14"
        + "d00f"
        + "48" + hex("00000000-0000-0000-0000-000000000001".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
  }

  @Test
  void sameSchemaInstance_sameIdEveryRecord() {
    byte[] first = serializer.serialize("t", "a");
    byte[] second = serializer.serialize("t", "b");

    assertThat(hex(first).substring(0, 10)).isEqualTo(hex(second).substring(0, 10));
  }

  @Test
  void nullDatum_tombstoneWithoutRegistryCall() {
    long before = serdes.registryRequests();

    assertThat(serializer.serialize("t", null)).isNull();
    assertThat(serdes.registryRequests()).isEqualTo(before);
  }
}
