package io.kavro.serde;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;

/** The bytes Avro's own datum writers write: what the codec tests compare Kavro's encoders with. */
final class AvroBytes {
  private AvroBytes() {}

  /** What {@code writer} writes for {@code datum}, through Avro's buffered binary encoder. */
  static byte[] written(DatumWriter<Object> writer, Object datum) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
      writer.write(datum, encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
