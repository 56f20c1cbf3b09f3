package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

/**
 * The compiled codecs' own paths for decimals on bytes and uuids on strings (read and written without Avro's
 * conversion in between) against Avro's conversions themselves, on the values where a shortcut could go wrong: the
 * sign and width of the unscaled value around every byte boundary and past a long, bytes padded beyond the minimal
 * form, decimals Avro rescales or refuses, uuids in either case and texts that are not canonical or not uuids.
 */
class LogicalLeafCodecTest {
  private static final GenericData MODEL = new AvroDataModels(true, false).generic();
  private static final Schema DECIMAL = LogicalTypes.decimal(38, 2).addToSchema(Schema.create(Schema.Type.BYTES));
  private static final Schema NARROW = LogicalTypes.decimal(18, 4).addToSchema(Schema.create(Schema.Type.BYTES));
  private static final Schema UUID_STRING = LogicalTypes.uuid().addToSchema(Schema.create(Schema.Type.STRING));

  /** Unscaled values at every byte width's edges, both signs, up to past a long. */
  private static List<BigInteger> unscaledEdges() {
    List<BigInteger> values = new ArrayList<>();
    for (int bits = 0; bits <= 72; bits++) {
      BigInteger power = BigInteger.ONE.shiftLeft(bits);
      for (BigInteger v : List.of(power, power.subtract(BigInteger.ONE), power.add(BigInteger.ONE))) {
        values.add(v);
        values.add(v.negate());
      }
    }
    values.add(BigInteger.ZERO);
    values.add(BigInteger.TEN.pow(18).subtract(BigInteger.ONE));
    values.add(BigInteger.TEN.pow(18).subtract(BigInteger.ONE).negate());
    return values;
  }

  @Test
  void decimalOnBytes_readsAsAvrosConversion_atEveryWidth() throws IOException {
    for (BigInteger unscaled : unscaledEdges()) {
      byte[] body = avroBytes(Schema.create(Schema.Type.BYTES), java.nio.ByteBuffer.wrap(unscaled.toByteArray()));
      assertReadsAsAvro(DECIMAL, body);
    }
  }

  @Test
  void decimalOnBytes_paddedBeyondTheMinimalForm_readsAsAvro() throws IOException {
    // Writers other than Avro's may pad: 00 00 01 is 1, FF FF FE is -2, FF 7F is -129, nine bytes of FF are -1.
    byte[][] forms = {{0, 0, 1}, {-1, -1, -2}, {-1, 127}, {0, -128}, {-1, -1, -1, -1, -1, -1, -1, -1, -1},
        {0, 0, 0, 0, 0, 0, 0, 0, 5}, {-128, 0, 0, 0, 0, 0, 0, 0}, {127, -1, -1, -1, -1, -1, -1, -1}};
    for (byte[] form : forms) {
      assertReadsAsAvro(DECIMAL, avroBytes(Schema.create(Schema.Type.BYTES), java.nio.ByteBuffer.wrap(form)));
    }
  }

  @Test
  void decimalOnBytes_writtenAsAvrosConversion_atEveryWidth() throws IOException {
    for (BigInteger unscaled : unscaledEdges()) {
      BigDecimal value = new BigDecimal(unscaled, 2);
      assertWritesAsAvro(DECIMAL, value);
      assertWritesAsAvro(DECIMAL, BigDecimal.valueOf(unscaled.longValue(), 2)); // compact, as valueOf makes them
    }
  }

  @Test
  void decimalOnBytes_anotherScaleOrTooPrecise_rescaledOrRefusedAsAvro() throws IOException {
    for (String text : List.of("1.5", "-7", "0", "12345678901234.5", "1.23456", "123456789012345.0001",
        "99999999999999.9999", "-99999999999999.9999", "1E+3", "0.00001")) {
      assertWritesAsAvro(NARROW, new BigDecimal(text));
    }
  }

