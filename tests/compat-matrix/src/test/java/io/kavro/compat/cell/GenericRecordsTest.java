package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Generic records with every logical type both Avro lines have, with conversions off and on. */
class GenericRecordsTest {
  private static final Schema READING = new Schema.Parser().parse("""
      {"type":"record","name":"Reading","namespace":"com.example","fields":[
        {"name":"sensor","type":"string"},
        {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}},
        {"name":"day","type":{"type":"int","logicalType":"date"}},
        {"name":"clock","type":{"type":"int","logicalType":"time-millis"}},
        {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}},
        {"name":"atMicros","type":{"type":"long","logicalType":"timestamp-micros"}},
        {"name":"local","type":{"type":"long","logicalType":"local-timestamp-millis"}},
        {"name":"id","type":{"type":"string","logicalType":"uuid"}},
        {"name":"note","type":["null","string"],"default":null},
        {"name":"samples","type":{"type":"array","items":"double"}},
        {"name":"labels","type":{"type":"map","values":"long"}}]}""");

  @ParameterizedTest(name = "avro.use.logical.type.converters={0}")
  @ValueSource(booleans = {false, true})
  void roundTrip(boolean conversions) {
    GenericRecord reading = new GenericData.Record(READING);
    reading.put("sensor", "s-1");
    reading.put("note", null);
    reading.put("samples", List.of(1.5, -2.0));
    reading.put("labels", Map.of("a", 1L));
    Instant at = Instant.parse("2026-12-01T10:15:30.123Z");
    if (conversions) {
      reading.put("amount", new BigDecimal("1234.56"));
      reading.put("day", LocalDate.of(2026, 12, 1));
      reading.put("clock", LocalTime.of(10, 15, 30, 123_000_000));
      reading.put("at", at);
      reading.put("atMicros", at.plus(456, ChronoUnit.MICROS));
      reading.put("local", LocalDateTime.of(2026, 12, 1, 10, 15, 30, 123_000_000));
      reading.put("id", UUID.fromString("5f3e1a2b-0c4d-4e5f-8a9b-0c1d2e3f4a5b"));
    } else {
      reading.put("amount", ByteBuffer.wrap(new BigDecimal("1234.56").unscaledValue().toByteArray()));
      reading.put("day", 20423);
      reading.put("clock", 36_930_123);
      reading.put("at", at.toEpochMilli());
      reading.put("atMicros", at.toEpochMilli() * 1000 + 456);
      reading.put("local", at.toEpochMilli());
      reading.put("id", "5f3e1a2b-0c4d-4e5f-8a9b-0c1d2e3f4a5b");
    }
    var config = Cell.config("generic-" + conversions, "avro.use.logical.type.converters", conversions);
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      serializer.configure(config, false);
      deserializer.configure(config, false);

      byte[] payload = serializer.serialize("readings", reading);
      GenericRecord read = (GenericRecord) deserializer.deserialize("readings", payload);

      assertThat(payload[0]).isZero();
      assertThat(read.toString()).isEqualTo(reading.toString());
      if (conversions) {
        assertThat(read.get("amount")).isEqualTo(new BigDecimal("1234.56"));
        assertThat(read.get("at")).isEqualTo(at);
        assertThat(read.get("id")).isEqualTo(UUID.fromString("5f3e1a2b-0c4d-4e5f-8a9b-0c1d2e3f4a5b"));
      }
    }
  }
}
