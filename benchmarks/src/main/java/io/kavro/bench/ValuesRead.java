package io.kavro.bench;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;

/**
 * Every value of one of {@link BenchData#records}' generic records of S2 or S3 read as any serializer must at least
 * read it, and nothing written: each field through {@code get(int)} with its cast, each number unboxed, each
 * string's length and its first char, each buffer's length and first byte, a fixed's first byte, an enum symbol's
 * text, each list element and each map entry (its key and value). A serializer reads every char and byte of them:
 * this reads one of each, so it does less than any serializer must. With the output's copy, a floor under any
 * serializer of these records: a lower bound, not a writer. The fields in the order and with the casts of
 * {@link GenericReferenceWriter}, which writes the same records.
 */
final class ValuesRead {
  private ValuesRead() {}

  /**
   * A number made of every value read of {@code record}, a {@code GenericData.Record} of {@code shape}.
   *
   * @throws IllegalArgumentException for a shape other than S2 and S3
   */
  static int of(Shape shape, Object record) {
    GenericData.Record r = (GenericData.Record) record;
    return switch (shape) {
      case S2 -> s2(r);
      case S3 -> s3(r);
      default -> throw new IllegalArgumentException("values are read for S2 and S3 only, not " + shape);
    };
  }

  private static int s2(GenericData.Record r) {
    int read = 0;
    for (int i = 0; i < 81; i++) {
      read += text(r.get(i));
    }
    return read;
  }

  @SuppressWarnings("unchecked")
  private static int s3(GenericData.Record r) {
    int read = text(r.get(0));
    read += (int) (long) (Long) r.get(1);
    read += (Integer) r.get(2);
    read += Float.floatToRawIntBits((Float) r.get(3));
    read += (int) Double.doubleToRawLongBits((Double) r.get(4));
    read += (Boolean) r.get(5) ? 1 : 0;
    read += text(r.get(6));
    read += bytes(r.get(7));
    read += r.get(8).toString().length();
    read += ((GenericData.Fixed) r.get(9)).bytes()[0];
    read += text(r.get(10));
    List<Long> tags = (List<Long>) r.get(11);
    for (int i = 0, n = tags.size(); i < n; i++) {
      read += (int) (long) tags.get(i);
    }
    for (Map.Entry<CharSequence, CharSequence> entry : ((Map<CharSequence, CharSequence>) r.get(12)).entrySet()) {
      read += text(entry.getKey()) + text(entry.getValue());
    }
    GenericData.Record address = (GenericData.Record) r.get(13);
    read += text(address.get(0)) + text(address.get(1)) + text(address.get(2));
    List<GenericData.Record> lines = (List<GenericData.Record>) r.get(14);
    for (int i = 0, n = lines.size(); i < n; i++) {
      GenericData.Record line = lines.get(i);
      read += text(line.get(0)) + (Integer) line.get(1) + bytes(line.get(2));
    }
    read += (int) (long) (Long) r.get(15);
    read += (Integer) r.get(16);
    read += bytes(r.get(17));
    return read;
  }

  /** A string's length and first char (a null of a nullable string: nothing to read). */
  private static int text(Object value) {
    if (value == null) {
      return 0;
    }
    CharSequence text = (CharSequence) value;
    int length = text.length();
    return length == 0 ? 0 : length + text.charAt(0);
  }

  /** A buffer's length and first byte. */
  private static int bytes(Object value) {
    ByteBuffer buffer = (ByteBuffer) value;
    int length = buffer.remaining();
    return length == 0 ? 0 : length + buffer.get(buffer.position());
  }
}
