package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reference points of {@link SpecificBenchmark}'s writes stay honest: the hand-written writer returns, for every
 * benchmark record, Kavro's payload byte for byte and Avro's {@code SpecificDatumWriter}'s body, and the
 * allocation-only floor an array of the payload's size.
 */
class ReferenceWritersTest {

  @ParameterizedTest
  @EnumSource(value = Shape.class, names = {"S2", "S3"})
  @SuppressWarnings({"unchecked", "rawtypes"})
  void handWritten_writesWhatKavroAndAvroWrite(Shape shape) {
    Class<? extends SpecificRecord> type = BenchData.specificClass(shape);
    SpecificData model = SpecificData.getForClass(type);
    RawAvro avro = new RawAvro(new SpecificDatumWriter(type), new SpecificDatumReader(type), 7);
    try (KavroSerdes kavro = new KavroSerdes(Map.of("specific.avro.reader", true))) {
      List<SpecificRecord> records = BenchData.specific(shape);
      byte[] first = kavro.serializer().serialize(KavroSerdes.TOPIC, records.get(0));
      int id = kavro.registry().lookup(KavroSerdes.TOPIC + "-value", model.getSchema(type)).id();
      ReferenceWriters reference = new ReferenceWriters(shape, id);
      assertThat(first).startsWith(0, id >>> 24, id >>> 16, id >>> 8, id);
      for (SpecificRecord record : records) {
        byte[] hand = reference.handWritten(record);
        byte[] body = avro.serialize(record);

        assertThat(hand).isEqualTo(kavro.serializer().serialize(KavroSerdes.TOPIC, record));
        assertThat(Arrays.copyOfRange(hand, 5, hand.length)).isEqualTo(Arrays.copyOfRange(body, 5, body.length));
        assertThat(reference.allocationOnly(record, hand.length, value -> { })).hasSize(hand.length);
      }
    }
  }

  @Test
  void otherShapes_haveNoReferenceWriter() {
    assertThatThrownBy(() -> new ReferenceWriters(Shape.S1, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
