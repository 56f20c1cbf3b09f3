package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * The compiled encoder on classes shaped as avro-maven-plugin generates them: the bytes of Avro's
 * {@code SpecificDatumWriter}, which reads every field through {@code get(int)}; also when a getter does not read
 * the field its name says (a custom template's default or narrowing), for a subclass whose getter answers
 * otherwise, and for a float's raw bits.
 */
class GeneratedRecordEncoderTest {
  private static final SpecificData MODEL = new SpecificData();

  static {
    // As the serializer's planner does before compiling: the classes of the records the application hands it.
    ClassTrust.trustGenerated(Plain.class, Plain.SCHEMA);
    ClassTrust.trustGenerated(Swapped.class, Swapped.SCHEMA);
    ClassTrust.trustGenerated(Templated.class, Templated.SCHEMA);
  }

  @Test
  void generatedClass_primitivesThroughGetters_sameBytesAsAvro() {
    for (int i = 0; i < 50; i++) {
      Plain value = new Plain();
      value.put(0, 1L << i | i);
      value.put(1, -i * 1_000_003);
      value.put(2, i / 3f);
      value.put(3, -i / 7d);
      value.put(4, i % 2 == 0);
      value.put(5, "name " + i);
      value.put(6, i % 3 == 0);

      assertSameBytesAsAvro(Plain.SCHEMA, value);
    }
  }

  @Test
  void aGetterThatReadsAnotherField_notUsed_sameBytesAsAvro() {
    Swapped value = new Swapped();
    value.put(0, 1L);
    value.put(1, 2L);

    assertSameBytesAsAvro(Swapped.SCHEMA, value);
  }

  @Test
  void gettersOfACustomTemplate_differFromGet_sameBytesAsAvro() {
    // Values a probe of small non-zero numbers never tries: the getters answer otherwise only for these.
    Templated value = new Templated();
    value.put(0, 0L); // getSeq() gives its default for 0
    value.put(1, 1L << 40); // getTotal() narrows to an int
    value.put(2, 5); // getLimit() depends on another field
    assertSameBytesAsAvro(Templated.SCHEMA, value);
  }

  @Test
  void floatSignalingNaN_rawBitsKept_sameBytesAsAvro() {
    Plain value = new Plain();
    value.put(2, Float.intBitsToFloat(0x7f800001));
    value.put(5, "nan");

    ByteSink sink = new ByteSink();
    EncoderCompiler.compile(Plain.SCHEMA, MODEL).encode(value, sink);

    byte[] avro = avroBytes(Plain.SCHEMA, value);
    assertThat(sink.toByteArray()).isEqualTo(avro);
    // seq 0 and count 0 take a byte each; the float's four bytes follow, little-endian, as they were.
    assertThat(java.util.Arrays.copyOfRange(avro, 2, 6)).containsExactly(0x01, 0x00, 0x80, 0x7f);
  }

  @Test
  void aSubclassWhoseGetterAnswersOtherwise_writtenByGet_sameBytesAsAvro() {
    Plain value = new Plain() {
      @Override
      public long getSeq() {
        return 99;
      }
    };
    value.put(0, 7L);
    value.put(5, "x");

    // An encoder compiled (and run) for the class itself first, then handed the subclass.
    CompiledEncoder encoder = EncoderCompiler.compile(Plain.SCHEMA, MODEL);
    Plain plain = new Plain();
    plain.put(5, "y");
    encoder.encode(plain, new ByteSink());
    ByteSink sink = new ByteSink();
    encoder.encode(value, sink);

    assertThat(sink.toByteArray()).isEqualTo(avroBytes(Plain.SCHEMA, value));
  }

  private static void assertSameBytesAsAvro(Schema schema, Object value) {
    ByteSink sink = new ByteSink();
    EncoderCompiler.compile(schema, MODEL).encode(value, sink);
    assertThat(sink.toByteArray()).as(value.toString()).isEqualTo(avroBytes(schema, value));
  }

  private static byte[] avroBytes(Schema schema, Object value) {
    return AvroBytes.written(new SpecificDatumWriter<>(schema, MODEL), value);
  }
}

/** Shaped as avro-maven-plugin generates a record: private fields, get(int), put(int, Object) and getters. */
class Plain extends SpecificRecordBase {
  static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Plain\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":[{\"name\":\"seq\",\"type\":\"long\"},"
      + "{\"name\":\"count\",\"type\":\"int\"},{\"name\":\"ratio\",\"type\":\"float\"},"
      + "{\"name\":\"score\",\"type\":\"double\"},{\"name\":\"active\",\"type\":\"boolean\"},"
      + "{\"name\":\"first_name\",\"type\":\"string\"},{\"name\":\"is_set\",\"type\":\"boolean\"}]}");
  private long seq;
  private int count;
  private float ratio;
  private double score;
  private boolean active;
  private CharSequence firstName = "";
  private boolean isSet;

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public Object get(int field) {
    return switch (field) {
      case 0 -> seq;
      case 1 -> count;
      case 2 -> ratio;
      case 3 -> score;
      case 4 -> active;
      case 5 -> firstName;
      case 6 -> isSet;
      default -> throw new IndexOutOfBoundsException("Invalid index: " + field);
    };
  }

  @Override
  public void put(int field, Object value) {
    switch (field) {
      case 0 -> seq = (Long) value;
      case 1 -> count = (Integer) value;
      case 2 -> ratio = (Float) value;
      case 3 -> score = (Double) value;
      case 4 -> active = (Boolean) value;
      case 5 -> firstName = (CharSequence) value;
      case 6 -> isSet = (Boolean) value;
      default -> throw new IndexOutOfBoundsException("Invalid index: " + field);
    }
  }

  public long getSeq() {
    return seq;
  }

  public int getCount() {
    return count;
  }

  public float getRatio() {
    return ratio;
  }

  public double getScore() {
    return score;
  }

  public boolean getActive() {
    return active;
  }

  public CharSequence getFirstName() {
    return firstName;
  }

  public boolean getIsSet() {
    return isSet;
  }
}

