package io.kavro.serde.avro;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable, reusable, unsynchronized output buffer: one per thread per serializer. After a large record,
 * {@link #reset()} gives the memory back.
 */
public final class ByteSink extends OutputStream {
  private static final int INITIAL = 1024;
  private static final int KEEP_AT_MOST = 1024 * 1024;

  private byte[] buffer = new byte[INITIAL];
  private int count;

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
  public int reserve(int length) {
    ensure(length);
    int at = count;
    count += length;
    return at;
  }

  public byte[] buffer() {
    return buffer;
  }

  public int size() {
    return count;
  }

  /** A copy of the written bytes: the only allocation per record. */
  public byte[] toByteArray() {
    return Arrays.copyOf(buffer, count);
  }

  /** Empties the buffer, and shrinks it if a large record made it grow. */
  public void reset() {
    count = 0;
    if (buffer.length > KEEP_AT_MOST) {
      buffer = new byte[INITIAL];
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
