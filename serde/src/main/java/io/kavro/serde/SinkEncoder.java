package io.kavro.serde;

import java.nio.ByteBuffer;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.util.Utf8;

/**
 * Avro's binary encoding written straight into a {@link ByteSink}, byte for byte what Avro's own
 * {@code BinaryEncoder} writes, with no buffer of its own to flush and no allocation per string (Avro's encoder
 * copies each {@code String} to a byte array first). Reused per thread; not thread-safe.
 */
final class SinkEncoder extends BinaryEncoder {
  private final ByteSink sink;

  SinkEncoder(ByteSink sink) {
    this.sink = sink;
  }

  @Override
  public void writeBoolean(boolean b) {
    sink.writeBoolean(b);
  }

  @Override
  public void writeInt(int n) {
    sink.writeInt(n);
  }

  @Override
  public void writeLong(long n) {
    sink.writeLong(n);
  }

  @Override
  public void writeFloat(float f) {
    sink.writeFloat(f);
  }

  @Override
  public void writeDouble(double d) {
    sink.writeDouble(d);
  }

  @Override
  public void writeString(String string) {
    sink.writeString(string);
  }

  @Override
  public void writeString(Utf8 utf8) {
    sink.writeBytes(utf8.getBytes(), 0, utf8.getByteLength());
  }

  @Override
  public void writeBytes(ByteBuffer bytes) {
    sink.writeBytes(bytes);
  }

  @Override
  public void writeBytes(byte[] bytes, int start, int len) {
    sink.writeBytes(bytes, start, len);
  }

  @Override
  public void writeFixed(byte[] bytes, int start, int len) {
    sink.write(bytes, start, len);
  }

  @Override
  protected void writeZero() {
    sink.write(0);
  }

  @Override
  public int bytesBuffered() {
    return 0;
  }

  @Override
  public void flush() {
    // written straight into the sink
  }
}
