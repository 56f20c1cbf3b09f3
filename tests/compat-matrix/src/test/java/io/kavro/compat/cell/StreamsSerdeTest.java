package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.compat.generated.Measurement;
import io.kavro.serde.AvroSerde;
import org.junit.jupiter.api.Test;

/** The Streams serde, as Kafka Streams configures it. */
class StreamsSerdeTest {
  @Test
  void serde_roundTripsSpecificRecords() {
    try (AvroSerde<Object> serde = new AvroSerde<>()) {
      serde.configure(Cell.config("streams", "specific.avro.reader", true), false);
      byte[] payload = serde.serializer().serialize("measurements", SpecificRecordsTest.measurement());
      assertThat(serde.deserializer().deserialize("measurements", payload)).isInstanceOf(Measurement.class)
          .isEqualTo(SpecificRecordsTest.measurement());
    }
  }
}
