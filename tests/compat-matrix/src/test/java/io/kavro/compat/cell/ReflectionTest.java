package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.List;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * The application's own classes by reflection, in its own package, with no
 * {@code org.apache.avro.SERIALIZABLE_PACKAGES}: plain classes on every Avro, Java records from Avro 1.12.
 */
class ReflectionTest {
  /** A Java record of the application's, nesting another. */
  public record Reading(String sensor, double celsius, Place place, List<String> tags) {}

  /** Nested in {@link Reading}. */
  public record Place(String site, int floor) {}

  /** A plain class of the application's. */
  public static class Sample {
    public String sensor;
    public long count;

    public Sample() {}

    Sample(String sensor, long count) {
      this.sensor = sensor;
      this.count = count;
    }
  }

  @Test
  void javaRecord_roundTripsFromAvro112_andIsAClearErrorBefore() {
    Reading reading = new Reading("s-1", 21.5, new Place("lab", 2), List.of("a", "b"));
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      var config = Cell.config("reflect-records", "schema.reflection", true);
      serializer.configure(config, false);
      deserializer.configure(config, false);
      if (Cell.avroReadsJavaRecords()) {
        assertThat(deserializer.deserialize("readings", serializer.serialize("readings", reading)))
            .isEqualTo(reading);
      } else {
        assertThatThrownBy(() -> serializer.serialize("readings", reading))
            .isInstanceOf(SerializationException.class)
            .hasMessageContaining("Java records need Avro 1.12 or later")
            .hasMessageContaining(Cell.avro());
      }
    }
  }

  @Test
  void plainClass_roundTrips() {
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      var config = Cell.config("reflect-pojo", "schema.reflection", true);
      serializer.configure(config, false);
      deserializer.configure(config, false);
      Sample read = (Sample) deserializer.deserialize("samples",
          serializer.serialize("samples", new Sample("s-2", 7)));
      assertThat(read.sensor).isEqualTo("s-2");
      assertThat(read.count).isEqualTo(7);
    }
  }
}
