package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kavro.connect.AvroConverter;
import java.math.BigDecimal;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.Test;

/** The converter, as a Connect worker of this cell's line configures it, on a struct of every kind. */
class ConverterTest {
  private static final Schema PLACE = SchemaBuilder.struct().name("com.example.Place")
      .field("site", Schema.STRING_SCHEMA).field("floor", Schema.OPTIONAL_INT16_SCHEMA).build();
  private static final Schema READING = SchemaBuilder.struct().name("com.example.Reading")
      .field("id", Schema.INT64_SCHEMA)
      .field("amount", Decimal.schema(2))
      .field("at", Timestamp.SCHEMA)
      .field("note", Schema.OPTIONAL_STRING_SCHEMA)
      .field("samples", SchemaBuilder.array(Schema.FLOAT64_SCHEMA).build())
      .field("labels", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).build())
      .field("place", PLACE)
      .build();

  @Test
  void struct_roundTrips() {
    Struct reading = new Struct(READING).put("id", 7L).put("amount", new BigDecimal("12.34"))
        .put("at", new Date(1_764_584_130_123L)).put("samples", List.of(1.5, 2.5)).put("labels", Map.of("a", 1))
        .put("place", new Struct(PLACE).put("site", "lab").put("floor", (short) 2));
    AvroConverter converter = new AvroConverter();
    converter.configure(Cell.config("converter"), false);

    byte[] payload = converter.fromConnectData("readings", READING, reading);
    SchemaAndValue read = converter.toConnectData("readings", payload);

    assertThat(payload[0]).isZero();
    Struct value = (Struct) read.value();
    assertThat(value.getInt64("id")).isEqualTo(7L);
    assertThat(value.get("amount")).isEqualTo(new BigDecimal("12.34"));
    assertThat(value.get("at")).isEqualTo(new Date(1_764_584_130_123L));
    assertThat(value.getStruct("place").getInt16("floor")).isEqualTo((short) 2);
    assertThat(value.getMap("labels")).isEqualTo(Map.of("a", 1));
    assertThat(read.schema().name()).isEqualTo("com.example.Reading");
  }

  /**
   * A registry that cannot be reached: Connect 4.0 and later hand an exhausted retry to {@code errors.tolerance}, so
   * it is Connect's {@code RetriableException}; Connect 3.x drops such a record even with
   * {@code errors.tolerance=none} (KAFKA-18073), so there the converter fails the task with an {@code Error}.
   */
  @Test
  void registryUnreachable_retriableWhereTheWorkerKeepsTheRecord_elseFailsTheTask() {
    AvroConverter converter = new AvroConverter();
    converter.configure(Map.of("schema.registry.url", "http://127.0.0.1:1", "max.retries", 0), false);

    Throwable written = catchThrowable(() -> converter.fromConnectData("readings", Schema.STRING_SCHEMA, "x"));
    Throwable read = catchThrowable(() -> converter.toConnectData("readings", new byte[] {0, 0, 0, 0, 1, 2}));

    for (Throwable thrown : new Throwable[] {written, read}) {
      if (Integer.parseInt(Cell.kafka().substring(0, Cell.kafka().indexOf('.'))) < 4) {
        assertThat(thrown).isInstanceOf(Error.class).hasMessageContaining("on Kafka " + Cell.kafka())
            .hasMessageContaining("KAFKA-18073").hasMessageEndingWith("restart the task once the registry answers)");
      } else {
        assertThat(thrown).isExactlyInstanceOf(RetriableException.class);
      }
    }
  }
}
