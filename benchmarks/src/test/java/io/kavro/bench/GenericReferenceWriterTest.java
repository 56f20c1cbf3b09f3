package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The hand-written writer of the generic records stays honest: for every benchmark record it returns Kavro's payload
 * byte for byte and raw Avro's {@code GenericDatumWriter}'s body, and its set-up check rejects a writer that does not.
 */
class GenericReferenceWriterTest {

  @ParameterizedTest
  @EnumSource(value = Shape.class, names = {"S2", "S3"})
  void write_writesWhatKavroAndAvroWrite(Shape shape) {
    List<GenericRecord> records = BenchData.records(shape);
    RawAvro avro = new RawAvro(shape.writer(), shape.writer(), 7);
    try (KavroSerdes kavro = new KavroSerdes(shape)) {
      List<byte[]> payloads = new ArrayList<>();
      for (GenericRecord record : records) {
        payloads.add(kavro.serializer().serialize(KavroSerdes.TOPIC, record));
      }
      GenericReferenceWriter writer = GenericReferenceWriter.checked(shape, records, payloads);
      for (int i = 0; i < records.size(); i++) {
        byte[] hand = writer.write(records.get(i));
        byte[] body = avro.serialize(records.get(i));

        assertThat(hand).isEqualTo(payloads.get(i));
        assertThat(Arrays.copyOfRange(hand, 5, hand.length)).isEqualTo(Arrays.copyOfRange(body, 5, body.length));
      }
    }
  }

  @Test
  void checked_ofPayloadsOutOfStep_namesTheFirstRecordThatDiffers() {
    List<GenericRecord> records = BenchData.records(Shape.S3);
    try (KavroSerdes kavro = new KavroSerdes(Shape.S3)) {
      List<byte[]> payloads = new ArrayList<>();
      for (GenericRecord record : records) {
        payloads.add(kavro.serializer().serialize(KavroSerdes.TOPIC, record));
      }
      payloads.set(3, payloads.get(4));

      assertThatThrownBy(() -> GenericReferenceWriter.checked(Shape.S3, records, payloads))
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("record 3:");
    }
  }

  @Test
  void otherShapes_haveNoHandWrittenWriter() {
    assertThatThrownBy(() -> new GenericReferenceWriter(Shape.S1, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
