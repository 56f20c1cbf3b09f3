package io.kavro.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.Utf8;

/**
 * Two reference points for deserialization, not product code: what any reader producing Avro's generic
 * object graph can at best do for S2 and S3, or for a copy of S3 under another record name ({@link #s3}: the
 * record types of {@link ManySchemas}), each built of its own schema's objects.
 *
 * <ul>
 *   <li>{@link #handWritten}: a reader written by hand for exactly this schema, straight-line, every call
 *       monomorphic; the ceiling of any generated (bytecode or other) specialized reader. It reads through
 *       Avro's own {@link BinaryDecoder} (Kavro's decoder is internal to the serde), as raw Avro does, and
 *       returns the same result as Kavro and Avro.</li>
 *   <li>{@link #allocationOnly}: no decoding at all, only the allocation of the same object graph (the same
 *       classes, string and byte lengths, element counts and boxed values, taken from a plan made of each
 *       record beforehand); the floor under any reader that returns that graph.</li>
 * </ul>
 *
 * <p>Not thread-safe: one per benchmark thread.
 */
final class ReferenceReaders {
  private final Shape shape;
  private final Schema order;
  private final Schema hash;
  private final Schema tags;
  private final Schema attributes;
  private final Schema address;
  private final Schema lines;
  private final Schema line;
  private final Object[] statuses;
  private BinaryDecoder in;

  /** The reference readers of {@code shape}'s writer schema (S2 or S3). */
  ReferenceReaders(Shape shape) {
    this(shape, checkedShape(shape).writer());
  }

