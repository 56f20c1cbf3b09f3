package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
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
import org.apache.avro.util.Utf8;
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
  private static final Schema DATE = LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
  private static final Schema TIME_MILLIS = LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
  private static final Schema MILLIS = LogicalTypes.timestampMillis().addToSchema(Schema.create(Schema.Type.LONG));
  private static final Schema MICROS = LogicalTypes.timeMicros().addToSchema(Schema.create(Schema.Type.LONG));

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

  @Test
  void valuesHeldUnconverted_writtenAsAvroWritesThem() {
    for (Schema schema : List.of(DATE, TIME_MILLIS)) {
      for (int value : new int[] {0, -1, 63, 64, -65, 8191, 8192, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
        assertWritesAsAvro(schema, value);
      }
    }
    for (Schema schema : List.of(MILLIS, MICROS)) {
      for (long value : new long[] {0, -1, 1_700_000_000_000L, Long.MAX_VALUE, Long.MIN_VALUE}) {
        assertWritesAsAvro(schema, value);
      }
    }
    for (Object text : List.of("7c0c1c3e-6b1a-4c2e-9d8f-0a1b2c3d4e5f", "not a uuid", "é€", new Utf8("utf8 text"),
        new StringBuilder("a builder"))) {
      assertWritesAsAvro(UUID_STRING, text);
    }
    byte[] twoComplement = BigInteger.valueOf(-123_456).toByteArray();
    assertWritesAsAvro(DECIMAL, ByteBuffer.wrap(twoComplement));
    assertWritesAsAvro(DECIMAL, ByteBuffer.wrap(new byte[] {9, 1, 2, 3}, 1, 2)); // from its position
    assertWritesAsAvro(DECIMAL, ByteBuffer.wrap(new byte[] {9, 9, 1, 2, 3}, 2, 3).slice()); // an array offset
    // Other classes of ByteBuffer: the model is asked.
    assertWritesAsAvro(DECIMAL, ByteBuffer.wrap(twoComplement).asReadOnlyBuffer());
    assertWritesAsAvro(DECIMAL, ByteBuffer.allocateDirect(3).put(new byte[] {1, 2, 3}).flip());
    assertWritesAsAvro(DECIMAL, new BigDecimal("-1234.56"));
    assertWritesAsAvro(DATE, java.time.LocalDate.of(2026, 12, 7));
  }

  /**
   * A conversion registered for a class values are held in (a {@code Long} for timestamps...) converts them, as in
   * Avro's writer: the classes written without asking the model are only those found without one.
   */
  @Test
  void aConversionForTheHeldClass_convertsIt_asAvrosWriterDoes() {
    GenericData model = new GenericData();
    model.addLogicalTypeConversion(new Shifted<>(Long.class, "timestamp-millis", v -> v + 1000, v -> v));
    model.addLogicalTypeConversion(new Shifted<>(Integer.class, "date", v -> v + 1, v -> v));
    model.addLogicalTypeConversion(new Shifted<>(String.class, "uuid", v -> v, v -> v.toUpperCase()));
    model.addLogicalTypeConversion(new Shifted<>(Long.class, "time-micros", v -> v * 2, v -> v));
    // The usual conversions after: each logical type's own, while the held classes keep theirs.
    model.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.TimestampMillisConversion());
    model.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.DateConversion());
    model.addLogicalTypeConversion(new org.apache.avro.Conversions.UUIDConversion());
    model.addLogicalTypeConversion(new org.apache.avro.data.TimeConversions.TimeMicrosConversion());

    for (Object[] pair : new Object[][] {{MILLIS, 5L}, {DATE, 5}, {UUID_STRING, "abc-def"}, {MICROS, 5L},
        {MILLIS, java.time.Instant.ofEpochMilli(5)}, {UUID_STRING, new UUID(1, 2)}}) {
      Schema schema = (Schema) pair[0];
      ByteSink sink = new ByteSink();
      EncoderCompiler.compile(schema, model).encode(pair[1], sink);
      assertThat(sink.toByteArray()).as("%s", pair[1])
          .isEqualTo(AvroBytes.written(new GenericDatumWriter<>(schema, model), pair[1]));
    }
    ByteSink sink = new ByteSink();
    EncoderCompiler.compile(MILLIS, model).encode(5L, sink);
    assertThat(sink.toByteArray()).as("converted: 1005, not 5").isEqualTo(new byte[] {(byte) 0xda, 0x0f});
  }

  /** One held class of two with a conversion, a buffer's class with one, and a generated class's model. */
  @Test
  void eachHeldClass_decidedByItself_inEveryModel() {
    GenericData model = new GenericData();
    model.addLogicalTypeConversion(new Shifted<>(String.class, "uuid", v -> v, v -> v.toUpperCase()));
    model.addLogicalTypeConversion(new org.apache.avro.Conversions.UUIDConversion());
    model.addLogicalTypeConversion(new Doubled());
    model.addLogicalTypeConversion(new org.apache.avro.Conversions.DecimalConversion());
    for (Object[] pair : new Object[][] {{UUID_STRING, "abc-def"}, {UUID_STRING, new Utf8("abc-def")},
        {DECIMAL, ByteBuffer.wrap(new byte[] {1, 2})}, {DECIMAL, ByteBuffer.allocateDirect(1)},
        {DECIMAL, new BigDecimal("1.25")}}) {
      Schema schema = (Schema) pair[0];
      ByteSink sink = new ByteSink();
      EncoderCompiler.compile(schema, model).encode(pair[1], sink);
      assertThat(sink.toByteArray()).as("%s", pair[1])
          .isEqualTo(AvroBytes.written(new GenericDatumWriter<>(schema, model), pair[1]));
    }
    org.apache.avro.specific.SpecificData specific = new org.apache.avro.specific.SpecificData();
    specific.addLogicalTypeConversion(new org.apache.avro.Conversions.UUIDConversion());
    for (Object value : List.of("7c0c1c3e-6b1a-4c2e-9d8f-0a1b2c3d4e5f", new Utf8("x"), new UUID(3, 4))) {
      ByteSink sink = new ByteSink();
      EncoderCompiler.compile(UUID_STRING, specific).encode(value, sink);
      assertThat(sink.toByteArray()).as("%s", value).isEqualTo(AvroBytes.written(
          new org.apache.avro.specific.SpecificDatumWriter<>(UUID_STRING, specific), value));
    }
  }

  /** A conversion for the heap buffers {@code ByteBuffer.wrap} makes, on decimals: every byte twice. */
  private static final class Doubled extends org.apache.avro.Conversion<ByteBuffer> {
    @SuppressWarnings("unchecked")
    @Override
    public Class<ByteBuffer> getConvertedType() {
      return (Class<ByteBuffer>) ByteBuffer.wrap(new byte[0]).getClass();
    }

    @Override
    public String getLogicalTypeName() {
      return "decimal";
    }

    @Override
    public ByteBuffer toBytes(ByteBuffer value, Schema schema, org.apache.avro.LogicalType logical) {
      byte[] doubled = new byte[value.remaining() * 2];
      for (int i = 0; i < doubled.length; i++) {
        doubled[i] = value.get(value.position() + i / 2);
      }
      return ByteBuffer.wrap(doubled);
    }
  }

  /** A conversion of {@code type} values for the logical type {@code name}, to and from ints, longs or strings. */
  private static final class Shifted<T> extends org.apache.avro.Conversion<T> {
    private final Class<T> type;
    private final String name;
    private final java.util.function.UnaryOperator<T> toRaw;
    private final java.util.function.UnaryOperator<T> toText;

    Shifted(Class<T> type, String name, java.util.function.UnaryOperator<T> toRaw,
        java.util.function.UnaryOperator<T> toText) {
      this.type = type;
      this.name = name;
      this.toRaw = toRaw;
      this.toText = toText;
    }

    @Override
    public Class<T> getConvertedType() {
      return type;
    }

    @Override
    public String getLogicalTypeName() {
      return name;
    }

    @Override
    public Integer toInt(T value, Schema schema, org.apache.avro.LogicalType logical) {
      return (Integer) toRaw.apply(value);
    }

    @Override
    public Long toLong(T value, Schema schema, org.apache.avro.LogicalType logical) {
      return (Long) toRaw.apply(value);
    }

    @Override
    public CharSequence toCharSequence(T value, Schema schema, org.apache.avro.LogicalType logical) {
      return (CharSequence) toText.apply(value);
    }
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
