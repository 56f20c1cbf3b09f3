package io.kavro.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.util.Utf8;

/**
 * Two reference points for deserializing into the classes avro-maven-plugin generated from S2 and S3 ({@link User},
 * {@link Order}), not product code: what any reader returning those classes, as Kavro's deserializer and Avro's
 * {@code SpecificDatumReader} return them, can at best do. Both build the same objects those readers build:
 * {@code Utf8} strings (the plugin's default string type), a {@code ByteBuffer} over its own array, the generated
 * enum's constants, a {@link Hash16} over its own 16 bytes, {@code GenericData.Array} and {@code HashMap}
 * collections of boxed {@code Long}s and {@code Utf8}s, and the logical types as the classes' conversions make
 * them ({@code UUID}, {@code Instant}, {@code LocalDate}, {@code BigDecimal}).
 *
 * <ul>
 *   <li>{@link #handWritten}: a reader written by hand for exactly this class, straight-line, every call
 *       monomorphic, through the generated setters. It reads through Avro's own {@link BinaryDecoder} (Kavro's
 *       decoder is internal to the serde), a {@code uuid} parsed from its hex digits and a decimal from its
 *       unscaled bytes without Avro's conversions. The ceiling of any reader of these classes on that decoder.</li>
 *   <li>{@link #allocationOnly}: no decoding at all, only the same objects, planned from each record beforehand
 *       ({@link #plan}): the same classes, string and byte lengths, element counts and values, the strings' and
 *       bytes' contents copied into arrays of their size as any reader copies them (an array filled by a copy is
 *       not zeroed first), so the result equals what the readers return. The floor under any reader that returns
 *       these classes.</li>
 * </ul>
 *
 * <p>Not thread-safe: one per benchmark thread.
 */
final class ReferenceSpecificReaders {
  private static final Status[] STATUSES = Status.values();
  /** Each ASCII hex digit's value, either case; -1 for any other byte. */
  private static final byte[] HEX = new byte[256];

  static {
    Arrays.fill(HEX, (byte) -1);
    for (int i = 0; i < 10; i++) {
      HEX['0' + i] = (byte) i;
    }
    for (int i = 0; i < 6; i++) {
      HEX['a' + i] = (byte) (10 + i);
      HEX['A' + i] = (byte) (10 + i);
    }
  }

  private final Shape shape;
  private final Schema tags;
  private final Schema lines;
  private final int priceScale;
  private final int balanceScale;
  /** A uuid's text or a decimal's unscaled bytes, read before they become their value. */
  private final byte[] scratch = new byte[36];
  private BinaryDecoder in;
  /** {@link #allocationOnly}'s plan's contents and the next content's offset in them. */
  private byte[] contents;
  private int at;

  /** The reference readers of {@code shape}'s generated class (S2 or S3). */
  ReferenceSpecificReaders(Shape shape) {
    if (shape != Shape.S2 && shape != Shape.S3) {
      throw new IllegalArgumentException("reference readers of generated classes exist for S2 and S3 only, not "
          + shape);
    }
    this.shape = shape;
    if (shape == Shape.S2) {
      tags = lines = null;
      priceScale = balanceScale = 0;
      return;
    }
    Schema order = Order.getClassSchema();
    tags = order.getField("tags").schema();
    lines = order.getField("lines").schema();
    priceScale = ((LogicalTypes.Decimal) lines.getElementType().getField("price").schema().getLogicalType())
        .getScale();
    balanceScale = ((LogicalTypes.Decimal) order.getField("balance").schema().getLogicalType()).getScale();
  }

  /** Reads one framed payload into the shape's generated class, as a reader written by hand for it. */
  SpecificRecord handWritten(byte[] payload) throws IOException {
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(payload, 5, payload.length - 5, this.in);
    this.in = in;
    return shape == Shape.S2 ? readS2(in) : readS3(in);
  }

