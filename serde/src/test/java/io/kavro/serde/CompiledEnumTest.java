package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The compiled decoder of an enum read as another (Avro's {@code EnumAdjust}): against Avro's own reader on the same
 * bytes, a writer's symbol the reader lacks is its default when it has one, else refused as Avro refuses it, never a
 * {@code null}; and an index past the writer's symbols is refused.
 */
class CompiledEnumTest {
  private static final Schema WRITER = enumSchema("\"A\", \"B\", \"C\"", null);
  private static final Schema READER = enumSchema("\"B\", \"A\"", null);
  private static final Schema READER_WITH_DEFAULT = enumSchema("\"B\", \"A\", \"OTHER\"", "OTHER");

  private static Schema enumSchema(String symbols, String defaultSymbol) {
    return new Schema.Parser().parse("{\"type\": \"enum\", \"name\": \"E\", \"symbols\": [" + symbols + "]"
        + (defaultSymbol == null ? "" : ", \"default\": \"" + defaultSymbol + "\"") + "}");
  }

  private static byte[] index(int index) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    encoder.writeEnum(index);
    encoder.flush();
    return out.toByteArray();
  }

  private static Object kavro(Schema reader, byte[] bytes) throws IOException {
    CompiledDecoder decoder = DecoderCompiler.compile(WRITER, reader, GenericData.get());
    assertThat(decoder).as("compiled").isNotNull();
    return decoder.decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length));
  }

  private static Object avro(Schema reader, byte[] bytes) throws IOException {
    return new GenericDatumReader<>(WRITER, reader, GenericData.get())
        .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
  }

  @Test
  void symbolsTheReaderHas_readAsTheReadersSymbols_likeAvro() throws IOException {
    for (int i = 0; i < 2; i++) {
      byte[] bytes = index(i);
      assertThat(kavro(READER, bytes)).as("writer's symbol %s", i).isEqualTo(avro(READER, bytes))
          .hasToString(WRITER.getEnumSymbols().get(i));
    }
  }

  @Test
  void symbolTheReaderLacks_withoutDefault_refusedLikeAvro_neverNull() throws IOException {
    byte[] bytes = index(2);
    assertThatThrownBy(() -> avro(READER, bytes)).isInstanceOf(AvroTypeException.class);
    assertThatThrownBy(() -> kavro(READER, bytes)).isInstanceOf(AvroTypeException.class)
        .hasMessageContaining("no match for the writer's enum symbol 2 in E");
  }

  @Test
  void symbolTheReaderLacks_readersDefault_likeAvro() throws IOException {
    byte[] bytes = index(2);
    assertThat(kavro(READER_WITH_DEFAULT, bytes)).isEqualTo(avro(READER_WITH_DEFAULT, bytes)).hasToString("OTHER");
  }

  @Test
  void indexPastTheWritersSymbols_refused() throws IOException {
    byte[] bytes = index(3);
    assertThatThrownBy(() -> kavro(READER, bytes)).isInstanceOf(AvroTypeException.class)
        .hasMessageContaining("enum index 3 out of range for E");
  }
}
