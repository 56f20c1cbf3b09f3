package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
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

  @Test
  void s3_ofARenamedCopy_readsWhatAvroReads_intoTheCopysOwnSchemaObjects() throws IOException {
    Schema copy = new Schema.Parser().parse(Shape.S3.writer().toString().replace("\"name\":\"Order\"",
        "\"name\":\"Order7\""));
    ReferenceReaders reference = ReferenceReaders.s3(copy);
    RawAvro raw = new RawAvro(copy, copy, 1);
    for (GenericRecord record : BenchData.records(Shape.S3).subList(0, 16)) {
      byte[] payload = raw.serialize(GenericData.get().deepCopy(copy, record));
      GenericRecord read = (GenericRecord) reference.handWritten(payload);

      assertThat(read).isEqualTo(raw.deserialize(payload));
      assertThat(read.getSchema()).isSameAs(copy);
      assertThat(((GenericRecord) read.get("address")).getSchema()).isSameAs(copy.getField("address").schema());
      GenericRecord allocated = (GenericRecord) reference.allocationOnly(reference.plan(read));
      assertThat(allocated.getSchema()).isSameAs(copy);
      assertThat(((GenericData.Fixed) allocated.get("hash")).getSchema()).isSameAs(copy.getField("hash").schema());
      assertThat(reference.plan(allocated).sizes()).isEqualTo(reference.plan(read).sizes());
    }
  }

  @Test
  void s3_refusesASchemaNotShapedAsS3_namingTheField() {
    Schema changed = new Schema.Parser().parse(Shape.S3.writer().toString().replace("\"size\":16",
        "\"size\":8"));

    assertThatThrownBy(() -> ReferenceReaders.s3(changed)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field 9 is hash");
    assertThatThrownBy(() -> ReferenceReaders.s3(Shape.S2.writer())).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not shaped as S3");
  }

  @ParameterizedTest
  @EnumSource(value = Shape.class, names = {"S1", "S4"})
  void otherShapes_haveNoReferenceReader(Shape shape) {
    assertThatThrownBy(() -> new ReferenceReaders(shape)).isInstanceOf(IllegalArgumentException.class);
  }
}