  private static User readS2(BinaryDecoder in) throws IOException {
    User u = new User();
    u.setValue0(ReferenceReaders.nullableString(in));
    u.setValue1(ReferenceReaders.nullableString(in));
    u.setValue2(ReferenceReaders.nullableString(in));
    u.setValue3(ReferenceReaders.nullableString(in));
    u.setValue4(ReferenceReaders.nullableString(in));
    u.setValue5(ReferenceReaders.nullableString(in));
    u.setValue6(ReferenceReaders.nullableString(in));
    u.setValue7(ReferenceReaders.nullableString(in));
    u.setValue8(ReferenceReaders.nullableString(in));
    u.setValue9(ReferenceReaders.nullableString(in));
    u.setValue10(ReferenceReaders.nullableString(in));
    u.setValue11(ReferenceReaders.nullableString(in));
    u.setValue12(ReferenceReaders.nullableString(in));
    u.setValue13(ReferenceReaders.nullableString(in));
    u.setValue14(ReferenceReaders.nullableString(in));
    u.setValue15(ReferenceReaders.nullableString(in));
    u.setValue16(ReferenceReaders.nullableString(in));
    u.setValue17(ReferenceReaders.nullableString(in));
    u.setValue18(ReferenceReaders.nullableString(in));
    u.setValue19(ReferenceReaders.nullableString(in));
    u.setValue20(ReferenceReaders.nullableString(in));
    u.setValue21(ReferenceReaders.nullableString(in));
    u.setValue22(ReferenceReaders.nullableString(in));
    u.setValue23(ReferenceReaders.nullableString(in));
    u.setValue24(ReferenceReaders.nullableString(in));
    u.setValue25(ReferenceReaders.nullableString(in));
    u.setValue26(ReferenceReaders.nullableString(in));
    u.setValue27(ReferenceReaders.nullableString(in));
    u.setValue28(ReferenceReaders.nullableString(in));
    u.setValue29(ReferenceReaders.nullableString(in));
    u.setValue30(ReferenceReaders.nullableString(in));
    u.setValue31(ReferenceReaders.nullableString(in));
    u.setValue32(ReferenceReaders.nullableString(in));
    u.setValue33(ReferenceReaders.nullableString(in));
    u.setValue34(ReferenceReaders.nullableString(in));
    u.setValue35(ReferenceReaders.nullableString(in));
    u.setValue36(ReferenceReaders.nullableString(in));
    u.setValue37(ReferenceReaders.nullableString(in));
    u.setValue38(ReferenceReaders.nullableString(in));
    u.setValue39(ReferenceReaders.nullableString(in));
    u.setValue40(ReferenceReaders.nullableString(in));
    u.setValue41(ReferenceReaders.nullableString(in));
    u.setValue42(ReferenceReaders.nullableString(in));
    u.setValue43(ReferenceReaders.nullableString(in));
    u.setValue44(ReferenceReaders.nullableString(in));
    u.setValue45(ReferenceReaders.nullableString(in));
    u.setValue46(ReferenceReaders.nullableString(in));
    u.setValue47(ReferenceReaders.nullableString(in));
    u.setValue48(ReferenceReaders.nullableString(in));
    u.setValue49(ReferenceReaders.nullableString(in));
    u.setValue50(ReferenceReaders.nullableString(in));
    u.setValue51(ReferenceReaders.nullableString(in));
    u.setValue52(ReferenceReaders.nullableString(in));
    u.setValue53(ReferenceReaders.nullableString(in));
    u.setValue54(ReferenceReaders.nullableString(in));
    u.setValue55(ReferenceReaders.nullableString(in));
    u.setValue56(ReferenceReaders.nullableString(in));
    u.setValue57(ReferenceReaders.nullableString(in));
    u.setValue58(ReferenceReaders.nullableString(in));
    u.setValue59(ReferenceReaders.nullableString(in));
    u.setValue60(ReferenceReaders.nullableString(in));
    u.setValue61(ReferenceReaders.nullableString(in));
    u.setValue62(ReferenceReaders.nullableString(in));
    u.setValue63(ReferenceReaders.nullableString(in));
    u.setValue64(ReferenceReaders.nullableString(in));
    u.setValue65(ReferenceReaders.nullableString(in));
    u.setValue66(ReferenceReaders.nullableString(in));
    u.setValue67(ReferenceReaders.nullableString(in));
    u.setValue68(ReferenceReaders.nullableString(in));
    u.setValue69(ReferenceReaders.nullableString(in));
    u.setValue70(ReferenceReaders.nullableString(in));
    u.setValue71(ReferenceReaders.nullableString(in));
    u.setValue72(ReferenceReaders.nullableString(in));
    u.setValue73(ReferenceReaders.nullableString(in));
    u.setValue74(ReferenceReaders.nullableString(in));
    u.setValue75(ReferenceReaders.nullableString(in));
    u.setValue76(ReferenceReaders.nullableString(in));
    u.setValue77(ReferenceReaders.nullableString(in));
    u.setValue78(ReferenceReaders.nullableString(in));
    u.setValue79(ReferenceReaders.nullableString(in));
    u.setValue80(ReferenceReaders.nullableString(in));
    return u;
  }

