package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A writer's field that the reader lacks is skipped by the compiled decoder, and still checked: an enum index or a
 * union branch its schema does not have means the bytes are not of that schema, and the record is refused.
 */
class SkippedFieldsTest {
  private static final Schema WRITER = new Schema.Parser().parse("""
      {"type":"record","name":"R","namespace":"com.acme","fields":[
       {"name":"e","type":{"type":"enum","name":"E","symbols":["X","Y"]}},
       {"name":"u","type":["null","int"]},{"name":"n","type":"int"}]}""");
  private static final Schema READER = new Schema.Parser().parse("""
      {"type":"record","name":"R","namespace":"com.acme","fields":[{"name":"n","type":"int"}]}""");

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  private byte[] payload(int enumIndex, int unionIndex) throws Exception {
    int id = MockRegistries.scope(serdes.scope).register("t-value", WRITER);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(id).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    encoder.writeEnum(enumIndex);
    encoder.writeIndex(unionIndex);
    if (unionIndex == 1) {
      encoder.writeInt(9);
    }
    encoder.writeInt(42);
    encoder.flush();
    return out.toByteArray();
  }

  @Test
  void aValidSkippedFieldReads() throws Exception {
    Object read = serdes.deserializer("value.reader.schema", READER.toString()).deserialize("t", payload(1, 1));
    assertThat(((GenericRecord) read).get("n")).isEqualTo(42);
  }

  @Test
  void anEnumIndexTheWriterDoesNotHave_isMalformed() throws Exception {
    byte[] bad = payload(5, 0);
    assertThatThrownBy(() -> serdes.deserializer("value.reader.schema", READER.toString()).deserialize("t", bad))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("enum com.acme.E has no symbol at index 5");
  }

  @Test
  void aUnionBranchTheWriterDoesNotHave_isMalformed() throws Exception {
    byte[] bad = payload(0, 3);
    assertThatThrownBy(() -> serdes.deserializer("value.reader.schema", READER.toString()).deserialize("t", bad))
        .isInstanceOf(MalformedPayloadException.class);
  }
}
