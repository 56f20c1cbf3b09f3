package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.reflect.ReflectData;
import org.junit.jupiter.api.Test;

/**
 * Payloads Avro's own reader refuses, which the compiled decoders' short paths must refuse too, never reading a
 * value out of the next field's bytes or a null into a field that cannot hold one.
 */
class CodecRefusalsTest {
  private static final GenericData LOGICAL = new AvroDataModels(true, false).generic();

  private static final Schema DECIMAL_THEN_INT = new Schema.Parser().parse("""
      {"type":"record","name":"D","namespace":"io.kavro.test","fields":[
        {"name":"d","type":{"type":"bytes","logicalType":"decimal","precision":4,"scale":2}},
        {"name":"i","type":"int"}]}""");

  private static final Schema NULLABLE_TEXT = new Schema.Parser().parse("""
      {"type":"record","name":"T","namespace":"io.kavro.test","fields":[
        {"name":"s","type":["null","string"]}]}""");
  private static final Schema TEXT = new Schema.Parser().parse("""
      {"type":"record","name":"T","namespace":"io.kavro.test","fields":[{"name":"s","type":"string"}]}""");

  /** A Java record of {@link #TEXT}'s shape. */
  record T(String s) {}

  @Test
  void decimalOfNoBytes_isRefused_asAvroRefusesIt() {
    CompiledDecoder decoder = DecoderCompiler.compile(DECIMAL_THEN_INT, DECIMAL_THEN_INT, LOGICAL);
    assertThat(decoder).isNotNull();

    for (byte[] body : new byte[][] {{0x00, 0x04}, {0x00, (byte) 0x81, 0x01}, {0x00}}) {
      assertThat(avroRefuses(DECIMAL_THEN_INT, DECIMAL_THEN_INT, LOGICAL, body)).as("Avro refuses it").isTrue();
      assertThatThrownBy(() -> decoder.decode(new BoundedBinaryDecoder().reset(body, 0, body.length)))
          .isInstanceOf(IOException.class).hasMessageContaining("decimal with no bytes");
    }
  }

  @Test
  void writersNull_intoAReaderStringThatCannotHoldIt_isRefused() {
    byte[] body = {0x00}; // the union's null branch
    assertThat(avroRefuses(NULLABLE_TEXT, TEXT, LOGICAL, body)).as("Avro refuses it").isTrue();

    CompiledDecoder decoder = DecoderCompiler.compile(NULLABLE_TEXT, TEXT, LOGICAL);
    assertThat(decoder).isNotNull();
    assertThat(catchThrowable(() -> decoder.decode(new BoundedBinaryDecoder().reset(body, 0, body.length))))
        .as("no record with a null string").isNotNull();
  }

  @Test
  void writersNull_intoAJavaRecordsStringThatCannotHoldIt_isRefused() {
    ReflectData model = new AvroDataModels(true, false).reflect();
    GenericData readModel = JavaRecordReader.readModel(model);
    Schema declared = DeclaredConversions.readerSchema(TEXT, T.class, model);
    CompiledDecoder generic = DecoderCompiler.compile(NULLABLE_TEXT, declared, readModel);
    JavaRecordReader records = new JavaRecordReader(NULLABLE_TEXT, declared, T.class, model);
    CompiledDecoder twoStep = in -> records.convert(generic.decode(in));
    CompiledDecoder direct = JavaRecordDecoderCompiler.compile(NULLABLE_TEXT, declared, T.class, readModel, twoStep);
    assertThat(direct).isNotNull();

    byte[] body = {0x00};
    assertThat(catchThrowable(() -> direct.decode(new BoundedBinaryDecoder().reset(body, 0, body.length))))
        .as("no Java record with a null string").isNotNull();
  }

  private static boolean avroRefuses(Schema writer, Schema reader, GenericData model, byte[] body) {
    GenericDatumReader<Object> avro = new GenericDatumReader<>(writer, reader, model);
    return catchThrowable(() -> avro.read(null, DecoderFactory.get().binaryDecoder(body, null))) != null;
  }
}