  private Order readS3(BinaryDecoder in) throws IOException {
    Order r = new Order();
    r.setId(uuid(in));
    r.setSeq(in.readLong());
    r.setCount(in.readInt());
    r.setRatio(in.readFloat());
    r.setScore(in.readDouble());
    r.setActive(in.readBoolean());
    r.setName(in.readString(null));
    r.setPayload(in.readBytes(null));
    int symbol = in.readEnum();
    if (symbol < 0 || symbol >= STATUSES.length) {
      throw new IOException("bad enum index " + symbol);
    }
    r.setStatus(STATUSES[symbol]);
    Hash16 hash = new Hash16();
    in.readFixed(hash.bytes(), 0, 16);
    r.setHash(hash);
    r.setNickname(ReferenceReaders.nullableString(in));
    long n = in.readArrayStart();
    GenericData.Array<Long> longs = new GenericData.Array<>((int) n, tags);
    for (; n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        longs.add(in.readLong());
      }
    }
    r.setTags(longs);
    Map<CharSequence, CharSequence> map = new HashMap<>();
    for (n = in.readMapStart(); n > 0; n = in.mapNext()) {
      for (long i = 0; i < n; i++) {
        map.put(in.readString(null), in.readString(null));
      }
    }
    r.setAttributes(map);
    Address a = new Address();
    a.setStreet(in.readString(null));
    a.setCity(in.readString(null));
    a.setZip(ReferenceReaders.nullableString(in));
    r.setAddress(a);
    n = in.readArrayStart();
    GenericData.Array<Line> items = new GenericData.Array<>((int) n, lines);
    for (; n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        Line l = new Line();
        l.setSku(in.readString(null));
        l.setQty(in.readInt());
        l.setPrice(decimal(in, priceScale));
        items.add(l);
      }
    }
    r.setLines(items);
    r.setCreatedAt(Instant.ofEpochMilli(in.readLong()));
    r.setBirthday(LocalDate.ofEpochDay(in.readInt()));
    r.setBalance(decimal(in, balanceScale));
    return r;
  }

  /** A {@code uuid}: its 36 bytes' hex digits parsed in place; any other text through {@code UUID.fromString}. */
  private UUID uuid(BinaryDecoder in) throws IOException {
    int length = in.readInt();
    if (length == 36) {
      byte[] b = scratch;
      in.readFixed(b, 0, 36);
      if (b[8] == '-' && b[13] == '-' && b[18] == '-' && b[23] == '-') {
        long a = hex(b, 0, 8);
        long c = hex(b, 9, 4);
        long d = hex(b, 14, 4);
        long e = hex(b, 19, 4);
        long f = hex(b, 24, 12);
        if ((a | c | d | e | f) >= 0) {
          return new UUID(a << 32 | c << 16 | d, e << 48 | f);
        }
      }
      return UUID.fromString(new String(b, 0, 36, StandardCharsets.UTF_8));
    }
    if (length < 0) {
      throw new IOException("negative uuid length " + length);
    }
    byte[] text = new byte[length]; // not in the benchmark's data
    in.readFixed(text, 0, length);
    return UUID.fromString(new String(text, StandardCharsets.UTF_8));
  }

  /** The value of {@code digits} hex digits at {@code from}, or -1 if any byte is not one. */
  private static long hex(byte[] b, int from, int digits) {
    long value = 0;
    for (int i = from, end = from + digits; i < end; i++) {
      int digit = HEX[b[i] & 0xff];
      if (digit < 0) {
        return -1;
      }
      value = value << 4 | digit;
    }
    return value;
  }

  /** A decimal of {@code scale} from its unscaled value's two's complement, big-endian, as Avro's conversion. */
  private BigDecimal decimal(BinaryDecoder in, int scale) throws IOException {
    int length = in.readInt();
    if (length <= 0) {
      throw new IOException("a decimal of " + length + " bytes");
    }
    if (length <= 8) {
      byte[] b = scratch;
      in.readFixed(b, 0, length);
      long unscaled = b[0];
      for (int i = 1; i < length; i++) {
        unscaled = unscaled << 8 | b[i] & 0xffL;
      }
      return BigDecimal.valueOf(unscaled, scale);
    }
    byte[] b = new byte[length]; // not in the benchmark's data
    in.readFixed(b, 0, length);
    return new BigDecimal(new BigInteger(b), scale);
  }

  /**
   * What {@link #allocationOnly} builds one record of: its string and byte lengths (-1 for null) and element counts
   * in {@code sizes}, its numbers (floats and doubles by their bits) in {@code numbers}, the strings', bytes' and
   * fixed's contents one after the other in {@code contents}, each in building order.
   */
  record Plan(int[] sizes, long[] numbers, byte[] contents) {}

  /** The plan of a record of the shape's generated class, as read (by {@link #handWritten}). */
  Plan plan(SpecificRecord record) {
    List<Integer> sizes = new ArrayList<>();
    List<Long> numbers = new ArrayList<>();
    ByteArrayOutputStream contents = new ByteArrayOutputStream();
    if (shape == Shape.S2) {
      User u = (User) record;
      for (int i = 0; i < 81; i++) {
        content((CharSequence) u.get(i), sizes, contents);
      }
      return plan(sizes, numbers, contents);
    }
    Order r = (Order) record;
    numbers.addAll(List.of(r.getId().getMostSignificantBits(), r.getId().getLeastSignificantBits(), r.getSeq(),
        (long) r.getCount(), (long) Float.floatToRawIntBits(r.getRatio()),
        Double.doubleToRawLongBits(r.getScore()), r.getActive() ? 1L : 0L, (long) r.getStatus().ordinal()));
    content(r.getName(), sizes, contents);
    ByteBuffer payload = r.getPayload().duplicate();
    byte[] bytes = new byte[payload.remaining()];
    payload.get(bytes);
    sizes.add(bytes.length);
    contents.writeBytes(bytes);
    contents.writeBytes(r.getHash().bytes());
    content(r.getNickname(), sizes, contents);
    sizes.add(r.getTags().size());
    numbers.addAll(r.getTags());
    sizes.add(r.getAttributes().size());
    r.getAttributes().forEach((k, v) -> {
      content(k, sizes, contents);
      content(v, sizes, contents);
    });
    content(r.getAddress().getStreet(), sizes, contents);
    content(r.getAddress().getCity(), sizes, contents);
    content(r.getAddress().getZip(), sizes, contents);
    sizes.add(r.getLines().size());
    for (Line l : r.getLines()) {
      content(l.getSku(), sizes, contents);
      numbers.add((long) l.getQty());
      numbers.add(unscaled(l.getPrice(), priceScale));
    }
    numbers.addAll(List.of(r.getCreatedAt().toEpochMilli(), r.getBirthday().toEpochDay(),
        unscaled(r.getBalance(), balanceScale)));
    return plan(sizes, numbers, contents);
  }

  private static Plan plan(List<Integer> sizes, List<Long> numbers, ByteArrayOutputStream contents) {
    return new Plan(sizes.stream().mapToInt(Integer::intValue).toArray(),
        numbers.stream().mapToLong(Long::longValue).toArray(), contents.toByteArray());
  }

  private static void content(CharSequence text, List<Integer> sizes, ByteArrayOutputStream contents) {
    if (text == null) {
      sizes.add(-1);
      return;
    }
    Utf8 utf8 = (Utf8) text; // what the readers return: anything else would be another object graph
    sizes.add(utf8.getByteLength());
    contents.write(utf8.getBytes(), 0, utf8.getByteLength());
  }

  private static long unscaled(BigDecimal value, int scale) {
    if (value.scale() != scale) {
      throw new IllegalArgumentException("a decimal of scale " + value.scale() + ", not " + scale + ": " + value);
    }
    return value.unscaledValue().longValueExact();
  }

  /** Builds the objects of the planned record, without reading anything. */
  SpecificRecord allocationOnly(Plan plan) {
    contents = plan.contents();
    at = 0;
    int[] s = plan.sizes();
    if (shape == Shape.S2) {
      // put(int) in a loop, as Kavro stores them: measured faster here than the 81 setters inlined straight
      // (1,156 against 1,235 ns/op, 2 forks each), so the lower floor.
      User u = new User();
      for (int i = 0; i < 81; i++) {
        u.put(i, utf8(s[i]));
      }
      return u;
    }
    long[] v = plan.numbers();
    Order r = new Order();
    r.setId(new UUID(v[0], v[1]));
    r.setSeq(v[2]);
    r.setCount((int) v[3]);
    r.setRatio(Float.intBitsToFloat((int) v[4]));
    r.setScore(Double.longBitsToDouble(v[5]));
    r.setActive(v[6] != 0);
    r.setStatus(STATUSES[(int) v[7]]);
    int vi = 8;
    int si = 0;
    r.setName(utf8(s[si++]));
    r.setPayload(ByteBuffer.wrap(copy(s[si++])));
    Hash16 hash = new Hash16();
    System.arraycopy(contents, at, hash.bytes(), 0, 16);
    at += 16;
    r.setHash(hash);
    r.setNickname(utf8(s[si++]));
    int count = s[si++];
    GenericData.Array<Long> longs = new GenericData.Array<>(count, tags);
    for (int i = 0; i < count; i++) {
      longs.add(v[vi++]);
    }
    r.setTags(longs);
    count = s[si++];
    Map<CharSequence, CharSequence> map = new HashMap<>();
    for (int i = 0; i < count; i++) {
      Utf8 key = utf8(s[si++]);
      map.put(key, utf8(s[si++]));
    }
    r.setAttributes(map);
    Address a = new Address();
    a.setStreet(utf8(s[si++]));
    a.setCity(utf8(s[si++]));
    a.setZip(utf8(s[si++]));
    r.setAddress(a);
    count = s[si++];
    GenericData.Array<Line> items = new GenericData.Array<>(count, lines);
    for (int i = 0; i < count; i++) {
      Line l = new Line();
      l.setSku(utf8(s[si++]));
      l.setQty((int) v[vi++]);
      l.setPrice(BigDecimal.valueOf(v[vi++], priceScale));
      items.add(l);
    }
    r.setLines(items);
    r.setCreatedAt(Instant.ofEpochMilli(v[vi++]));
    r.setBirthday(LocalDate.ofEpochDay(v[vi++]));
    r.setBalance(BigDecimal.valueOf(v[vi], balanceScale));
    return r;
  }

  private Utf8 utf8(int length) {
    return length < 0 ? null : new Utf8(copy(length));
  }

  /** The plan's next {@code length} content bytes, in an array of their own. */
  private byte[] copy(int length) {
    int from = at;
    at = from + length;
    return Arrays.copyOfRange(contents, from, from + length);
  }
}
