package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reference points of {@link DeserializeLimitsBenchmark} stay honest: the hand-written reader returns what
 * Kavro and Avro return, and the allocation-only graph has the planned record's every length, count and value.
 */
class ReferenceReadersTest {

  @ParameterizedTest
  @EnumSource(value = Shape.class, names = {"S2", "S3"})
  void handWritten_readsWhatKavroAndAvroRead_andAllocationOnly_buildsThePlannedGraph(Shape shape)
      throws IOException {
    ReferenceReaders reference = new ReferenceReaders(shape);
    RawAvro raw = new RawAvro(shape.writer(), shape.reader(), 1);
    try (KavroSerdes kavro = new KavroSerdes(shape)) {
      for (GenericRecord record : BenchData.records(shape)) {
        byte[] payload = kavro.serializer().serialize(KavroSerdes.TOPIC, record);
        Object read = reference.handWritten(payload);

        assertThat(read).isEqualTo(kavro.deserializer().deserialize(KavroSerdes.TOPIC, payload))
            .isEqualTo(raw.deserialize(payload));
        ReferenceReaders.Plan plan = reference.plan(read);
        ReferenceReaders.Plan rebuilt = reference.plan(reference.allocationOnly(plan));
        assertThat(rebuilt.sizes()).isEqualTo(plan.sizes());
        assertThat(rebuilt.numbers()).isEqualTo(plan.numbers());
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Shape.class, names = {"S1", "S4"})
  void otherShapes_haveNoReferenceReader(Shape shape) {
    assertThatThrownBy(() -> new ReferenceReaders(shape)).isInstanceOf(IllegalArgumentException.class);
  }
}
