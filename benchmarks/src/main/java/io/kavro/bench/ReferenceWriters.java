package io.kavro.bench;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.Utf8;

/**
 * Two reference points for serializing the classes avro-maven-plugin generated from S2 and S3 ({@link User},
 * {@link Order}), not product code. Both read every field as Avro's {@code SpecificDatumWriter} reads it, through
 * {@code get(int)} (which boxes every primitive field: Avro's contract, since a class's getters may give something
 * else), and the logical types' values as that writer sees them ({@code UUID}, {@code Instant}, {@code LocalDate},
 * {@code BigDecimal}).
 *
 * <ul>
 *   <li>{@link #handWritten}: a writer written by hand for exactly this class, straight-line, every call
 *       monomorphic, into a reused growable {@code byte[]} ({@link HandEncoder}): zig-zag varints, little-endian
 *       floats and doubles, UTF-8 bytes copied from the {@link Utf8} values the generated classes hold, a
 *       {@code uuid} as its hex digits and a decimal from its unscaled value without Avro's conversion; Kavro's
 *       framing ({@code 0x00} and the schema id, big-endian); then one exact-size copy, as Kavro returns. The
 *       ceiling of any writer of these classes that reads them as Avro does.</li>
 *   <li>{@link #allocationOnly}: no encoding at all, only the allocation of a writer whose boxes escape: the
 *       boxes of {@code get(int)}, kept alive (as a writer whose calls the JIT does not inline keeps them), and the
 *       output array of the record's size. Not a floor under {@link #handWritten}: with every call inlined, the
 *       JIT removes its boxes and it allocates the output array only.</li>
 * </ul>
 *
 * <p>Not thread-safe: one per benchmark thread.
 */
final class ReferenceWriters extends HandEncoder {
  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
  /** What a write of the fields of fixed size at the head of an {@link Order} can take: uuid to boolean. */
  private static final int S3_HEAD = 5 + 36 + 10 + 5 + 4 + 8 + 1;

  private final Shape shape;
  private final int schemaId;
  private final Schema price;
  private final Schema balance;
  private final int priceScale;
  private final int priceDigits;
  private final int balanceScale;
  private final int balanceDigits;
  private final Conversions.DecimalConversion decimals = new Conversions.DecimalConversion();

  /** The reference writers of {@code shape}'s generated class (S2 or S3), framing with {@code schemaId}. */
  ReferenceWriters(Shape shape, int schemaId) {
    if (shape != Shape.S2 && shape != Shape.S3) {
      throw new IllegalArgumentException("reference writers exist for S2 and S3 only, not " + shape);
    }
    this.shape = shape;
    this.schemaId = schemaId;
    if (shape == Shape.S2) {
      price = balance = null;
      priceScale = priceDigits = balanceScale = balanceDigits = 0;
      return;
    }
    Schema order = Order.getClassSchema();
    price = order.getField("lines").schema().getElementType().getField("price").schema();
    balance = order.getField("balance").schema();
    LogicalTypes.Decimal p = (LogicalTypes.Decimal) price.getLogicalType();
    LogicalTypes.Decimal b = (LogicalTypes.Decimal) balance.getLogicalType();
    priceScale = p.getScale();
    priceDigits = Math.min(p.getPrecision(), 18);
    balanceScale = b.getScale();
    balanceDigits = Math.min(b.getPrecision(), 18);
  }

  /** One framed payload of {@code record}, an instance of the shape's generated class, as written by hand. */
  byte[] handWritten(SpecificRecord record) {
    frame(schemaId);
    if (shape == Shape.S2) {
      writeS2((User) record);
    } else {
      writeS3((Order) record);
    }
    return payload();
  }

  private void writeS2(User r) {
    for (int i = 0; i < 81; i++) {
      nullableString(r.get(i));
    }
  }

