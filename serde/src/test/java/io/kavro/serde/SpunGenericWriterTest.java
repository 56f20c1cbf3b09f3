package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.IndexedRecord;
import org.junit.jupiter.api.Test;

/**
 * The writer spun per shape of generic record ({@link SpunWriter#ofGeneric}): Avro's bytes for every field kind,
 * by the spun class alone too (an enum symbol, a string and a nullable string by the generic model's rules, not the
 * specific leaves), one class per shape (nullability included), the loop's failures, and the loop for any other
 * record class or model.
 */
class SpunGenericWriterTest {
  private static final GenericData MODEL = new AvroDataModels(true, false).generic();
  private static final Schema EVERY_KIND = SpunReaderTest.EVERY_KIND;

  @Test
  void everyKindOfField_spun_sameBytesAsAvro() {
    CompiledEncoder encoder = EncoderCompiler.compile(EVERY_KIND, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).isNotNull();

    for (int i = 0; i < 20; i++) {
      GenericData.Record record = SpunReaderTest.everyKind(i);
      record.put("name", i % 2 == 0 ? "a String " + i : new org.apache.avro.util.Utf8("a Utf8 é€ " + i));
      record.put("javaName", new StringBuilder("a builder ").append(i)); // any CharSequence
      byte[] avro = AvroBytes.written(new GenericDatumWriter<>(EVERY_KIND, MODEL), record);

      assertThat(written(encoder, record)).as("record %d", i).isEqualTo(avro);
      assertThat(written(SpunWriter.spunOnly(encoder), record)).as("the spun class alone, record %d", i)
          .isEqualTo(avro);
    }
  }

