package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.apache.avro.reflect.ReflectData;
import org.apache.avro.reflect.ReflectDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * A Java record's {@code float} component written by the compiled encoder keeps its raw bits, a signaling NaN's
 * too, as Avro's {@code ReflectDatumWriter} writes them ({@code Float.floatToRawIntBits}).
 */
class JavaRecordFloatBitsTest {
  private static final ReflectData MODEL = new AvroDataModels(true, false).reflect();

  /** A record with a float beside the primitives that are written through typed accessors. */
  public record Reading(long at, float value, double mean) {}

  static {
    // As the serializer's planner does: Avro's reader and writer need the class trusted.
    ClassTrust.trust(Reading.class, MODEL.getSchema(Reading.class));
  }

  @Test
  void floatComponent_signalingNaN_sameBytesAsAvro() {
    for (int bits : new int[] {0x7f800001, 0xff800001, 0x7fbfffff, 0x7fc00000, 0x7fc00001, 0x00000001}) {
      Reading reading = new Reading(3, Float.intBitsToFloat(bits), Double.longBitsToDouble(0x7ff0000000000001L));
      Schema schema = MODEL.getSchema(Reading.class);

      ByteSink sink = new ByteSink();
      EncoderCompiler.compile(schema, MODEL, Reading.class).encode(reading, sink);

      byte[] avro = avro(schema, reading);
      assertThat(sink.toByteArray()).as(Integer.toHexString(bits)).isEqualTo(avro);
      // The float's four bytes, little-endian, as they were (Avro's reflection orders the fields its own way).
      assertThat(sink.toByteArray()).as(Integer.toHexString(bits)).containsSequence((byte) bits, (byte) (bits >> 8),
          (byte) (bits >> 16), (byte) (bits >> 24));
    }
  }

  /**
   * Written through a float-returning accessor, not the boxing one (a boxed {@code Float} per record, 16 bytes,
   * which escape analysis removes in some call sites and not in others: this checks the path, not the heap).
   */
  @Test
  void floatComponent_writtenThroughAFloatAccessor_notBoxed() throws Exception {
    java.lang.reflect.RecordComponent value = Reading.class.getRecordComponents()[1];
    assertThat(value.getType()).isEqualTo(float.class);

    CompiledEncoder direct = JavaTypes.primitiveWriter(Reading.class, value, Schema.Type.FLOAT);

    assertThat(direct).as("a typed accessor for the float component").isNotNull();
    ByteSink sink = new ByteSink();
    direct.encode(new Reading(1, Float.intBitsToFloat(0x7f800001), 0), sink);
    assertThat(sink.toByteArray()).containsExactly(0x01, 0x00, (byte) 0x80, 0x7f);
  }

  private static byte[] avro(Schema schema, Object record) {
    return AvroBytes.written(new ReflectDatumWriter<>(schema, MODEL), record);
  }
}