  private void writeS3(Order r) {
    ensure(S3_HEAD);
    uuid((UUID) r.get(0));
    varLong((Long) r.get(1));
    varInt((Integer) r.get(2));
    INT_LE.set(buffer, count, Float.floatToRawIntBits((Float) r.get(3)));
    LONG_LE.set(buffer, count + 4, Double.doubleToRawLongBits((Double) r.get(4)));
    buffer[count + 12] = (byte) ((Boolean) r.get(5) ? 1 : 0);
    count += 13;
    string((CharSequence) r.get(6));
    bytes((ByteBuffer) r.get(7));
    ensure(5 + 16 + 5);
    varInt(((Status) r.get(8)).ordinal());
    System.arraycopy(((Hash16) r.get(9)).bytes(), 0, buffer, count, 16);
    count += 16;
    nullableString(r.get(10));
    @SuppressWarnings("unchecked")
    List<Long> tags = (List<Long>) r.get(11);
    longs(tags);
    @SuppressWarnings("unchecked")
    Map<CharSequence, CharSequence> attributes = (Map<CharSequence, CharSequence>) r.get(12);
    strings(attributes);
    Address a = (Address) r.get(13);
    string((CharSequence) a.get(0));
    string((CharSequence) a.get(1));
    nullableString(a.get(2));
    @SuppressWarnings("unchecked")
    List<Line> lines = (List<Line>) r.get(14);
    int n = lines.size();
    if (n > 0) {
      ensure(5);
      varInt(n);
      for (int i = 0; i < n; i++) {
        Line l = lines.get(i);
        string((CharSequence) l.get(0));
        ensure(5);
        varInt((Integer) l.get(1));
        decimal((BigDecimal) l.get(2), priceScale, priceDigits, price);
      }
    }
    ensure(1 + 10 + 5);
    buffer[count++] = 0;
    varLong(((java.time.Instant) r.get(15)).toEpochMilli());
    varInt((int) ((java.time.LocalDate) r.get(16)).toEpochDay());
    decimal((BigDecimal) r.get(17), balanceScale, balanceDigits, balance);
  }

  /** {@code UUID.toString()}'s 36 characters, without the string. */
  private void uuid(UUID value) {
    buffer[count++] = 72; // 36, zig-zag
    long high = value.getMostSignificantBits();
    long low = value.getLeastSignificantBits();
    byte[] b = buffer;
    int p = count;
    hex(b, p, high >>> 32, 8);
    b[p + 8] = '-';
    hex(b, p + 9, high >>> 16, 4);
    b[p + 13] = '-';
    hex(b, p + 14, high, 4);
    b[p + 18] = '-';
    hex(b, p + 19, low >>> 48, 4);
    b[p + 23] = '-';
    hex(b, p + 24, low, 12);
    count = p + 36;
  }

  private static void hex(byte[] b, int p, long bits, int digits) {
    for (int i = digits - 1; i >= 0; i--) {
      b[p + i] = HEX[(int) bits & 0xf];
      bits >>>= 4;
    }
  }

  /**
   * A decimal as Avro's {@code DecimalConversion} writes one of the schema's scale and precision: its unscaled
   * value's minimal two's complement, big-endian; any other decimal through Avro's conversion (not in the data).
   */
  private void decimal(BigDecimal value, int scale, int digits, Schema schema) {
    ensure(5 + 8);
    if (value.scale() == scale && value.precision() <= digits) {
      long unscaled = value.unscaledValue().longValue();
      int length = (64 - Long.numberOfLeadingZeros(unscaled ^ unscaled >> 63)) / 8 + 1;
      byte[] b = buffer;
      int p = count;
      b[p++] = (byte) (length << 1);
      for (int shift = (length - 1) * 8; shift >= 0; shift -= 8) {
        b[p++] = (byte) (unscaled >> shift);
      }
      count = p;
    } else {
      bytes(decimals.toBytes(value, schema, schema.getLogicalType()));
    }
  }

  /**
   * What a writer of {@code record} through {@code get(int)} allocates at least when its boxes escape, without
   * encoding: every field read through {@code get(int)} (nested records' too) and handed to {@code keep} (a JMH
   * blackhole, which keeps each box alive at no other cost), and an output array of {@code size} bytes, the framed
   * payload's.
   */
  byte[] allocationOnly(SpecificRecord record, int size, java.util.function.Consumer<Object> keep) {
    if (shape == Shape.S2) {
      User u = (User) record;
      for (int i = 0; i < 81; i++) {
        keep.accept(u.get(i));
      }
      return new byte[size];
    }
    Order r = (Order) record;
    for (int i = 0; i < 18; i++) {
      keep.accept(r.get(i));
    }
    Address a = (Address) r.get(13);
    keep.accept(a.get(0));
    keep.accept(a.get(1));
    keep.accept(a.get(2));
    @SuppressWarnings("unchecked")
    List<Line> lines = (List<Line>) r.get(14);
    for (int i = 0, n = lines.size(); i < n; i++) {
      Line l = lines.get(i);
      keep.accept(l.get(0));
      keep.accept(l.get(1));
      keep.accept(l.get(2));
    }
    return new byte[size];
  }
}
