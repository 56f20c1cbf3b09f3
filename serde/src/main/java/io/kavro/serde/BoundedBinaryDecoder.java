package io.kavro.serde;

import java.io.EOFException;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import org.apache.avro.AvroTypeException;
import org.apache.avro.io.Decoder;
import org.apache.avro.util.Utf8;

/**
 * An Avro binary decoder over a byte array slice that never trusts a length it reads.
 *
 * <p>Avro's own decoder allocates whatever a corrupt length prefix says, up to 2 GiB per string, bytes or
 * collection. This one checks every length and item count first, so a corrupt payload costs memory in
 * proportion to its own size and fails with an {@link IOException}:
 * <ul>
 *   <li>a string or bytes length larger than the bytes left;</li>
 *   <li>array or map items, over all blocks of the payload, more than its length plus
 *       {@link #ZERO_WIDTH_ITEMS}. Every item but a {@code null}, an empty record or a zero-size fixed owns at
 *       least one byte that no other item owns, so a valid payload never claims more than its length in such
 *       items; the allowance admits up to that many items of no width in one payload, and no more;</li>
 *   <li>a varint longer than 10 bytes;</li>
 *   <li>reading past the end.</li>
 * </ul>
 *
 * <p>Not thread-safe: one instance per thread, re-aimed with {@link #reset}.
 */
final class BoundedBinaryDecoder extends Decoder {
  /** How many items of no width ({@code null}, empty records) one payload may hold in all its collections. */
  static final long ZERO_WIDTH_ITEMS = 1L << 20;

  private byte[] buf;
  private long itemBudget;
  private int pos;
  private int limit;
  private int start;

  /** Aims the decoder at {@code length} bytes of {@code bytes} from {@code offset}. */
  BoundedBinaryDecoder reset(byte[] bytes, int offset, int length) {
    this.buf = bytes;
    this.pos = offset;
    this.start = offset;
    this.limit = offset + length;
    this.itemBudget = length + ZERO_WIDTH_ITEMS;
    return this;
  }

  /** Whether every byte of the slice has been read. */
  boolean isEnd() {
    return pos == limit;
  }

  /** Where the next read starts, for {@link #rewind}. */
  int position() {
    return pos;
  }

  /** How many more items collections may claim, for {@link #rewind}. */
  long itemBudget() {
    return itemBudget;
  }

  /**
   * Back to where {@link #position()} and {@link #itemBudget()} were read, in the same slice: to read the same
   * bytes again.
   */
  void rewind(int position, long itemBudget) {
    this.pos = position;
    this.itemBudget = itemBudget;
  }

  /** Bytes not read yet. */
  int remaining() {
    return limit - pos;
  }

  @Override
  public void readNull() {}

  @Override
  public boolean readBoolean() throws IOException {
    require(1);
    return buf[pos++] == 1;
  }

  @Override
  public int readInt() throws IOException {
    int p = pos;
    if (limit - p >= 5) { // every byte a valid int varint can take is there: no check per byte
      byte[] b = buf;
      int n = b[p++];
      if (n < 0) {
        n &= 0x7f;
        int shift = 7;
        int x;
        do {
          if (shift > 28) {
            throw new IOException("invalid int varint at offset " + (pos - start));
          }
          x = b[p++];
          n |= (x & 0x7f) << shift;
          shift += 7;
        } while (x < 0);
      }
      pos = p;
      return (n >>> 1) ^ -(n & 1);
    }
    return readIntNearEnd();
  }

  private int readIntNearEnd() throws IOException {
    int b = byteAt();
    int n = b & 0x7f;
    int shift = 7;
    while ((b & 0x80) != 0) {
      if (shift > 28) {
        throw new IOException("invalid int varint at offset " + (pos - start));
      }
      b = byteAt();
      n |= (b & 0x7f) << shift;
      shift += 7;
    }
    return (n >>> 1) ^ -(n & 1);
  }

  @Override
  public long readLong() throws IOException {
    int p = pos;
    if (limit - p >= 10) { // every byte a valid long varint can take is there: no check per byte
      byte[] b = buf;
      long n = b[p++];
      if (n < 0) {
        n &= 0x7f;
        int shift = 7;
        int x;
        do {
          if (shift > 63) {
            throw new IOException("invalid long varint at offset " + (pos - start));
          }
          x = b[p++];
          n |= (long) (x & 0x7f) << shift;
          shift += 7;
        } while (x < 0);
      }
      pos = p;
      return (n >>> 1) ^ -(n & 1);
    }
    return readLongNearEnd();
  }

  private long readLongNearEnd() throws IOException {
    int b = byteAt();
    long n = b & 0x7f;
    int shift = 7;
    while ((b & 0x80) != 0) {
      if (shift > 63) {
        throw new IOException("invalid long varint at offset " + (pos - start));
      }
      b = byteAt();
      n |= (long) (b & 0x7f) << shift;
      shift += 7;
    }
    return (n >>> 1) ^ -(n & 1);
  }

