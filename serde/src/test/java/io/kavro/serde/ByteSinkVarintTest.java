package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteSink}'s zig-zag varints against Avro's own encoder at every length's edges: the values whose zig-zag
 * form is each power of 128 and the one below it, of both signs, and the ends of the range.
 */
class ByteSinkVarintTest {

  @Test
  void everyIntLength_writesAvrosBytes() {
    for (long value : edges(32)) {
      int v = (int) value;
      ByteSink sink = new ByteSink();
      sink.write(7); // not at offset 0: the offsets count from what is already there
      sink.writeInt(v);
      sink.write(9);
      assertThat(sink.toByteArray()).as("int %d", v).isEqualTo(framed(e -> e.writeInt(v)));
    }
  }

  @Test
  void everyLongLength_writesAvrosBytes() {
    for (long v : edges(64)) {
      ByteSink sink = new ByteSink();
      sink.write(7);
      sink.writeLong(v);
      sink.write(9);
      assertThat(sink.toByteArray()).as("long %d", v).isEqualTo(framed(e -> e.writeLong(v)));
    }
  }

  @Test
  void manyValuesInARow_eachWhereTheLastEnded() {
    ByteSink sink = new ByteSink();
    List<Long> values = edges(64);
    for (long v : values) {
      sink.writeLong(v);
      sink.writeInt((int) v);
    }
    byte[] expected = written(e -> {
      for (long v : values) {
        e.writeLong(v);
        e.writeInt((int) v);
      }
    });
    assertThat(sink.toByteArray()).isEqualTo(expected);
  }

  /** Values whose zig-zag form is 128^k - 1 and 128^k (and one more), both signs, within {@code bits}. */
  private static List<Long> edges(int bits) {
    List<Long> values = new ArrayList<>();
    for (int k = 0; 7 * k < bits; k++) {
      long zigzag = 1L << (7 * k);
      for (long z : new long[] {zigzag - 1, zigzag, zigzag + 1}) {
        long value = (z >>> 1) ^ -(z & 1); // the value whose zig-zag form is z
        values.add(value);
        values.add(-value - 1);
      }
    }
    values.add(bits == 32 ? Integer.MAX_VALUE : Long.MAX_VALUE);
    values.add(bits == 32 ? Integer.MIN_VALUE : Long.MIN_VALUE);
    values.add(0L);
    return values;
  }

  private interface Writes {
    void to(BinaryEncoder encoder) throws IOException;
  }

  private static byte[] framed(Writes writes) {
    return written(e -> {
      e.writeFixed(new byte[] {7});
      writes.to(e);
      e.writeFixed(new byte[] {9});
    });
  }

  private static byte[] written(Writes writes) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      writes.to(encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
