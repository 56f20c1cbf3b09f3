package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kavro.test.specific.Address;
import io.kavro.test.specific.Customer;
import io.kavro.test.specific.Measure;
import io.kavro.test.specific.Tier;
import io.kavro.test.specific.Zip;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * The writer spun per generated record class ({@link SpunWriter}): taken for a generated class with Avro's
 * specific model, the bytes of Avro's {@code SpecificDatumWriter} for every field kind, the failures of the loop
 * encoder, and the loop itself where the class cannot be spun (Kavro's loader does not see it, another model).
 */
class SpunWriterTest {
  private static final SpecificData CUSTOMER_MODEL = new Customer().getSpecificData();
  private static final SpecificData MODEL = new SpecificData();

  static {
    // As the serializer's planner does before compiling: the classes of the records the application hands it.
    ClassTrust.trustGenerated(Customer.class, Customer.SCHEMA$);
    ClassTrust.trustGenerated(Measure.class, Measure.SCHEMA$);
    ClassTrust.trustGenerated(Leaves.class, Leaves.SCHEMA);
    ClassTrust.trustGenerated(Plain.class, Plain.SCHEMA);
    ClassTrust.trustGenerated(Holder.class, Holder.SCHEMA);
  }

  @Test
  void generatedClass_spun_sameBytesAsAvro() {
    CompiledEncoder encoder = EncoderCompiler.compile(Customer.SCHEMA$, CUSTOMER_MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).isNotNull();
    for (int i = 0; i < 20; i++) {
      Customer customer = Customer.newBuilder()
          .setId(-(1L << i) + i)
          .setName("name " + i + (i % 3 == 0 ? " é€" : ""))
          .setEmail(i % 2 == 0 ? null : "e" + i + "@example.com")
          .setTier(Tier.values()[i % 3])
          .setBalance(new BigDecimal(i * 1_234_567L).movePointLeft(2))
          .setSince(LocalDate.ofEpochDay(19_000 + i))
          .setUpdated(Instant.ofEpochMilli(1_700_000_000_000L + i))
          .setTags(List.of("t" + i, "u"))
          .setAddress(i % 4 == 0 ? null
              : new Address("street " + i, new Zip(new byte[] {1, 2, 3, 4, (byte) i})))
          .build();
      assertSameBytesAsAvro(encoder, Customer.SCHEMA$, CUSTOMER_MODEL, customer);
    }
  }

  @Test
  void everyLeafKind_spun_sameBytesAsAvro() {
    CompiledEncoder encoder = EncoderCompiler.compile(Leaves.SCHEMA, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).isNotNull();
    for (int i = 0; i < 20; i++) {
      Leaves value = Leaves.of(i % 2 == 0, -i * 1_000_003, (1L << (i * 3)) + i, i / 3f, -i / 7d,
          i % 5 == 0 ? new Utf8("utf8 " + i) : "string " + i, ByteBuffer.wrap(new byte[] {(byte) i, 7}),
          Tier.values()[i % 3], i % 3 == 0 ? null : "first " + i, i % 2 == 0 ? null : new Utf8("last " + i),
          plain(i));
      assertSameBytesAsAvro(encoder, Leaves.SCHEMA, MODEL, value);
      assertSameBytesAsAvro(EncoderCompiler.compile(Plain.SCHEMA, MODEL), Plain.SCHEMA, MODEL, plain(i));
    }
  }

  @Test
  void valuesALeafDoesNotTake_writtenByTheLoop_sameBytesAsAvro() {
    // A StringBuilder in a nullable string: Avro's union resolution takes it; a stringable in a string field.
    Leaves value = Leaves.of(true, 1, 2L, 3f, 4d, new BigDecimal("1.50"), ByteBuffer.wrap(new byte[0]), Tier.GOLD,
        new StringBuilder("built"), new StringBuilder("also"), plain(3));
    CompiledEncoder encoder = EncoderCompiler.compile(Leaves.SCHEMA, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).as("spun: the fallback is what is tested").isNotNull();

    ByteSink sink = new ByteSink();
    sink.write(new byte[] {9, 9}, 0, 2); // a write that does not start the sink: rewound to its own start only
    encoder.encode(value, sink);

    byte[] avro = avroBytes(Leaves.SCHEMA, MODEL, value);
    assertThat(java.util.Arrays.copyOfRange(sink.toByteArray(), 2, sink.size())).isEqualTo(avro);
    assertThat(sink.toByteArray()[0]).isEqualTo((byte) 9);
  }

  @Test
  void nullInANonNullableField_sameFailureAsTheLoop() {
    Plain value = plain(1);
    value.put(5, null);
    CompiledEncoder encoder = EncoderCompiler.compile(Plain.SCHEMA, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).isNotNull();

    assertThatThrownBy(() -> encoder.encode(value, new ByteSink()))
        .isExactlyInstanceOf(NullPointerException.class)
        .hasMessage("null value for (non-nullable) field Plain.first_name");
  }

  @Test
  void nullInANonNullableFieldOfANestedRecord_sameFailureAsTheLoop() {
    Plain plain = plain(2);
    plain.put(5, null);
    Leaves value = Leaves.of(true, 1, 2L, 3f, 4d, "s", ByteBuffer.wrap(new byte[0]), Tier.GOLD, null, null, plain);
    CompiledEncoder encoder = EncoderCompiler.compile(Leaves.SCHEMA, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).isNotNull();

    assertThatThrownBy(() -> encoder.encode(value, new ByteSink()))
        .isExactlyInstanceOf(NullPointerException.class)
        .hasMessage("null value for (non-nullable) field Plain.first_name");
  }

  @Test
  void nullInANonNullableFieldWithoutALeaf_aRecordThatWritesNothing_refusedAsTheLoopRefusesIt() {
    // The encoder of a record without fields writes nothing, even for null: only the null check refuses it.
    Holder value = new Holder();
    value.put(0, 7L);
    value.put(1, null);
    CompiledEncoder encoder = EncoderCompiler.compile(Holder.SCHEMA, MODEL);
    assertThat(SpunWriter.spunOnly(encoder)).isNotNull();

    assertThatThrownBy(() -> encoder.encode(value, new ByteSink()))
        .isExactlyInstanceOf(NullPointerException.class)
        .hasMessage("null value for (non-nullable) field Holder.nothing");
    assertThatThrownBy(() -> SpunWriter.spunOnly(encoder).encode(value, new ByteSink()))
        .as("the spun class alone refuses it too").isInstanceOf(NullPointerException.class);
  }

  @Test
  void aMethodTooLongForTheJit_noClass_theLoopWrites() {
    int[] positions = java.util.stream.IntStream.range(0, 1_000).toArray();
    boolean[] nullable = new boolean[positions.length];
    List<String> encoders = java.util.Collections.nCopies(positions.length, null);
    assertThat(SpunClassFile.of(Leaves.class.getName(), positions, encoders, nullable))
        .as("1,000 fields through their encoders: %s bytes of code at least", 1_000 * 21).isNull();
    int[] few = java.util.stream.IntStream.range(0, 300).toArray();
    assertThat(SpunClassFile.of(Leaves.class.getName(), few, java.util.Collections.nCopies(300, null),
        new boolean[300])).as("300 fields: %s bytes at most", 6 + 300 * 24).isNotNull();
  }

  @Test
  void stringsOfAnotherJavaClass_noLeaf_theirEncoderWrites() {
    Schema decimalText = new Schema.Parser().parse("{\"type\":\"string\",\"java-class\":\"java.math.BigDecimal\"}");
    assertThat(SpunWriter.leaf(decimalText)).isNull();
    assertThat(SpunWriter.leaf(Schema.createUnion(Schema.create(Schema.Type.NULL), decimalText))).isNull();
    assertThat(SpunWriter.leaf(Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING))))
        .isEqualTo("writeNullOrString");
  }

  @Test
  void aWrongType_sameFailureAsTheLoop() {
    Leaves value = Leaves.of(true, "not an int", 2L, 3f, 4d, "s", ByteBuffer.wrap(new byte[0]), Tier.GOLD, null,
        null, plain(3));
    // A subclass of the specific model is never spun: its failure is the loop's.
    Throwable loop = catchThrowable(() -> EncoderCompiler.compile(Leaves.SCHEMA, new SpecificData() { })
        .encode(value, new ByteSink()));
    Throwable spun = catchThrowable(() -> EncoderCompiler.compile(Leaves.SCHEMA, MODEL)
        .encode(value, new ByteSink()));

    assertThat(loop).isInstanceOf(ClassCastException.class);
    assertThat(spun).isExactlyInstanceOf(loop.getClass()).hasMessage(loop.getMessage());
  }

  @Test
  void aClassKavrosLoaderDoesNotSee_notSpun_sameBytesAsAvro() throws Exception {
    ClassLoader isolated = new CopyingLoader(Measure.class.getName(), getClass().getClassLoader());
    SpecificData model = new SpecificData(isolated);
    ClassTrust.trustGenerated(isolated.loadClass(Measure.class.getName()), Measure.SCHEMA$);
    Class<?> copy = model.getClass(Measure.SCHEMA$);
    assertThat(copy).isNotNull().isNotEqualTo(Measure.class);
    IndexedRecord value = (IndexedRecord) copy.getConstructor().newInstance();
    value.put(0, 42L);
    value.put(1, 0.25d);

    CompiledEncoder encoder = EncoderCompiler.compile(Measure.SCHEMA$, model);

    assertThat(SpunWriter.spunOnly(encoder)).isNull();
    assertSameBytesAsAvro(encoder, Measure.SCHEMA$, model, value);
  }

  @Test
  void anotherModel_notSpun_theGenericModelsClassTakesGenericRecordsAlone() {
    assertThat(SpunWriter.spunOnly(EncoderCompiler.compile(Plain.SCHEMA, new SpecificData() { }))).isNull();
    // The generic model's spun writer takes GenericData.Record alone (SpunGenericWriterTest): a Plain goes to the loop.
    CompiledEncoder generic = EncoderCompiler.compile(Plain.SCHEMA, org.apache.avro.generic.GenericData.get());
    ByteSink sink = new ByteSink();
    generic.encode(plain(3), sink);
    assertThat(sink.toByteArray()).isEqualTo(avroBytes(Plain.SCHEMA, MODEL, plain(3)));
  }

  private static Plain plain(int i) {
    Plain plain = new Plain();
    plain.put(0, (long) i << 20);
    plain.put(1, i);
    plain.put(2, i * 1.5f);
    plain.put(3, i * -2.5d);
    plain.put(4, i % 2 == 1);
    plain.put(5, "plain " + i);
    plain.put(6, i % 3 == 1);
    return plain;
  }

  private static void assertSameBytesAsAvro(CompiledEncoder encoder, Schema schema, SpecificData model,
      Object value) {
    byte[] avro = avroBytes(schema, model, value);
    ByteSink sink = new ByteSink();
    encoder.encode(value, sink);
    assertThat(sink.toByteArray()).as(value.toString()).isEqualTo(avro);
    CompiledEncoder spun = SpunWriter.spunOnly(encoder);
    if (spun != null) { // and the spun class alone, which must not need the loop for a value that fits
      ByteSink alone = new ByteSink();
      spun.encode(value, alone);
      assertThat(alone.toByteArray()).as(value.toString()).isEqualTo(avro);
    }
  }

  private static byte[] avroBytes(Schema schema, SpecificData model, Object value) {
    return AvroBytes.written(new SpecificDatumWriter<>(schema, model), value);
  }

  /** Defines its own copy of one class from its parent's bytes: a class the parent's code does not see. */
  private static final class CopyingLoader extends ClassLoader {
    private final String name;

    CopyingLoader(String name, ClassLoader parent) {
      super(parent);
      this.name = name;
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve) throws ClassNotFoundException {
      if (!className.equals(name)) {
        return super.loadClass(className, resolve);
      }
      synchronized (getClassLoadingLock(className)) {
        Class<?> loaded = findLoadedClass(className);
        if (loaded != null) {
          return loaded;
        }
        try (InputStream in = getParent().getResourceAsStream(className.replace('.', '/') + ".class")) {
          byte[] bytes = in.readAllBytes();
          return defineClass(className, bytes, 0, bytes.length);
        } catch (IOException e) {
          throw new ClassNotFoundException(className, e);
        }
      }
    }
  }
}