  @Override
  public float readFloat() throws IOException {
    require(4);
    int bits = (buf[pos] & 0xff) | (buf[pos + 1] & 0xff) << 8 | (buf[pos + 2] & 0xff) << 16
        | (buf[pos + 3] & 0xff) << 24;
    pos += 4;
    return Float.intBitsToFloat(bits);
  }

  @Override
  public double readDouble() throws IOException {
    require(8);
    long bits = (buf[pos] & 0xffL) | (buf[pos + 1] & 0xffL) << 8 | (buf[pos + 2] & 0xffL) << 16
        | (buf[pos + 3] & 0xffL) << 24 | (buf[pos + 4] & 0xffL) << 32 | (buf[pos + 5] & 0xffL) << 40
        | (buf[pos + 6] & 0xffL) << 48 | (buf[pos + 7] & 0xffL) << 56;
    pos += 8;
    return Double.longBitsToDouble(bits);
  }

  /** A new {@code Utf8} holding a copy of the next string's bytes. */
  Utf8 readUtf8() throws IOException {
    int length = readStringLength();
    byte[] bytes = new byte[length];
    System.arraycopy(buf, pos, bytes, 0, length);
    pos += length;
    return new Utf8(bytes);
  }

  @Override
  public Utf8 readString(Utf8 old) throws IOException {
    int length = readLength("string");
    Utf8 result = old != null ? old : new Utf8();
    result.setByteLength(length);
    System.arraycopy(buf, pos, result.getBytes(), 0, length);
    pos += length;
    return result;
  }

  /**
   * The value of a writer's {@code ["null", "string"]}: {@code null} for branch 0, a new {@code Utf8} for branch 1.
   *
   * @throws AvroTypeException for any other branch
   */
  Utf8 readNullableUtf8() throws IOException {
    int p = pos;
    if (p < limit) { // the branch index as one byte, as every writer writes it: 0 or 2 (zigzag)
      byte b = buf[p];
      if (b == 2) {
        pos = p + 1;
        return readUtf8();
      }
      if (b == 0) {
        pos = p + 1;
        return null;
      }
    }
    int index = readIndex();
    if (index == 0) {
      return null;
    }
    if (index == 1) {
      return readUtf8();
    }
    throw new AvroTypeException("union index " + index + " out of range 0..1");
  }

  @Override
  public String readString() throws IOException {
    int length = readStringLength();
    String result = new String(buf, pos, length, StandardCharsets.UTF_8);
    pos += length;
    return result;
  }

  @Override
  public void skipString() throws IOException {
    int length = readLength("string"); // read first: 'pos += readLength()' would use the old pos
    pos += length;
  }

  @Override
  public ByteBuffer readBytes(ByteBuffer old) throws IOException {
    int length = readLength("bytes");
    ByteBuffer result;
    if (old != null && old.hasArray() && !old.isReadOnly() && length <= old.capacity()) {
      result = old;
      result.clear();
    } else {
      result = ByteBuffer.allocate(length);
    }
    System.arraycopy(buf, pos, result.array(), result.arrayOffset(), length);
    result.limit(length);
    pos += length;
    return result;
  }

  /**
   * The next bytes value as a decimal's unscaled two's-complement value, at {@code scale}: what Avro's
   * {@code DecimalConversion} makes of it, without a copy of the bytes.
   *
   * @throws IOException for no bytes (Avro's conversion refuses them too), naming the decimal
   */
  BigDecimal readDecimal(int scale) throws IOException {
    int length = readLength("bytes");
    if (length == 0) {
      // BigInteger refuses an empty array, not an empty range of one: it would read the next value's byte.
      throw new IOException("a decimal with no bytes (at least one is its unscaled value's sign)");
    }
    if (length <= 8) {
      // Fits a long: the same value and scale (equal by equals, compareTo and toString), without the BigInteger.
      int p = pos;
      long unscaled = buf[p]; // the first byte sign-extended: two's complement, big-endian
      for (int i = 1; i < length; i++) {
        unscaled = unscaled << 8 | buf[p + i] & 0xffL;
      }
      pos = p + length;
      return BigDecimal.valueOf(unscaled, scale);
    }
    BigInteger unscaled = new BigInteger(buf, pos, length);
    pos += length;
    return new BigDecimal(unscaled, scale);
  }

  /** Each ASCII hex digit's value, either case; -1 for any other byte. */
  private static final byte[] HEX_DIGITS = new byte[256];

  static {
    Arrays.fill(HEX_DIGITS, (byte) -1);
    for (int i = 0; i < 10; i++) {
      HEX_DIGITS['0' + i] = (byte) i;
    }
    for (int i = 0; i < 6; i++) {
      HEX_DIGITS['a' + i] = (byte) (10 + i);
      HEX_DIGITS['A' + i] = (byte) (10 + i);
    }
  }