  @Test
  void uuidOnString_readsAsAvrosConversion_inEitherCaseAndAnyText() throws IOException {
    List<String> texts = new ArrayList<>();
    java.util.Random random = new java.util.Random(52);
    for (int i = 0; i < 200; i++) {
      String text = new UUID(random.nextLong(), random.nextLong()).toString();
      texts.add(text);
      texts.add(text.toUpperCase(java.util.Locale.ROOT));
    }
    texts.addAll(List.of("00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
        "1-2-3-4-5", "0123456789abcdef0123456789abcdef0123", "g1234567-89ab-cdef-0123-456789abcdef",
        "01234567-89ab-cdef-0123-456789abcdeg", "+1234567-89ab-cdef-0123-456789abcdef",
        "01234567-+9ab-cdef-0123-456789abcdef", "0123456789ab-cdef-0123-456789abcdef-", "",
        "01234567-89ab-cdef-0123-456789abcdé"));
    for (String text : texts) {
      byte[] body = avroBytes(Schema.create(Schema.Type.STRING), text);
      assertThat(body.length).isGreaterThan(0);
      assertReadsAsAvro(UUID_STRING, body);
    }
  }

  @Test
  void uuidOnString_truncatedBody_failsWithoutReadingPastIt() {
    byte[] body = avroBytes(Schema.create(Schema.Type.STRING), UUID.randomUUID().toString());
    byte[] cut = java.util.Arrays.copyOf(body, body.length - 1);
    CompiledDecoder decoder = DecoderCompiler.compile(UUID_STRING, UUID_STRING, MODEL);

    Throwable thrown = catchThrowable(() -> decoder.decode(new BoundedBinaryDecoder().reset(cut, 0, cut.length)));

    assertThat(thrown).isInstanceOf(IOException.class);
  }

  /** Kavro's compiled decoder reads what Avro's reader with the same conversions reads, or fails as it does. */
  private static void assertReadsAsAvro(Schema schema, byte[] body) throws IOException {
    Object expected;
    try {
      expected = new GenericDatumReader<>(schema, schema, MODEL).read(null,
          DecoderFactory.get().binaryDecoder(body, null));
    } catch (RuntimeException avroRefused) {
      BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(body, 0, body.length);
      Throwable thrown = catchThrowable(() -> DecoderCompiler.compile(schema, schema, MODEL).decode(in));
      assertThat(thrown).as(new String(body, StandardCharsets.UTF_8)).isInstanceOf(avroRefused.getClass())
          .hasMessage(avroRefused.getMessage());
      return;
    }
    BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(body, 0, body.length);
    Object actual = DecoderCompiler.compile(schema, schema, MODEL).decode(in);

    assertThat(actual).as(String.valueOf(expected)).isEqualTo(expected);
    assertThat(actual.getClass()).isEqualTo(expected.getClass());
    assertThat(actual.toString()).isEqualTo(expected.toString());
    if (actual instanceof BigDecimal decimal) {
      assertThat(decimal.scale()).isEqualTo(((BigDecimal) expected).scale());
      assertThat(decimal.unscaledValue()).isEqualTo(((BigDecimal) expected).unscaledValue());
    }
    assertThat(in.isEnd()).isTrue();
  }

  /** Kavro's compiled encoder writes Avro's bytes for {@code value}, or refuses it as Avro's writer does. */
  private static void assertWritesAsAvro(Schema schema, Object value) {
    byte[] expected;
    try {
      expected = avroBytes(schema, value);
    } catch (RuntimeException avroRefused) {
      Throwable thrown = catchThrowable(() -> EncoderCompiler.compile(schema, MODEL).encode(value, new ByteSink()));
      assertThat(thrown).as(value.toString()).isInstanceOf(avroRefused.getClass())
          .hasMessage(avroRefused.getMessage());
      return;
    }
    ByteSink sink = new ByteSink();
    EncoderCompiler.compile(schema, MODEL).encode(value, sink);
    assertThat(sink.toByteArray()).as(value.toString()).isEqualTo(expected);
  }

  private static byte[] avroBytes(Schema schema, Object datum) {
    return AvroBytes.written(new GenericDatumWriter<>(schema, MODEL), datum);
  }
}
