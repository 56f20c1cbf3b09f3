package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.Map;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reference points of {@link SpecificBenchmark}'s reads stay honest: for every benchmark record, the hand-written
 * reader and the allocation-only floor return objects equal to what Kavro's deserializer and Avro's
 * {@code SpecificDatumReader} return, of the same classes.
 */
class ReferenceSpecificReadersTest {

  @ParameterizedTest
  @EnumSource(value = Shape.class, names = {"S2", "S3"})
  @SuppressWarnings({"unchecked", "rawtypes"})
  void handWrittenAndAllocationOnly_buildWhatKavroAndAvroRead(Shape shape) throws IOException {
    Class<? extends SpecificRecord> type = BenchData.specificClass(shape);
    SpecificData model = SpecificData.getForClass(type);
    RawAvro avro = new RawAvro(new SpecificDatumWriter(type),
        new SpecificDatumReader(model.getSchema(type), model.getSchema(type), model), 7);
    ReferenceSpecificReaders reference = new ReferenceSpecificReaders(shape);
    try (KavroSerdes kavro = new KavroSerdes(Map.of("specific.avro.reader", true))) {
      for (SpecificRecord record : BenchData.specific(shape)) {
        byte[] payload = kavro.serializer().serialize(KavroSerdes.TOPIC, record);
        Object kavroRead = kavro.deserializer().deserialize(KavroSerdes.TOPIC, payload);
        Object avroRead = avro.deserialize(payload);
        SpecificRecord hand = reference.handWritten(payload);
        SpecificRecord floor = reference.allocationOnly(reference.plan(hand));

        assertThat(hand).isInstanceOf(type).isEqualTo(record).isEqualTo(kavroRead).isEqualTo(avroRead);
        assertThat(floor).isInstanceOf(type).isEqualTo(record).isEqualTo(kavroRead).isEqualTo(avroRead);
        assertThat(floor.toString()).isEqualTo(kavroRead.toString());
      }
    }
  }

  @Test
  void otherShapes_haveNoReferenceReader() {
    assertThatThrownBy(() -> new ReferenceSpecificReaders(Shape.S1)).isInstanceOf(IllegalArgumentException.class);
  }
}
