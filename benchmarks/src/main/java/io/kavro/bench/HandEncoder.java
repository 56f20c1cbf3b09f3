package io.kavro.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.util.Utf8;

/**
 * The encoding primitives of the benchmarks' hand-written writers ({@link ReferenceWriters},
 * {@link GenericReferenceWriter}), independent of Kavro's codec: a reused growable {@code byte[]}, Kavro's 5-byte
 * framing, zig-zag varints, strings encoded to UTF-8 in place (a {@link Utf8}'s bytes copied, a {@code String} of
 * ASCII characters copied char by char after its length, any other through {@code getBytes}), bytes copied, arrays
 * of longs and maps of strings as one block; then one exact-size copy out, as Kavro returns. Every method is
 * final, so a writer's calls stay monomorphic. Not product code.
 *
 * <p>Not thread-safe: one per writer.
 */
abstract class HandEncoder {
  static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

  byte[] buffer = new byte[1024];
  int count;

  /** Starts a payload: {@code 0x00} and {@code schemaId}, big-endian. */
  final void frame(int schemaId) {
    count = 0;
    ensure(5);
    buffer[0] = 0;
    INT_BE.set(buffer, 1, schemaId);
    count = 5;
  }

  /** The payload written since {@link #frame}, in an array of its size. */
  final byte[] payload() {
    return Arrays.copyOf(buffer, count);
  }

  /** {@code ["null", "string"]}: the branch, then the text. */
  final void nullableString(Object value) {
    ensure(1);
    if (value == null) {
      buffer[count++] = 0;
    } else {
      buffer[count++] = 2; // branch 1, zig-zag
      string((CharSequence) value);
    }
  }

  final void string(CharSequence value) {
    if (value instanceof Utf8 utf8) {
      int length = utf8.getByteLength();
      ensure(5 + length);
      varInt(length);
      System.arraycopy(utf8.getBytes(), 0, buffer, count, length);
      count += length;
    } else if (value instanceof String s) {
      int length = s.length();
      ensure(5 + length);
      int start = count;
      varInt(length);
      byte[] b = buffer;
      int p = count;
      for (int i = 0; i < length; i++) {
        char c = s.charAt(i);
        if (c >= 0x80) {
          count = start;
          encoded(s.getBytes(StandardCharsets.UTF_8)); // not in the benchmarks' data
          return;
        }
        b[p + i] = (byte) c;
      }
      count = p + length;
    } else {
      encoded(value.toString().getBytes(StandardCharsets.UTF_8)); // not in the benchmarks' data
    }
  }

  private void encoded(byte[] bytes) {
    ensure(5 + bytes.length);
    varInt(bytes.length);
    System.arraycopy(bytes, 0, buffer, count, bytes.length);
    count += bytes.length;
  }

  /** {@code {"type": "array", "items": "long"}}: one block of the values, then the end. */
  final void longs(List<Long> values) {
    int n = values.size();
    ensure(5 + 10 * n + 1);
    if (n > 0) {
      varInt(n);
      for (int i = 0; i < n; i++) {
        varLong(values.get(i));
      }
    }
    buffer[count++] = 0;
  }

  /** {@code {"type": "map", "values": "string"}}: one block of the entries in the map's order, then the end. */
  final void strings(Map<CharSequence, CharSequence> values) {
    int n = values.size();
    if (n > 0) {
      ensure(5);
      varInt(n);
      for (Map.Entry<CharSequence, CharSequence> entry : values.entrySet()) {
        string(entry.getKey());
        string(entry.getValue());
      }
    }
    ensure(1);
    buffer[count++] = 0;
  }

  final void bytes(ByteBuffer value) {
    int length = value.remaining();
    ensure(5 + length);
    varInt(length);
    if (value.hasArray()) {
      System.arraycopy(value.array(), value.arrayOffset() + value.position(), buffer, count, length);
    } else {
      value.duplicate().get(buffer, count, length);
    }
    count += length;
  }

  final void varInt(int value) {
    int n = (value << 1) ^ (value >> 31);
    byte[] b = buffer;
    int p = count;
    while ((n & ~0x7f) != 0) {
      b[p++] = (byte) ((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    b[p++] = (byte) n;
    count = p;
  }

  final void varLong(long value) {
    long n = (value << 1) ^ (value >> 63);
    byte[] b = buffer;
    int p = count;
    while ((n & ~0x7fL) != 0) {
      b[p++] = (byte) ((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    b[p++] = (byte) n;
    count = p;
  }

  final void ensure(int extra) {
    if (count + extra > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(count + extra, buffer.length * 2));
    }
  }
}