  /**
   * The next string as a {@link UUID}, what {@code UUID.fromString} makes of it: the canonical form
   * (36 bytes, hex digits of either case, dashes at 8, 13, 18 and 23) parsed in place, without the string between;
   * any other text through {@code UUID.fromString}, which refuses it as it always did.
   */
  UUID readUuid() throws IOException {
    int p = pos;
    if (limit - p > 36 && buf[p] == 72) { // length 36, as one zigzag byte
      int s = p + 1;
      if (buf[s + 8] == '-' && buf[s + 13] == '-' && buf[s + 18] == '-' && buf[s + 23] == '-') {
        long a = hex(s, 8);
        long b = hex(s + 9, 4);
        long c = hex(s + 14, 4);
        long d = hex(s + 19, 4);
        long e = hex(s + 24, 12);
        if ((a | b | c | d | e) >= 0) {
          pos = s + 36;
          return new UUID(a << 32 | b << 16 | c, d << 48 | e);
        }
      }
    }
    return UUID.fromString(readString());
  }

  /** The value of {@code digits} hex digits at {@code from}, or -1 if any byte is not one. */
  private long hex(int from, int digits) {
    long value = 0;
    for (int i = from, end = from + digits; i < end; i++) {
      int digit = HEX_DIGITS[buf[i] & 0xff];
      if (digit < 0) {
        return -1;
      }
      value = value << 4 | digit;
    }
    return value;
  }

  /** A new array holding a copy of the next bytes value. */
  byte[] readByteArray() throws IOException {
    int length = readLength("bytes");
    byte[] bytes = new byte[length];
    System.arraycopy(buf, pos, bytes, 0, length);
    pos += length;
    return bytes;
  }

  @Override
  public void skipBytes() throws IOException {
    int length = readLength("bytes");
    pos += length;
  }

  @Override
  public void readFixed(byte[] bytes, int offset, int length) throws IOException {
    require(length);
    System.arraycopy(buf, pos, bytes, offset, length);
    pos += length;
  }

  @Override
  public void skipFixed(int length) throws IOException {
    require(length);
    pos += length;
  }

  @Override
  public int readEnum() throws IOException {
    return readInt();
  }

  @Override
  public long readArrayStart() throws IOException {
    return blockCount("array");
  }

  @Override
  public long arrayNext() throws IOException {
    return blockCount("array");
  }

  @Override
  public long skipArray() throws IOException {
    return skipBlocks("array");
  }

  @Override
  public long readMapStart() throws IOException {
    return blockCount("map");
  }

  @Override
  public long mapNext() throws IOException {
    return blockCount("map");
  }

  @Override
  public long skipMap() throws IOException {
    return skipBlocks("map");
  }

  @Override
  public int readIndex() throws IOException {
    return readInt();
  }

  private int byteAt() throws IOException {
    if (pos >= limit) {
      throw truncated(1);
    }
    return buf[pos++];
  }

  /**
   * Fails unless {@code length} more bytes are left: for a caller about to allocate room for them (a fixed,
   * whose size the schema gives), so that nothing is allocated beyond what the payload can fill.
   *
   * @throws EOFException when fewer are left
   */
  void require(int length) throws IOException {
    if (length < 0 || length > limit - pos) {
      throw truncated(length);
    }
  }

  /** A string's length, checked as {@link #readLength} does; a length under 64 (one byte) read on a short path. */
  private int readStringLength() throws IOException {
    int p = pos;
    if (p < limit) {
      int b = buf[p];
      if ((b & 0x81) == 0) { // one byte, not negative: b / 2
        int length = b >>> 1;
        if (length <= limit - p - 1) {
          pos = p + 1;
          return length;
        }
      }
    }
    return readLength("string");
  }

  private int readLength(String what) throws IOException {
    long length = readLong();
    if (length < 0) {
      throw new IOException("negative " + what + " length " + length + " at offset " + (pos - start));
    }
    if (length > limit - pos) {
      throw new IOException(what + " length " + length + " at offset " + (pos - start) + " exceeds the "
          + (limit - pos) + " byte(s) left");
    }
    return (int) length;
  }

  private long blockCount(String what) throws IOException {
    long count = readLong();
    if (count < 0) {
      if (count == Long.MIN_VALUE) {
        throw new IOException("invalid " + what + " block count at offset " + (pos - start));
      }
      count = -count;
      long size = readLong(); // the block's size in bytes, which we do not need but check, as Avro 1.12.2 does
      if (size < 0) {
        throw new IOException("negative " + what + " block size " + size + " at offset " + (pos - start));
      }
    }
    return fitting(what, count);
  }

  /** The item count, if the payload can hold that many more items. */
  private long fitting(String what, long count) throws IOException {
    if (count > itemBudget) {
      throw new IOException(what + " block of " + count + " item(s) at offset " + (pos - start)
          + " is more than a payload of " + (limit - start) + " byte(s) can hold (its length in items, plus "
          + ZERO_WIDTH_ITEMS + " items of no width in all)");
    }
    itemBudget -= count;
    return count;
  }

  private long skipBlocks(String what) throws IOException {
    while (true) {
      long count = readLong();
      if (count >= 0) {
        return fitting(what, count);
      }
      long size = readLong();
      if (size < 0 || size > limit - pos) {
        throw new IOException("invalid " + what + " block size " + size + " at offset " + (pos - start));
      }
      pos += (int) size;
    }
  }

  private EOFException truncated(int needed) {
    return new EOFException("truncated body: needed " + needed + " more byte(s) at offset " + (pos - start)
        + ", " + (limit - pos) + " left");
  }
}
