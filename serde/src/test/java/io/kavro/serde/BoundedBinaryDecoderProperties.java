package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import io.kavro.serde.Property;
import org.junit.jupiter.api.Test;

/**
 * The decoder's varints against Avro's own, on both of its paths: far from the end of the slice (no check
 * per byte) and near it (a check per byte).
 */
class BoundedBinaryDecoderProperties {

  @Test
  void int_readsWhatAvroWrote() {
    Property.forAll("int", Property.tries(2000), seed -> seed, seed -> {
      java.util.Random random = new java.util.Random(seed);
      int value = random.nextInt(4) == 0 ? random.nextInt(256) - 128 : random.nextInt();
      intReadsWhatAvroWrote(value, random.nextInt(13));
    });
  }

  private static void intReadsWhatAvroWrote(int value, int trailing) throws IOException {
    byte[] bytes = padded(encoded(e -> e.writeInt(value)), trailing);
    BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(bytes, 1, bytes.length - 1);

    assertThat(in.readInt()).isEqualTo(value);
    assertThat(in.remaining()).isEqualTo(trailing);
  }

  @Test
  void long_readsWhatAvroWrote() {
    Property.forAll("long", Property.tries(2000), seed -> seed, seed -> {
      java.util.Random random = new java.util.Random(seed);
      long value = random.nextInt(4) == 0 ? random.nextInt(256) - 128 : random.nextLong() >> random.nextInt(64);
      longReadsWhatAvroWrote(value, random.nextInt(13));
    });
  }

  private static void longReadsWhatAvroWrote(long value, int trailing) throws IOException {
    byte[] bytes = padded(encoded(e -> e.writeLong(value)), trailing);
    BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(bytes, 1, bytes.length - 1);

    assertThat(in.readLong()).isEqualTo(value);
    assertThat(in.remaining()).isEqualTo(trailing);
  }

  /** Any bytes: the same value as Avro's decoder, or an error where Avro has one. */
  @Test
  void anyBytes_sameVarintsAsAvro() {
    Property.forAll("varints", Property.tries(5000), seed -> seed, seed -> {
      java.util.Random random = new java.util.Random(seed);
      byte[] bytes = new byte[random.nextInt(15)];
      random.nextBytes(bytes);
      anyBytesSameVarintsAsAvro(bytes, random.nextBoolean());
    });
  }

  private static void anyBytesSameVarintsAsAvro(byte[] bytes, boolean asLong) {
    Object expected = varint(() -> {
      BinaryDecoder avro = DecoderFactory.get().binaryDecoder(bytes, null);
      return asLong ? avro.readLong() : avro.readInt();
    });
    Object actual = varint(() -> {
      BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(bytes, 0, bytes.length);
      return asLong ? in.readLong() : in.readInt();
    });
    assertThat(actual).isEqualTo(expected);
  }

  @Test
  void varint_tooLong_fails_onBothPaths() {
    byte[] elevenBytes = new byte[11];
    Arrays.fill(elevenBytes, (byte) 0x80);
    byte[] far = Arrays.copyOf(elevenBytes, 40);
    assertThatThrownBy(() -> new BoundedBinaryDecoder().reset(far, 0, far.length).readLong())
        .isInstanceOf(IOException.class).hasMessageContaining("invalid long varint");
    assertThatThrownBy(() -> new BoundedBinaryDecoder().reset(far, 0, far.length).readInt())
        .isInstanceOf(IOException.class).hasMessageContaining("invalid int varint");
    assertThatThrownBy(() -> new BoundedBinaryDecoder().reset(elevenBytes, 0, 11).readLong())
        .isInstanceOf(IOException.class).hasMessageContaining("invalid long varint");
    byte[] fiveBytes = Arrays.copyOf(elevenBytes, 5);
    assertThatThrownBy(() -> new BoundedBinaryDecoder().reset(fiveBytes, 0, 5).readInt())
        .isInstanceOf(IOException.class).hasMessageContaining("invalid int varint");
  }

  @Test
  void varint_cutShort_fails_asTruncated() {
    byte[] bytes = {(byte) 0x80, (byte) 0x80, 0, 0};
    assertThatThrownBy(() -> new BoundedBinaryDecoder().reset(bytes, 0, 2).readLong())
        .isInstanceOf(java.io.EOFException.class).hasMessageContaining("truncated");
  }

  private interface Read {
    long read() throws IOException;
  }

  private interface Write {
    void write(BinaryEncoder encoder) throws IOException;
  }

  /** The value read, or "error" for any exception: Avro fails with EOF or "Invalid ... encoding". */
  private static Object varint(Read read) {
    try {
      return read.read();
    } catch (IOException | RuntimeException e) {
      return "error";
    }
  }

  private static byte[] encoded(Write write) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    write.write(encoder);
    encoder.flush();
    return out.toByteArray();
  }

  /** One leading junk byte outside the slice, then the varint, then {@code trailing} zero bytes. */
  private static byte[] padded(byte[] varint, int trailing) {
    byte[] bytes = new byte[1 + varint.length + trailing];
    bytes[0] = (byte) 0xff;
    System.arraycopy(varint, 0, bytes, 1, varint.length);
    return bytes;
  }
}
