package io.kavro.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericData;

/**
 * A writer written by hand for exactly S2's or S3's schema, of the records {@link BenchData#records} makes: Avro's
 * generic records ({@code GenericData.Record}) in their raw form (uuids as strings, timestamps as longs, dates as
 * ints, decimals as two's complement bytes). Not product code, and independent of Kavro's codec: the reference
 * point of any serializer of Avro's generic records of these schemas, as {@link ReferenceWriters#handWritten} is
 * for the generated classes, and written the same way, on the same primitives ({@link HandEncoder}). Every field read
 * through {@code get(int)} with the cast it needs, straight-line, every call monomorphic, into a reused growable
 * {@code byte[]}: zig-zag varints, little-endian floats and doubles, strings encoded to UTF-8 in place (the data's
 * are {@code String}s of ASCII characters), bytes and fixed copied, an enum's ordinal from a switch over its four
 * symbols, arrays and maps as one block; Kavro's framing ({@code 0x00} and the schema id, big-endian); then one
 * exact-size copy, as Kavro returns.
 *
 * <p>Not thread-safe: one per benchmark thread or client.
 */
final class GenericReferenceWriter extends HandEncoder {
  /** What a write of the fields of fixed size after S3's uuid can take: seq to boolean. */
  private static final int S3_HEAD = 10 + 5 + 4 + 8 + 1;

  private final Shape shape;
  private final int schemaId;

  /** The hand-written writer of {@code shape}'s generic records (S2 or S3), framing with {@code schemaId}. */
  GenericReferenceWriter(Shape shape, int schemaId) {
    if (shape != Shape.S2 && shape != Shape.S3) {
      throw new IllegalArgumentException("a hand-written generic writer exists for S2 and S3 only, not " + shape);
    }
    this.shape = shape;
    this.schemaId = schemaId;
  }

  /**
   * The hand-written writer of {@code shape}, framing with the schema id of {@code expected}, the payloads Kavro's
   * serializer wrote for {@code records}, checked to write each of them byte for byte.
   *
   * @throws IllegalStateException naming the first record whose payload differs
   */
  static GenericReferenceWriter checked(Shape shape, List<?> records, List<byte[]> expected) {
    int id = ByteBuffer.wrap(expected.get(0), 1, 4).getInt();
    GenericReferenceWriter writer = new GenericReferenceWriter(shape, id);
    for (int i = 0; i < records.size(); i++) {
      byte[] written = writer.write(records.get(i));
      if (!Arrays.equals(written, expected.get(i))) {
        throw new IllegalStateException("the hand-written writer of " + shape + " disagrees with Kavro on record " + i
            + ": " + Arrays.toString(written) + " against " + Arrays.toString(expected.get(i)));
      }
    }
    return writer;
  }

  /** One framed payload of {@code record}, a {@code GenericData.Record} of the shape's schema. */
  byte[] write(Object record) {
    frame(schemaId);
    if (shape == Shape.S2) {
      writeS2((GenericData.Record) record);
    } else {
      writeS3((GenericData.Record) record);
    }
    return payload();
  }

  private void writeS2(GenericData.Record r) {
    for (int i = 0; i < 81; i++) {
      nullableString(r.get(i));
    }
  }

  private void writeS3(GenericData.Record r) {
    string((CharSequence) r.get(0));
    ensure(S3_HEAD);
    varLong((Long) r.get(1));
    varInt((Integer) r.get(2));
    INT_LE.set(buffer, count, Float.floatToRawIntBits((Float) r.get(3)));
    LONG_LE.set(buffer, count + 4, Double.doubleToRawLongBits((Double) r.get(4)));
    buffer[count + 12] = (byte) ((Boolean) r.get(5) ? 1 : 0);
    count += 13;
    string((CharSequence) r.get(6));
    bytes((ByteBuffer) r.get(7));
    ensure(5 + 16);
    varInt(status(((GenericData.EnumSymbol) r.get(8)).toString()));
    System.arraycopy(((GenericData.Fixed) r.get(9)).bytes(), 0, buffer, count, 16);
    count += 16;
    nullableString(r.get(10));
    @SuppressWarnings("unchecked")
    List<Long> tags = (List<Long>) r.get(11);
    longs(tags);
    @SuppressWarnings("unchecked")
    Map<CharSequence, CharSequence> attributes = (Map<CharSequence, CharSequence>) r.get(12);
    strings(attributes);
    GenericData.Record a = (GenericData.Record) r.get(13);
    string((CharSequence) a.get(0));
    string((CharSequence) a.get(1));
    nullableString(a.get(2));
    @SuppressWarnings("unchecked")
    List<GenericData.Record> lines = (List<GenericData.Record>) r.get(14);
    int n = lines.size();
    if (n > 0) {
      ensure(5);
      varInt(n);
      for (int i = 0; i < n; i++) {
        GenericData.Record l = lines.get(i);
        string((CharSequence) l.get(0));
        ensure(5);
        varInt((Integer) l.get(1));
        bytes((ByteBuffer) l.get(2));
      }
    }
    ensure(1 + 10 + 5);
    buffer[count++] = 0;
    varLong((Long) r.get(15));
    varInt((Integer) r.get(16));
    bytes((ByteBuffer) r.get(17));
  }

  /** The ordinal of S3's {@code Status} symbol. */
  private static int status(String symbol) {
    return switch (symbol) {
      case "NEW" -> 0;
      case "ACTIVE" -> 1;
      case "SUSPENDED" -> 2;
      case "CLOSED" -> 3;
      default -> throw new IllegalArgumentException("not a symbol of Status: " + symbol);
    };
  }
}