/**
 * Shaped as avro-maven-plugin generates a record, with a field of every kind a leaf of the spun writer writes, its
 * values held as {@code Object} (as a generated class with a loose template might), and a nested record.
 */
class Leaves extends FieldsInAnArray {
  static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Leaves\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":["
      + "{\"name\":\"b\",\"type\":\"boolean\"},{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"l\",\"type\":\"long\"},"
      + "{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"},"
      + "{\"name\":\"s\",\"type\":\"string\"},{\"name\":\"y\",\"type\":\"bytes\"},"
      + "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"Tier\",\"namespace\":\"io.kavro.test.specific\","
      + "\"symbols\":[\"BRONZE\",\"SILVER\",\"GOLD\"]}},"
      + "{\"name\":\"first\",\"type\":[\"null\",\"string\"]},{\"name\":\"last\",\"type\":[\"string\",\"null\"]},"
      + "{\"name\":\"plain\",\"type\":" + Plain.SCHEMA + "}]}");

  Leaves() {
    super(SCHEMA);
  }

  static Leaves of(Object... values) {
    Leaves leaves = new Leaves();
    for (int i = 0; i < values.length; i++) {
      leaves.put(i, values[i]);
    }
    return leaves;
  }
}

/** Shaped as a generated record with a non-nullable field of a record type without fields. */
class Holder extends FieldsInAnArray {
  static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Holder\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":[{\"name\":\"n\",\"type\":\"long\"},"
      + "{\"name\":\"nothing\",\"type\":{\"type\":\"record\",\"name\":\"NoFields\",\"fields\":[]}}]}");

  Holder() {
    super(SCHEMA);
  }
}

/** A record shaped as a generated one whose fields are held in an array, as {@code Object}. */
abstract class FieldsInAnArray extends SpecificRecordBase {
  private final Schema schema;
  private final Object[] values;

  FieldsInAnArray(Schema schema) {
    this.schema = schema;
    this.values = new Object[schema.getFields().size()];
  }

  @Override
  public Schema getSchema() {
    return schema;
  }

  @Override
  public Object get(int field) {
    return values[field];
  }

  @Override
  public void put(int field, Object value) {
    values[field] = value;
  }
}
