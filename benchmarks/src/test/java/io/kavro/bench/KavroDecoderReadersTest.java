package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KavroDecoderReaders;
import java.io.IOException;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The reference points on Kavro's own decoder stay honest: the hand-written reader and Kavro's compiled decoder
 * called directly return what Kavro's deserializer returns, for every record, and decoding alone reads the same
 * payloads without a failure.
 */
class KavroDecoderReadersTest {

  @ParameterizedTest
  @EnumSource(value = Shape.class, names = {"S2", "S3", "S4"})
  void handWrittenAndCompiled_readWhatKavroReads(Shape shape) throws IOException {
    KavroDecoderReaders readers = new KavroDecoderReaders(KavroDecoderReaders.Kind.valueOf(shape.name()),
        shape.writer(), shape.reader());
    try (KavroSerdes kavro = new KavroSerdes(shape)) {
      for (GenericRecord record : BenchData.records(shape)) {
        byte[] payload = kavro.serializer().serialize(KavroSerdes.TOPIC, record);
        Object expected = kavro.deserializer().deserialize(KavroSerdes.TOPIC, payload);

        for (Object read : new Object[] {readers.read(payload), readers.readCompiled(payload)}) {
          assertThat(read).isEqualTo(expected);
          assertThat(GenericData.get().toString(read)).isEqualTo(GenericData.get().toString(expected));
        }
        readers.decodeOnly(payload);
      }
    }
  }
}
