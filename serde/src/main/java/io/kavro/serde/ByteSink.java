package io.kavro.serde;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable, reusable, unsynchronized output buffer: one per thread per serializer. After a large record,
 * {@link #reset()} gives the memory back.
 *
 * <p>It also writes Avro's binary encoding directly ({@link #writeInt}, {@link #writeString}...), byte for
 * byte what Avro's {@code BinaryEncoder} writes, without the encoder's own buffer and without allocating:
 * strings are encoded straight into this buffer.
 */
final class ByteSink extends OutputStream {
  private static final int INITIAL = 1024;
  private static final int KEEP_AT_MOST = 1024 * 1024;

  private byte[] buffer = new byte[INITIAL];
  private int count;
  /** What a spun record's loop encoder refused in the write under way (see {@link SpunWriter}), or null. */
  private Throwable refusal;

  @Override
  public void write(int b) {
    ensure(1);
    buffer[count++] = (byte) b;
  }

  @Override
  public void write(byte[] bytes, int offset, int length) {
    ensure(length);
    System.arraycopy(bytes, offset, buffer, count, length);
    count += length;
  }

  /** Reserves {@code length} bytes at the current end and returns their offset, for the caller to fill. */
  int reserve(int length) {
    ensure(length);
    int at = count;
    count += length;
    return at;
  }

  byte[] buffer() {
    return buffer;
  }

  int size() {
    return count;
  }

  /** A copy of the written bytes: the only allocation per record. */
  byte[] toByteArray() {
    return Arrays.copyOf(buffer, count);
  }

  /** Forgets what was written after the first {@code size} bytes: a failed write leaves no trace. */
  void truncate(int size) {
    count = size;
  }

  /**
   * Notes that a spun record's loop encoder refused its value with {@code failure}, for the records around it
   * (see {@link SpunWriter}); until {@link #reset()} or {@link #forgetRefusal()}. A noted failure must end the
   * whole write: the JIT may throw one shared exception object for every implicit null or cast failure, so a note
   * that outlived a caught failure could match a later, unrelated one.
   */
  void refused(Throwable failure) {
    refusal = failure;
  }

  /** Forgets a noted refusal: a failure caught and written again makes any note of it stale. */
  void forgetRefusal() {
    refusal = null;
  }

  /** Whether {@code failure} is what a record's loop encoder refused in this write: see {@link #refused}. */
  boolean isRefusal(Throwable failure) {
    return failure == refusal;
  }

  /** Empties the buffer, and shrinks it if a large record made it grow. */
  void reset() {
    count = 0;
    refusal = null;
    if (buffer.length > KEEP_AT_MOST) {
      buffer = new byte[INITIAL];
    }
  }

  /** Avro boolean: one byte. */
  void writeBoolean(boolean value) {
    ensure(1);
    buffer[count++] = (byte) (value ? 1 : 0);
  }

  /**
   * Avro int: zig-zag varint. The first two bytes are written before the loop, which a record's lengths, counts and
   * small values never reach (measured in the commit that made it so).
   */
  void writeInt(int value) {
    ensure(5);
    int n = (value << 1) ^ (value >> 31);
    byte[] b = buffer;
    int p = count;
    if ((n & ~0x7f) == 0) {
      b[p] = (byte) n;
      count = p + 1;
      return;
    }
    b[p++] = (byte) (n | 0x80);
    n >>>= 7;
    if ((n & ~0x7f) == 0) {
      b[p] = (byte) n;
      count = p + 1;
      return;
    }
    b[p++] = (byte) (n | 0x80);
    n >>>= 7;
    while ((n & ~0x7f) != 0) {
      b[p++] = (byte) ((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    b[p++] = (byte) n;
    count = p;
  }

  /** Avro long: zig-zag varint, its first two bytes before the loop as {@link #writeInt}'s. */
  void writeLong(long value) {
    ensure(10);
    long n = (value << 1) ^ (value >> 63);
    byte[] b = buffer;
    int p = count;
    if ((n & ~0x7fL) == 0) {
      b[p] = (byte) n;
      count = p + 1;
      return;
    }
    b[p++] = (byte) (n | 0x80);
    n >>>= 7;
    if ((n & ~0x7fL) == 0) {
      b[p] = (byte) n;
      count = p + 1;
      return;
    }
    b[p++] = (byte) (n | 0x80);
    n >>>= 7;
    while ((n & ~0x7fL) != 0) {
      b[p++] = (byte) ((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    b[p++] = (byte) n;
    count = p;
  }

  /** Avro float: 4 bytes, little-endian, raw bits. */
  void writeFloat(float value) {
    ensure(4);
    int bits = Float.floatToRawIntBits(value);
    byte[] b = buffer;
    int p = count;
    b[p] = (byte) bits;
    b[p + 1] = (byte) (bits >>> 8);
    b[p + 2] = (byte) (bits >>> 16);
    b[p + 3] = (byte) (bits >>> 24);
    count = p + 4;
  }

  /** Avro double: 8 bytes, little-endian, raw bits. */
  void writeDouble(double value) {
    ensure(8);
    long bits = Double.doubleToRawLongBits(value);
    byte[] b = buffer;
    int p = count;
    for (int i = 0; i < 8; i++) {
      b[p + i] = (byte) (bits >>> (8 * i));
    }
    count = p + 8;
  }

  private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /**
   * A UUID as the Avro string of its {@link java.util.UUID#toString()} (36 lowercase hex digits and dashes,
   * 8-4-4-4-12), written without building that string.
   */
  void writeUuid(java.util.UUID value) {
    writeInt(36);
    ensure(36);
    int p = count;
    p = hex(value.getMostSignificantBits() >>> 32, 8, p);
    buffer[p++] = '-';
    p = hex(value.getMostSignificantBits() >>> 16, 4, p);
    buffer[p++] = '-';
    p = hex(value.getMostSignificantBits(), 4, p);
    buffer[p++] = '-';
    p = hex(value.getLeastSignificantBits() >>> 48, 4, p);
    buffer[p++] = '-';
    p = hex(value.getLeastSignificantBits(), 12, p);
    count = p;
  }

  /**
   * A decimal's unscaled value as Avro bytes: its minimal two's-complement big-endian form, byte for byte what
   * {@code BigInteger.valueOf(unscaled).toByteArray()} gives, without allocating.
   */
  void writeDecimal(long unscaled) {
    int length = (64 - Long.numberOfLeadingZeros(unscaled ^ unscaled >> 63)) / 8 + 1; // BigInteger's bitLength/8+1
    writeInt(length);
    ensure(length);
    byte[] b = buffer;
    int p = count;
    for (int shift = (length - 1) * 8; shift >= 0; shift -= 8) {
      b[p++] = (byte) (unscaled >> shift);
    }
    count = p;
  }

  /** The low {@code digits} hex digits of {@code bits}, most significant first, at {@code p}. */
  private int hex(long bits, int digits, int p) {
    for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
      buffer[p++] = HEX[(int) (bits >>> shift) & 0xf];
    }
    return p;
  }

  /** Avro string: length, then UTF-8, as {@code String.getBytes(UTF_8)} encodes it (unpaired surrogates as '?'). */
  void writeString(String value) {
    int length = value.length();
    if (length == 0) {
      writeInt(0);
      return;
    }
    // Optimistic ASCII: the char count is the byte count, and each char is one byte.
    int mark = count;
    writeInt(length);
    ensure(length);
    byte[] b = buffer;
    int start = count;
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      if (c >= 0x80) {
        count = mark;
        writeNonAscii(value);
        return;
      }
      b[start + i] = (byte) c;
    }
    count = start + length;
  }

  private void writeNonAscii(String value) {
    int length = value.length();
    int bytes = 0;
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        bytes++;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(value.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else if (Character.isSurrogate(c)) {
        bytes++; // unpaired: '?'
      } else {
        bytes += 3;
      }
    }
    writeInt(bytes);
    ensure(bytes);
    byte[] b = buffer;
    int p = count;
    for (int i = 0; i < length; i++) {
      char c = value.charAt(i);
      if (c < 0x80) {
        b[p++] = (byte) c;
      } else if (c < 0x800) {
        b[p++] = (byte) (0xc0 | (c >> 6));
        b[p++] = (byte) (0x80 | (c & 0x3f));
      } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(value.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, value.charAt(++i));
        b[p++] = (byte) (0xf0 | (cp >> 18));
        b[p++] = (byte) (0x80 | ((cp >> 12) & 0x3f));
        b[p++] = (byte) (0x80 | ((cp >> 6) & 0x3f));
        b[p++] = (byte) (0x80 | (cp & 0x3f));
      } else if (Character.isSurrogate(c)) {
        b[p++] = (byte) '?';
      } else {
        b[p++] = (byte) (0xe0 | (c >> 12));
        b[p++] = (byte) (0x80 | ((c >> 6) & 0x3f));
        b[p++] = (byte) (0x80 | (c & 0x3f));
      }
    }
    count = p;
  }

  /** Avro bytes or string from raw bytes: length, then the bytes. */
  void writeBytes(byte[] bytes, int offset, int length) {
    writeInt(length);
    write(bytes, offset, length);
  }

  /** Avro bytes from a buffer's position to its limit, leaving the buffer as it was. */
  void writeBytes(java.nio.ByteBuffer value) {
    int length = value.remaining();
    writeInt(length);
    if (value.hasArray()) {
      write(value.array(), value.arrayOffset() + value.position(), length);
    } else {
      ensure(length);
      value.duplicate().get(buffer, count, length);
      count += length;
    }
  }

  private void ensure(int extra) {
    int needed = count + extra;
    if (needed < 0) {
      throw new IllegalStateException("record larger than 2 GiB");
    }
    if (needed > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(needed, buffer.length * 2));
    }
  }
}
