package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.LocalDate;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.reflect.AvroSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Plain Java classes and records, with schemas derived by reflection. */
class ReflectionTest {
  private final Serdes serdes = new Serdes();

  /** A Java record. */
  public record Point(int x, int y, String label) {}

  /** A plain class with a no-arg constructor. */
  public static class Pojo {
    public String name;
    public long count;
    public List<String> tags;

    public Pojo() {}

    Pojo(String name, long count, List<String> tags) {
      this.name = name;
      this.count = count;
      this.tags = tags;
    }
  }

  /** A plain class whose fields carry logical types but hold the underlying values, beside a Java type's. */
  public static class Ledger {
    @AvroSchema("{\"type\":\"int\",\"logicalType\":\"date\"}")
    public int birthday;
    @AvroSchema("{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}")
    public long placedAt;
    @AvroSchema("{\"type\":\"string\",\"logicalType\":\"uuid\"}")
    public String id;
    @AvroSchema("{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":9,\"scale\":2}")
    public ByteBuffer amount;
    public LocalDate due;

    public Ledger() {}
  }

  @AfterEach
  void close() {
    serdes.close();
  }

  @Test
  void javaRecord_roundTrips() {
    Point point = new Point(3, 4, "p");
    byte[] bytes = serdes.serializer("schema.reflection", true).serialize("points", point);

    Object read = serdes.deserializer("schema.reflection", true).deserialize("points", bytes);

    assertThat(read).isEqualTo(point);
    Schema registered = serdes.registry().latestVersion("points-value").schema();
    assertThat(registered.getFields()).extracting(Schema.Field::name).containsExactlyInAnyOrder("x", "y", "label");
  }

  @Test
  void pojo_roundTrips() {
    Pojo pojo = new Pojo("n", 7, List.of("a"));
    byte[] bytes = serdes.serializer("schema.reflection", true).serialize("pojos", pojo);

    Pojo read = (Pojo) serdes.deserializer("schema.reflection", true).deserialize("pojos", bytes);

    assertThat(read.name).isEqualTo("n");
    assertThat(read.count).isEqualTo(7);
    assertThat(read.tags).containsExactly("a");
  }

  @ParameterizedTest
  @CsvSource({"true", "false"})
  void pojoHoldingUnderlyingValuesOfLogicalTypes_roundTrips(boolean fastCodec) {
    Ledger ledger = new Ledger();
    ledger.birthday = 19_782;
    ledger.placedAt = 1_700_000_000_123L;
    ledger.id = "123e4567-e89b-12d3-a456-426614174000";
    ledger.amount = ByteBuffer.wrap(new byte[] {0x00, 0x01, (byte) 0xE2, 0x40});
    ledger.due = LocalDate.of(2024, 2, 29);
    byte[] bytes = serdes.serializer("schema.reflection", true, "avro.fast.codec", fastCodec)
        .serialize("ledgers", ledger);

    Ledger read = (Ledger) serdes.deserializer("schema.reflection", true, "avro.fast.codec", fastCodec)
        .deserialize("ledgers", bytes);

    assertThat(read.birthday).isEqualTo(19_782);
    assertThat(read.placedAt).isEqualTo(1_700_000_000_123L);
    assertThat(read.id).isEqualTo("123e4567-e89b-12d3-a456-426614174000");
    assertThat(read.amount).isEqualTo(ByteBuffer.wrap(new byte[] {0x00, 0x01, (byte) 0xE2, 0x40}));
    assertThat(read.due).isEqualTo(LocalDate.of(2024, 2, 29));
  }

  @Test
  void allowNull_nullFieldsAccepted() {
    Pojo pojo = new Pojo(null, 1, null);
    byte[] bytes = serdes.serializer("schema.reflection", true, "avro.reflection.allow.null", true)
        .serialize("pojos", pojo);

    Pojo read = (Pojo) serdes.deserializer("schema.reflection", true, "avro.reflection.allow.null", true)
        .deserialize("pojos", bytes);

    assertThat(read.name).isNull();
    assertThat(read.count).isEqualTo(1);
  }
}