  /**
   * The reference readers of {@code writer}, S3's writer schema under another record name or namespace (the same
   * fields, of the same types): the records they return hold {@code writer}'s own schema objects.
   *
   * @throws IllegalArgumentException if {@code writer} is not shaped as S3, naming the first field that differs
   */
  static ReferenceReaders s3(Schema writer) {
    Schema s3 = Shape.S3.writer();
    if (writer.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException("not an S3-shaped record but a " + writer.getType() + ": " + writer);
    }
    List<Schema.Field> expected = s3.getFields();
    List<Schema.Field> actual = writer.getFields();
    for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
      Schema.Field want = i < expected.size() ? expected.get(i) : null;
      Schema.Field got = i < actual.size() ? actual.get(i) : null;
      if (want == null || got == null || !want.name().equals(got.name()) || !want.schema().equals(got.schema())) {
        throw new IllegalArgumentException(writer.getFullName() + " is not shaped as S3: field " + i + " is "
            + (got == null ? "missing" : got.name() + " " + got.schema()) + ", S3's is "
            + (want == null ? "missing" : want.name() + " " + want.schema()));
      }
    }
    return new ReferenceReaders(Shape.S3, writer);
  }

  private static Shape checkedShape(Shape shape) {
    if (shape != Shape.S2 && shape != Shape.S3) {
      throw new IllegalArgumentException("reference readers exist for S2 and S3 only, not " + shape);
    }
    return shape;
  }

  private ReferenceReaders(Shape shape, Schema order) {
    this.shape = shape;
    this.order = order;
    if (shape == Shape.S2) {
      hash = tags = attributes = address = lines = line = null;
      statuses = null;
      return;
    }
    hash = order.getField("hash").schema();
    tags = order.getField("tags").schema();
    attributes = order.getField("attributes").schema();
    address = order.getField("address").schema();
    lines = order.getField("lines").schema();
    line = lines.getElementType();
    Schema status = order.getField("status").schema();
    statuses = status.getEnumSymbols().stream().map(s -> new GenericData.EnumSymbol(status, s)).toArray();
  }

  /** Reads one framed payload, as a reader written by hand for this shape. */
  Object handWritten(byte[] payload) throws IOException {
    BinaryDecoder in = DecoderFactory.get().binaryDecoder(payload, 5, payload.length - 5, this.in);
    this.in = in;
    return read(in);
  }

  /**
   * Reads one record from {@code in}, positioned at its body, as {@link #handWritten} does: for a caller that
   * keeps one decoder for many of these (as {@link RawPerSchema} keeps one for its many readers).
   */
  Object read(BinaryDecoder in) throws IOException {
    return shape == Shape.S2 ? readS2(in) : readS3(in);
  }

  private Object readS2(BinaryDecoder in) throws IOException {
    GenericData.Record record = new GenericData.Record(order);
    for (int i = 0; i < 81; i++) {
      record.put(i, nullableString(in));
    }
    return record;
  }

  private Object readS3(BinaryDecoder in) throws IOException {
    GenericData.Record r = new GenericData.Record(order);
    r.put(0, in.readString(null));
    r.put(1, in.readLong());
    r.put(2, in.readInt());
    r.put(3, in.readFloat());
    r.put(4, in.readDouble());
    r.put(5, in.readBoolean());
    r.put(6, in.readString(null));
    r.put(7, in.readBytes(null));
    int symbol = in.readEnum();
    if (symbol < 0 || symbol >= statuses.length) {
      throw new IOException("bad enum index " + symbol);
    }
    r.put(8, statuses[symbol]);
    GenericData.Fixed fixed = new GenericData.Fixed(hash);
    in.readFixed(fixed.bytes(), 0, 16);
    r.put(9, fixed);
    r.put(10, nullableString(in));
    long n = in.readArrayStart();
    GenericData.Array<Object> longs = new GenericData.Array<>((int) n, tags);
    for (; n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        longs.add(in.readLong());
      }
    }
    r.put(11, longs);
    Map<Object, Object> map = new HashMap<>();
    for (n = in.readMapStart(); n > 0; n = in.mapNext()) {
      for (long i = 0; i < n; i++) {
        map.put(in.readString(null), in.readString(null));
      }
    }
    r.put(12, map);
    GenericData.Record a = new GenericData.Record(address);
    a.put(0, in.readString(null));
    a.put(1, in.readString(null));
    a.put(2, nullableString(in));
    r.put(13, a);
    n = in.readArrayStart();
    GenericData.Array<Object> items = new GenericData.Array<>((int) n, lines);
    for (; n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        GenericData.Record l = new GenericData.Record(line);
        l.put(0, in.readString(null));
        l.put(1, in.readInt());
        l.put(2, in.readBytes(null));
        items.add(l);
      }
    }
    r.put(14, items);
    r.put(15, in.readLong());
    r.put(16, in.readInt());
    r.put(17, in.readBytes(null));
    return r;
  }

  /** A writer's {@code ["null", "string"]}: {@code null} or a new {@code Utf8}. */
  static Utf8 nullableString(BinaryDecoder in) throws IOException {
    int branch = in.readIndex();
    if (branch == 0) {
      return null;
    }
    if (branch != 1) {
      throw new IOException("bad union index " + branch);
    }
    return in.readString(null);
  }

  /**
   * What {@link #allocationOnly} allocates for one record: its string and byte lengths (-1 for null) and
   * element counts in {@code sizes}, its numbers in {@code numbers}, in reading order.
   */
  record Plan(int[] sizes, long[] numbers) {}

  /** The plan of a record as read (by {@link #handWritten}). */
  Plan plan(Object datum) {
    GenericRecord r = (GenericRecord) datum;
    if (shape == Shape.S2) {
      int[] sizes = new int[81];
      for (int i = 0; i < 81; i++) {
        sizes[i] = length(r.get(i));
      }
      return new Plan(sizes, new long[0]);
    }
    List<?> longs = (List<?>) r.get(11);
    Map<?, ?> map = (Map<?, ?>) r.get(12);
    GenericRecord a = (GenericRecord) r.get(13);
    List<?> items = (List<?>) r.get(14);
    java.util.ArrayList<Integer> sizes = new java.util.ArrayList<>(List.of(length(r.get(0)), length(r.get(6)),
        length(r.get(7)), length(r.get(10)), longs.size(), map.size()));
    map.forEach((k, v) -> {
      sizes.add(length(k));
      sizes.add(length(v));
    });
    sizes.addAll(List.of(length(a.get(0)), length(a.get(1)), length(a.get(2)), items.size()));
    java.util.ArrayList<Long> numbers = new java.util.ArrayList<>(List.of((Long) r.get(1), (long) (Integer) r.get(2),
        (long) Float.floatToIntBits((Float) r.get(3)), Double.doubleToLongBits((Double) r.get(4)),
        (Boolean) r.get(5) ? 1L : 0L, (long) order.getField("status").schema().getEnumOrdinal(r.get(8).toString())));
    for (Object l : longs) {
      numbers.add((Long) l);
    }
    for (Object o : items) {
      GenericRecord l = (GenericRecord) o;
      sizes.add(length(l.get(0)));
      sizes.add(length(l.get(2)));
      numbers.add((long) (Integer) l.get(1));
    }
    sizes.add(length(r.get(17)));
    numbers.add((Long) r.get(15));
    numbers.add((long) (Integer) r.get(16));
    return new Plan(sizes.stream().mapToInt(Integer::intValue).toArray(),
        numbers.stream().mapToLong(Long::longValue).toArray());
  }

  private static int length(Object value) {
    if (value == null) {
      return -1;
    }
    return value instanceof Utf8 u ? u.getByteLength() : ((ByteBuffer) value).remaining();
  }

  /** Allocates the object graph of the planned record, without reading anything. */
  Object allocationOnly(Plan plan) {
    int[] s = plan.sizes();
    long[] v = plan.numbers();
    GenericData.Record r = new GenericData.Record(order);
    if (shape == Shape.S2) {
      for (int i = 0; i < 81; i++) {
        r.put(i, utf8(s[i]));
      }
      return r;
    }
    int si = 0;
    int vi = 0;
    r.put(0, utf8(s[si++]));
    r.put(6, utf8(s[si++]));
    r.put(7, ByteBuffer.allocate(s[si++]));
    r.put(10, utf8(s[si++]));
    r.put(1, v[vi++]);
    r.put(2, (int) v[vi++]);
    r.put(3, Float.intBitsToFloat((int) v[vi++]));
    r.put(4, Double.longBitsToDouble(v[vi++]));
    r.put(5, v[vi++] == 1);
    r.put(8, statuses[(int) v[vi++]]);
    r.put(9, new GenericData.Fixed(hash, new byte[16]));
    int count = s[si++];
    GenericData.Array<Object> longs = new GenericData.Array<>(count, tags);
    int entries = s[si++];
    for (int i = 0; i < count; i++) {
      longs.add(v[vi++]);
    }
    r.put(11, longs);
    Map<Object, Object> map = new HashMap<>();
    for (int i = 0; i < entries; i++) {
      byte[] key = new byte[s[si++]];
      key[0] = (byte) i; // distinct keys, as read
      map.put(new Utf8(key), utf8(s[si++]));
    }
    r.put(12, map);
    GenericData.Record a = new GenericData.Record(address);
    a.put(0, utf8(s[si++]));
    a.put(1, utf8(s[si++]));
    a.put(2, utf8(s[si++]));
    r.put(13, a);
    count = s[si++];
    GenericData.Array<Object> items = new GenericData.Array<>(count, lines);
    for (int i = 0; i < count; i++) {
      GenericData.Record l = new GenericData.Record(line);
      l.put(0, utf8(s[si++]));
      l.put(2, ByteBuffer.allocate(s[si++]));
      l.put(1, (int) v[vi++]);
      items.add(l);
    }
    r.put(14, items);
    r.put(17, ByteBuffer.allocate(s[si]));
    r.put(15, v[vi++]);
    r.put(16, (int) v[vi]);
    return r;
  }

  private static Utf8 utf8(int length) {
    return length < 0 ? null : new Utf8(new byte[length]);
  }
}