/** A record whose getters read each other's field (a hand-edited class): the encoder must not trust the names. */
class Swapped extends SpecificRecordBase {
  static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Swapped\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":[{\"name\":\"a\",\"type\":\"long\"},"
      + "{\"name\":\"b\",\"type\":\"long\"}]}");
  private long a;
  private long b;

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public Object get(int field) {
    return field == 0 ? a : b;
  }

  @Override
  public void put(int field, Object value) {
    if (field == 0) {
      a = (Long) value;
    } else {
      b = (Long) value;
    }
  }

  public long getA() {
    return b;
  }

  public long getB() {
    return a;
  }
}

/**
 * A record generated by a custom avro-maven-plugin template whose getters are not plain reads of their fields: a
 * default for 0, a narrowing to int, a value that depends on another field. Avro writes what {@code get(int)} gives.
 */
class Templated extends SpecificRecordBase {
  static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Templated\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":[{\"name\":\"seq\",\"type\":\"long\"},"
      + "{\"name\":\"total\",\"type\":\"long\"},{\"name\":\"limit\",\"type\":\"int\"}]}");
  private static final long DEFAULT_SEQ = 42;
  private long seq;
  private long total;
  private int limit;

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public Object get(int field) {
    return switch (field) {
      case 0 -> seq;
      case 1 -> total;
      case 2 -> limit;
      default -> throw new IndexOutOfBoundsException("Invalid index: " + field);
    };
  }

  @Override
  public void put(int field, Object value) {
    switch (field) {
      case 0 -> seq = (Long) value;
      case 1 -> total = (Long) value;
      case 2 -> limit = (Integer) value;
      default -> throw new IndexOutOfBoundsException("Invalid index: " + field);
    }
  }

  public long getSeq() {
    return seq == 0 ? DEFAULT_SEQ : seq;
  }

  public long getTotal() {
    return (int) total;
  }

  public int getLimit() {
    return total > Integer.MAX_VALUE ? Integer.MAX_VALUE : limit;
  }
}