  @Test
  void aNonStringInAStringField_refusedAsAvroRefusesIt_byTheSpunClassAloneToo() {
    GenericData.Record record = SpunReaderTest.everyKind(1);
    record.put("name", java.net.URI.create("urn:not-a-char-sequence")); // the specific model would write its text
    CompiledEncoder encoder = EncoderCompiler.compile(EVERY_KIND, MODEL);

    assertThatThrownBy(() -> AvroBytes.written(new GenericDatumWriter<>(EVERY_KIND, MODEL), record))
        .isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> encoder.encode(record, new ByteSink())).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> SpunWriter.spunOnly(encoder).encode(record, new ByteSink()))
        .isInstanceOf(ClassCastException.class);
  }

  /**
   * A value whose class fails to link (the datum's fault, not the spun class's) is thrown as it is, and the spun
   * class stays on: the next record is written by it, with Avro's bytes.
   */
  @Test
  void aValueThatFailsToLink_isThrown_andTheSpunClassStays() {
    CompiledEncoder encoder = EncoderCompiler.compile(EVERY_KIND, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).as("spun: its fallback is what is tested").isNotNull();
    GenericData.Record bad = SpunReaderTest.everyKind(1);
    bad.put("name", new UnlinkableText());

    assertThatThrownBy(() -> encoder.encode(bad, new ByteSink())).isInstanceOf(NoClassDefFoundError.class);

    assertThat(SpunWriter.unlinked(encoder)).as("the spun class switched off").isFalse();
    GenericData.Record good = SpunReaderTest.everyKind(2);
    assertThat(written(encoder, good))
        .isEqualTo(AvroBytes.written(new GenericDatumWriter<>(EVERY_KIND, MODEL), good));
  }

  /**
   * A value whose class's static initializer fails in a spun write is thrown as that error, with the initializer's
   * cause (the loop would meet only "Could not initialize class", which on Java 17 carries none).
   */
  @Test
  void aValueWhoseInitializerFails_isThrownWithItsCause() {
    CompiledEncoder encoder = EncoderCompiler.compile(EVERY_KIND, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).as("spun: its fallback is what is tested").isNotNull();
    GenericData.Record bad = SpunReaderTest.everyKind(1);
    bad.put("name", new InitFails());

    assertThatThrownBy(() -> encoder.encode(bad, new ByteSink())).isInstanceOf(ExceptionInInitializerError.class)
        .hasRootCauseMessage("a library missing at run time");
    assertThat(SpunWriter.unlinked(encoder)).isFalse();
  }

  /** A text whose writing first initializes a class whose initializer fails. */
  private static final class InitFails implements CharSequence {
    @Override
    public int length() {
      return Holder.LENGTH;
    }

    @Override
    public char charAt(int index) {
      return (char) Holder.LENGTH;
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return this;
    }

    @Override
    public String toString() {
      return "x".repeat(Holder.LENGTH);
    }

    /** Fails to initialize. */
    private static final class Holder {
      static final int LENGTH = fail();

      private static int fail() {
        throw new IllegalStateException("a library missing at run time");
      }
    }
  }

  @Test
  void aNullableStringOfAnyCharSequence_writtenByTheSpunClassAlone() {
    // Its union encoder, not a leaf that takes a String or a Utf8 alone and would fail over to the loop per record.
    GenericData.Record record = SpunReaderTest.everyKind(1);
    record.put("nick", new StringBuilder("a builder"));

    assertThat(written(SpunWriter.spunOnly(EncoderCompiler.compile(EVERY_KIND, MODEL)), record))
        .isEqualTo(AvroBytes.written(new GenericDatumWriter<>(EVERY_KIND, MODEL), record));
  }

  @Test
  void whetherAFieldTakesNull_isPartOfTheShape() {
    Schema empty = SchemaBuilder.record("Empty").fields().endRecord();
    Schema required = SchemaBuilder.record("Outer").fields().name("a").type(empty).noDefault().endRecord();
    Schema optional = SchemaBuilder.record("Outer").fields().name("a").type().unionOf().nullType().and()
        .type(empty).endUnion().noDefault().endRecord();
    GenericData.Record missing = new GenericData.Record(required);

    assertThat(spunClass(required)).isNotSameAs(spunClass(optional));
    // The record in the field writes nothing: only the spun class's null check can refuse the null.
    assertThatThrownBy(() -> EncoderCompiler.compile(required, MODEL).encode(missing, new ByteSink()))
        .isInstanceOf(NullPointerException.class).hasMessage("null value for (non-nullable) field Outer.a");
  }

  @Test
  void oneShape_eachSchemasOwnNestedEncoders() {
    Schema ofArray = SchemaBuilder.record("A").fields().requiredInt("n").name("v").type().array().items().longType()
        .noDefault().endRecord();
    Schema ofMap = SchemaBuilder.record("M").fields().requiredInt("n").name("v").type().map().values().longType()
        .noDefault().endRecord();
    GenericData.Record array = new GenericData.Record(ofArray);
    array.put("n", 1);
    array.put("v", java.util.List.of(2L, 3L));
    GenericData.Record map = new GenericData.Record(ofMap);
    map.put("n", 1);
    map.put("v", java.util.Map.of("k", 4L));

    assertThat(spunClass(ofArray)).isSameAs(spunClass(ofMap));
    assertThat(written(EncoderCompiler.compile(ofArray, MODEL), array))
        .isEqualTo(AvroBytes.written(new GenericDatumWriter<>(ofArray, MODEL), array));
    assertThat(written(EncoderCompiler.compile(ofMap, MODEL), map))
        .isEqualTo(AvroBytes.written(new GenericDatumWriter<>(ofMap, MODEL), map));
  }

  @Test
  void aSubclassOfTheGenericModel_notSpun() {
    assertThat(SpunWriter.spunOnly(EncoderCompiler.compile(EVERY_KIND, new GenericData() { }))).isNull();
  }

  @Test
  void sameShape_oneClass_otherShape_another() {
    Schema one = SchemaBuilder.record("One").namespace("a").fields().requiredInt("x").optionalString("y")
        .endRecord();
    Schema two = SchemaBuilder.record("Two").namespace("b").fields().requiredInt("p").optionalString("q")
        .endRecord();
    Schema required = SchemaBuilder.record("Three").fields().requiredInt("x").requiredString("y").endRecord();

    Class<?> first = spunClass(one);

    assertThat(spunClass(two)).isSameAs(first);
    assertThat(spunClass(required)).isNotSameAs(first);
  }

  @Test
  void nullInANonNullableField_theLoopsFailure() {
    GenericData.Record record = SpunReaderTest.everyKind(2);
    record.put("count", null);
    CompiledEncoder encoder = EncoderCompiler.compile(EVERY_KIND, MODEL);

    assertThatThrownBy(() -> encoder.encode(record, new ByteSink())).isInstanceOf(NullPointerException.class)
        .hasMessage("null value for (non-nullable) field Every.count");
  }

  @Test
  void aWrongType_theLoopsFailure_thenTheNextRecordAsAFreshWriterWritesIt() {
    GenericData.Record bad = SpunReaderTest.everyKind(4);
    bad.put("big", "not a long");
    GenericData.Record good = SpunReaderTest.everyKind(5);
    CompiledEncoder encoder = EncoderCompiler.compile(EVERY_KIND, MODEL);

    ByteSink sink = new ByteSink();
    // The type only: once hot, the JIT may throw a preallocated ClassCastException without a message (the
    // serializer's WriteDiagnosis names the field).
    assertThatThrownBy(() -> encoder.encode(bad, sink)).isInstanceOf(ClassCastException.class);
    assertThatThrownBy(() -> EncoderCompiler.compile(EVERY_KIND, new GenericData() { }).encode(bad, new ByteSink()))
        .as("the loop alone").isInstanceOf(ClassCastException.class);
    sink.reset();

    encoder.encode(good, sink);
    assertThat(sink.toByteArray()).isEqualTo(AvroBytes.written(new GenericDatumWriter<>(EVERY_KIND, MODEL), good));
  }

  @Test
  void anotherRecordClass_writtenByTheLoop_sameBytesAsAvro() {
    Schema schema = SchemaBuilder.record("Pair").fields().requiredInt("a").requiredString("b").endRecord();
    IndexedRecord other = new IndexedRecord() { // not GenericData.Record: the spun class's cast would refuse it
      @Override
      public void put(int i, Object v) {
        throw new UnsupportedOperationException();
      }

      @Override
      public Object get(int i) {
        return i == 0 ? 42 : "forty-two";
      }

      @Override
      public Schema getSchema() {
        return schema;
      }
    };
    CompiledEncoder encoder = EncoderCompiler.compile(schema, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).isNotNull();

    assertThat(written(encoder, other))
        .isEqualTo(AvroBytes.written(new GenericDatumWriter<>(schema, MODEL), other));
  }

  @Test
  void specificModel_genericRecordsByTheLoop() {
    // A specific model writes strings and enums by its own rules (Java enums, stringable classes): no generic leaves.
    Schema schema = SchemaBuilder.record("NoClass").namespace("nowhere").fields().requiredInt("a").endRecord();
    assertThat(SpunWriter.spunOnly(EncoderCompiler.compile(schema, new org.apache.avro.specific.SpecificData())))
        .isNull();
  }

  private static Class<?> spunClass(Schema schema) {
    CompiledEncoder spun = SpunWriter.spunOnly(EncoderCompiler.compile(schema, MODEL));
    assertThat(spun).as(schema.getFullName()).isNotNull();
    return spun.getClass();
  }

  private static byte[] written(CompiledEncoder encoder, Object value) {
    ByteSink sink = new ByteSink();
    encoder.encode(value, sink);
    return sink.toByteArray();
  }
}
