package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificFixed;
import org.apache.avro.specific.SpecificRecordBase;
import org.junit.jupiter.api.Test;

/**
 * The compiled decoder makes generated record and fixed classes through the constructor it spun for them, not
 * through Avro's specific model per value (the model's reflective constructor call is what the spun one replaces):
 * a fallback to the model's path, silent otherwise, fails here.
 */
class GeneratedRecordDecoderTest {
  private static final SpecificData MODEL = new SpecificData();

  static {
    ClassTrust.trustGenerated(Counted.class, Counted.SCHEMA);
  }

  @Test
  void generatedRecordAndFixed_madeByTheSpunConstructor_notAvrosModel() throws IOException {
    byte[] body = avroBytes(sample());
    CompiledDecoder decoder = DecoderCompiler.compile(Counted.SCHEMA, Counted.SCHEMA, MODEL);
    Counted.throughAvro = 0;
    CountedTag.throughAvro = 0;

    Object read = decoder.decode(new BoundedBinaryDecoder().reset(body, 0, body.length));

    assertThat(read).isInstanceOf(Counted.class).isEqualTo(sample());
    assertThat(((Counted) read).tag).isInstanceOf(CountedTag.class);
    assertThat(Counted.throughAvro).as("records made through Avro's model").isZero();
    assertThat(CountedTag.throughAvro).as("fixed values made through Avro's model").isZero();
  }

  @Test
  void avrosOwnReader_seenMakingThroughItsModel() throws IOException {
    // The check above can fail: Avro's own reader makes both classes through its model, and is seen doing it.
    byte[] body = avroBytes(sample());
    Counted.throughAvro = 0;
    CountedTag.throughAvro = 0;

    Object read = new SpecificDatumReader<>(Counted.SCHEMA, Counted.SCHEMA, MODEL).read(null,
        DecoderFactory.get().binaryDecoder(body, null));

    assertThat(read).isEqualTo(sample());
    assertThat(Counted.throughAvro).isPositive();
    assertThat(CountedTag.throughAvro).isPositive();
  }

  private static Counted sample() {
    Counted value = new Counted();
    value.put(0, 77L);
    CountedTag tag = new CountedTag();
    tag.bytes(new byte[] {4, 2});
    value.put(1, tag);
    return value;
  }

  private static byte[] avroBytes(Counted value) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new SpecificDatumWriter<>(Counted.SCHEMA, MODEL).write(value, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  /** Whether the caller making an instance is Avro's code (its specific model), found on the stack. */
  static boolean madeThroughAvro() {
    return StackWalker.getInstance().walk(frames -> frames.skip(2)
        .anyMatch(frame -> frame.getClassName().startsWith("org.apache.avro.")));
  }
}

/** Shaped as avro-maven-plugin generates a record; counts the instances Avro's model makes. */
class Counted extends SpecificRecordBase {
  static final Schema SCHEMA = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Counted\","
      + "\"namespace\":\"io.kavro.serde\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
      + "{\"name\":\"tag\",\"type\":{\"type\":\"fixed\",\"name\":\"CountedTag\",\"size\":2}}]}");
  static int throughAvro;
  long id;
  CountedTag tag;

  /** As generated: public, no arguments. */
  public Counted() {
    if (GeneratedRecordDecoderTest.madeThroughAvro()) {
      throughAvro++;
    }
  }

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public Object get(int field) {
    return field == 0 ? id : tag;
  }

  @Override
  public void put(int field, Object value) {
    if (field == 0) {
      id = (Long) value;
    } else {
      tag = (CountedTag) value;
    }
  }
}

/** Shaped as avro-maven-plugin generates a fixed; counts the instances Avro's model makes. */
class CountedTag extends SpecificFixed {
  private static final long serialVersionUID = 1L;
  static final Schema SCHEMA = Counted.SCHEMA.getField("tag").schema();
  static int throughAvro;

  /** As generated: public, no arguments. */
  public CountedTag() {
    if (GeneratedRecordDecoderTest.madeThroughAvro()) {
      throughAvro++;
    }
  }

  @Override
  public Schema getSchema() {
    return SCHEMA;
  }

  @Override
  public void writeExternal(java.io.ObjectOutput out) throws IOException {
    out.write(bytes());
  }

  @Override
  public void readExternal(java.io.ObjectInput in) throws IOException {
    in.readFully(bytes());
  }
}
