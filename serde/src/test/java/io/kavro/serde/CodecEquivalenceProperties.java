package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;
import io.kavro.serde.Property;

/**
 * The compiled codecs against Apache Avro itself: the same bytes for random schemas and data, and the same
 * values for random (writer, reader) pairs, evolution included; corrupt input fails the same clean way.
 */
public class CodecEquivalenceProperties {
  private static final GenericData MODEL = new AvroDataModels(true, false).generic();

  @Test
  void encoder_sameBytesAsAvro() {
    Property.forAll("encoder_sameBytesAsAvro", Property.tries(400), seed -> seed, CodecEquivalenceProperties::encoder_sameBytesAsAvro);
  }

  private static void encoder_sameBytesAsAvro(long seed) throws IOException {
    io.kavro.serde.RandomAvroAccess random = new io.kavro.serde.RandomAvroAccess(seed);
    Schema schema = random.record(3);
    Object datum = random.datum(schema);

    ByteSink sink = new ByteSink();
    EncoderCompiler.compile(schema, MODEL).encode(datum, sink);

    assertThat(sink.toByteArray()).isEqualTo(avroBytes(schema, datum));
  }

  @Test
  void decoder_sameValuesAsAvro_forEvolvedReaders() {
    Property.forAll("decoder_sameValuesAsAvro_forEvolvedReaders", Property.tries(400), seed -> seed, CodecEquivalenceProperties::decoder_sameValuesAsAvro_forEvolvedReaders);
  }

  private static void decoder_sameValuesAsAvro_forEvolvedReaders(long seed) throws IOException {
    io.kavro.serde.RandomAvroAccess random = new io.kavro.serde.RandomAvroAccess(seed);
    Schema writer = random.record(3);
    Schema reader = evolve(writer, new Random(seed));
    if (SchemaCompatibility.checkReaderWriterCompatibility(reader, writer).getType()
        != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
      return;
    }
    byte[] bytes = avroBytes(writer, random.datum(writer));

    Object expected = new GenericDatumReader<>(writer, reader, MODEL)
        .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    CompiledDecoder decoder = DecoderCompiler.compile(writer, reader, MODEL);
    BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(bytes, 0, bytes.length);
    Object actual = decoder.decode(in);

    // Record.equals cannot compare logical-type values (it uses the model without conversions): compare what
    // Avro writes for both, and their text, which shows the Java classes' values.
    assertThat(avroBytes(reader, actual)).isEqualTo(avroBytes(reader, expected));
    assertThat(String.valueOf(actual)).isEqualTo(String.valueOf(expected));
    assertSameClasses(actual, expected, "$");
    assertThat(in.isEnd()).isTrue();
  }

  @Test
  void decoder_corruptInput_failsCleanly() {
    Property.forAll("decoder_corruptInput_failsCleanly", Property.tries(200), seed -> seed, CodecEquivalenceProperties::decoder_corruptInput_failsCleanly);
  }

  private static void decoder_corruptInput_failsCleanly(long seed) throws IOException {
    io.kavro.serde.RandomAvroAccess random = new io.kavro.serde.RandomAvroAccess(seed);
    Schema schema = random.record(3);
    byte[] bytes = avroBytes(schema, random.datum(schema));
    Random mutate = new Random(seed);
    if (bytes.length > 0) {
      bytes[mutate.nextInt(bytes.length)] ^= (byte) (1 << mutate.nextInt(8));
    }
    byte[] cut = java.util.Arrays.copyOf(bytes, mutate.nextInt(bytes.length + 1));
    CompiledDecoder decoder = DecoderCompiler.compile(schema, schema, MODEL);

    Throwable thrown = catchThrowable(() -> decoder.decode(new BoundedBinaryDecoder().reset(cut, 0, cut.length)));

    // Either it decodes (the flip hit something harmless) or it fails as the serde maps to a clean error.
    if (thrown != null) {
      assertThat(thrown).isInstanceOfAny(IOException.class, org.apache.avro.AvroRuntimeException.class,
          ClassCastException.class, IllegalArgumentException.class, java.time.DateTimeException.class);
      assertThat(thrown).isNotInstanceOf(OutOfMemoryError.class);
    }
  }

  /** The same Java classes at every level: Utf8 against String, GenericData.Array against a List, and so on. */
  public static void assertSameClasses(Object actual, Object expected, String path) {
    if (expected == null || actual == null) {
      assertThat(actual).as(path).isEqualTo(expected);
      return;
    }
    assertThat(actual.getClass()).as(path).isEqualTo(expected.getClass());
    if (expected instanceof org.apache.avro.generic.IndexedRecord e) {
      org.apache.avro.generic.IndexedRecord a = (org.apache.avro.generic.IndexedRecord) actual;
      for (Schema.Field field : e.getSchema().getFields()) {
        assertSameClasses(a.get(field.pos()), e.get(field.pos()), path + "." + field.name());
      }
    } else if (expected instanceof List<?> e) {
      List<?> a = (List<?>) actual;
      assertThat(a).as(path).hasSameSizeAs(e);
      for (int i = 0; i < e.size(); i++) {
        assertSameClasses(a.get(i), e.get(i), path + "[" + i + "]");
      }
    } else if (expected instanceof java.util.Map<?, ?> e) {
      java.util.Map<?, ?> a = (java.util.Map<?, ?>) actual;
      e.forEach((k, v) -> {
        assertThat(a.containsKey(k)).as(path + " key " + k + " (" + k.getClass().getSimpleName() + ")").isTrue();
        assertSameClasses(a.get(k), v, path + "{" + k + "}");
      });
    }
  }

  /** A reader schema: some fields dropped, some added with defaults, ints widened, fields reordered. */
  static Schema evolve(Schema writer, Random random) {
    List<Schema.Field> fields = new ArrayList<>();
    for (Schema.Field field : writer.getFields()) {
      int choice = random.nextInt(6);
      if (choice == 0 && writer.getFields().size() > 1) {
        continue; // removed
      }
      Schema type = field.schema();
      if (choice == 1 && type.getType() == Schema.Type.INT && type.getLogicalType() == null) {
        type = Schema.create(random.nextBoolean() ? Schema.Type.LONG : Schema.Type.DOUBLE);
      } else if (choice == 2 && type.getType() == Schema.Type.FLOAT) {
        type = Schema.create(Schema.Type.DOUBLE);
      }
      fields.add(new Schema.Field(field.name(), type, field.doc(), field.defaultVal()));
    }
    if (random.nextBoolean()) {
      fields.add(new Schema.Field("added", Schema.create(Schema.Type.STRING), null, "dflt"));
    }
    if (random.nextBoolean()) {
      fields.add(new Schema.Field("addedList", Schema.createArray(Schema.create(Schema.Type.INT)), null,
          List.of(1, 2)));
    }
    if (random.nextBoolean()) {
      Collections.reverse(fields);
    }
    return Schema.createRecord(writer.getName(), writer.getDoc(), writer.getNamespace(), false, fields);
  }

  static byte[] avroBytes(Schema schema, Object datum) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<>(schema, MODEL).write(datum, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
