package io.kavro.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.util.Utf8;

/**
 * Benchmark reference points on Kavro's own decoder ({@link BoundedBinaryDecoder}, package-private, hence this
 * package; not product code: it lives in the benchmarks module only), for S2 and S3's writer schemas, and S3's
 * bytes read as S4's reader schema.
 *
 * <ul>
 *   <li>{@link #read}: a reader written by hand for exactly the shape, straight-line, every call monomorphic,
 *       through the same decoder calls Kavro's compiled reader makes (Kavro's framing skipped as a fixed 5-byte
 *       prefix, no route lookup); the same object graph as Kavro's deserializer returns: the ceiling of any reader
 *       on Kavro's decoder.</li>
 *   <li>{@link #readCompiled}: Kavro's own compiled decoder of the shape called directly, without the
 *       deserializer's route lookup and framing.</li>
 *   <li>{@link #decodeOnly}: the same decoding without the graph: every varint, float and double read, every string,
 *       bytes and fixed copied into one reused buffer, nothing allocated. This decoding, through the decoder's
 *       general calls ({@code readString} into a reused {@code Utf8}, {@code readIndex}), not the fast paths Kavro's
 *       compiled reader and {@link #read} take: a reference point, not a bound on every reader.</li>
 * </ul>
 *
 * <p>Not thread-safe: one per benchmark thread.
 */
public final class KavroDecoderReaders {
  /** The shapes read: S2's and S3's writer schemas, and S3's bytes as S4's reader schema. */
  public enum Kind {
    /** 81 optional strings. */
    S2,
    /** S3's writer schema. */
    S3,
    /** S3's bytes read as S4's reader schema (fields reordered, promoted, skipped and defaulted). */
    S4
  }

  private final Kind kind;
  private final Schema order;
  private final Schema hash;
  private final Schema tags;
  private final Schema address;
  private final Schema lines;
  private final Schema line;
  private final Object[] statuses;
  /** S4: the reader's field positions of the writer's fields, and its defaults. */
  private final int[] at;
  private final Object regionDefault;
  private final Object versionDefault;
  private final int region;
  private final int version;
  private final BoundedBinaryDecoder in = new BoundedBinaryDecoder();
  /** Kavro's compiled decoder of the shape, as its deserializer's route holds it. */
  private final CompiledDecoder compiled;
  private final Utf8 scratchUtf8 = new Utf8(new byte[256]);
  private ByteBuffer scratchBytes = ByteBuffer.allocate(256);
  private final byte[] scratchFixed = new byte[16];

  /**
   * @param kind the shape
   * @param writer the schema the records are written with
   * @param reader the schema the records are read as: S2's or S3's writer schema, or S4's reader schema
   */
  public KavroDecoderReaders(Kind kind, Schema writer, Schema reader) {
    this.kind = kind;
    this.order = reader;
    this.compiled = DecoderCompiler.compile(writer, reader, new GenericData());
    if (kind == Kind.S2) {
      hash = tags = address = lines = line = null;
      statuses = null;
      at = null;
      regionDefault = versionDefault = null;
      region = version = -1;
      return;
    }
    hash = reader.getField("hash").schema();
    tags = reader.getField("tags").schema();
    address = reader.getField("address").schema();
    lines = reader.getField("lines").schema();
    line = lines.getElementType();
    Schema status = reader.getField("status").schema();
    statuses = status.getEnumSymbols().stream().map(s -> new GenericData.EnumSymbol(status, s)).toArray();
    String[] writerOrder = {"id", "seq", "count", "ratio", "score", "active", "name", "payload", "status", "hash",
        "nickname", "tags", "attributes", "address", "lines", "createdAt", "birthday", "balance"};
    at = new int[writerOrder.length];
    for (int i = 0; i < writerOrder.length; i++) {
      Schema.Field field = reader.getField(writerOrder[i]);
      at[i] = field == null ? -1 : field.pos();
    }
    if (kind == Kind.S4) {
      region = reader.getField("region").pos();
      version = reader.getField("version").pos();
      regionDefault = GenericData.get().getDefaultValue(reader.getField("region"));
      versionDefault = GenericData.get().getDefaultValue(reader.getField("version"));
    } else {
      region = version = -1;
      regionDefault = versionDefault = null;
    }
  }

  /** Reads one payload of Kavro's 5-byte framing as a reader written by hand for the shape. */
  public Object read(byte[] payload) throws IOException {
    BoundedBinaryDecoder in = this.in.reset(payload, 5, payload.length - 5);
    return switch (kind) {
      case S2 -> readS2(in);
      case S3 -> readS3(in);
      case S4 -> readS4(in);
    };
  }

  private Object readS2(BoundedBinaryDecoder in) throws IOException {
    GenericData.Record record = new GenericData.Record(order);
    for (int i = 0; i < 81; i++) {
      record.put(i, in.readNullableUtf8());
    }
    return record;
  }

  private Object readS3(BoundedBinaryDecoder in) throws IOException {
    GenericData.Record r = new GenericData.Record(order);
    r.put(0, in.readUtf8());
    r.put(1, in.readLong());
    r.put(2, in.readInt());
    r.put(3, in.readFloat());
    r.put(4, in.readDouble());
    r.put(5, in.readBoolean());
    r.put(6, in.readUtf8());
    r.put(7, in.readBytes(null));
    r.put(8, status(in));
    r.put(9, fixed(in));
    r.put(10, in.readNullableUtf8());
    r.put(11, longs(in));
    r.put(12, map(in));
    r.put(13, address(in));
    r.put(14, lines(in));
    r.put(15, in.readLong());
    r.put(16, in.readInt());
    r.put(17, in.readBytes(null));
    return r;
  }

  private Object readS4(BoundedBinaryDecoder in) throws IOException {
    int[] at = this.at;
    GenericData.Record r = new GenericData.Record(order);
    r.put(at[0], in.readUtf8());
    r.put(at[1], in.readLong());
    r.put(at[2], (long) in.readInt());
    in.readFloat(); // ratio: not in the reader
    r.put(at[4], in.readDouble());
    r.put(at[5], in.readBoolean());
    r.put(at[6], in.readUtf8());
    r.put(at[7], in.readBytes(null));
    r.put(at[8], status(in));
    r.put(at[9], fixed(in));
    r.put(at[10], in.readNullableUtf8());
    r.put(at[11], longs(in));
    r.put(at[12], map(in));
    r.put(at[13], address(in));
    r.put(at[14], lines(in));
    r.put(at[15], in.readLong());
    r.put(at[16], in.readInt());
    r.put(at[17], in.readBytes(null));
    r.put(region, GenericData.get().deepCopy(order.getField("region").schema(), regionDefault));
    r.put(version, versionDefault);
    return r;
  }

  private Object status(BoundedBinaryDecoder in) throws IOException {
    int symbol = in.readEnum();
    if (symbol < 0 || symbol >= statuses.length) {
      throw new AvroTypeException("enum index " + symbol + " out of range");
    }
    return statuses[symbol];
  }

  private Object fixed(BoundedBinaryDecoder in) throws IOException {
    in.require(16);
    GenericData.Fixed fixed = new GenericData.Fixed(hash);
    in.readFixed(fixed.bytes(), 0, 16);
    return fixed;
  }

  private Object longs(BoundedBinaryDecoder in) throws IOException {
    long n = in.readArrayStart();
    GenericData.Array<Object> longs = new GenericData.Array<>((int) n, tags);
    for (; n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        longs.add(in.readLong());
      }
    }
    return longs;
  }

  private static Object map(BoundedBinaryDecoder in) throws IOException {
    Map<Object, Object> map = new HashMap<>();
    for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
      for (long i = 0; i < n; i++) {
        Utf8 key = in.readUtf8();
        map.put(key, in.readUtf8());
      }
    }
    return map;
  }

  private Object address(BoundedBinaryDecoder in) throws IOException {
    GenericData.Record a = new GenericData.Record(address);
    a.put(0, in.readUtf8());
    a.put(1, in.readUtf8());
    a.put(2, in.readNullableUtf8());
    return a;
  }

  private Object lines(BoundedBinaryDecoder in) throws IOException {
    long n = in.readArrayStart();
    GenericData.Array<Object> items = new GenericData.Array<>((int) n, lines);
    for (; n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        GenericData.Record l = new GenericData.Record(line);
        l.put(0, in.readUtf8());
        l.put(1, in.readInt());
        l.put(2, in.readBytes(null));
        items.add(l);
      }
    }
    return items;
  }

  /**
   * Reads one payload of Kavro's 5-byte framing with Kavro's compiled decoder of the shape (the generic model, no
   * conversions, as the benchmarks configure Kavro), straight from the decoder: Kavro's read without the
   * deserializer's per-record route lookup and framing.
   */
  public Object readCompiled(byte[] payload) throws IOException {
    return compiled.decode(in.reset(payload, 5, payload.length - 5));
  }

  /**
   * Decodes one payload as {@link #read} does, without building anything: numbers summed, every string, bytes and
   * fixed copied into reused buffers. The sum, for a blackhole.
   */
  public long decodeOnly(byte[] payload) throws IOException {
    BoundedBinaryDecoder in = this.in.reset(payload, 5, payload.length - 5);
    if (kind == Kind.S2) {
      long sum = 0;
      for (int i = 0; i < 81; i++) {
        sum += nullableString(in);
      }
      return sum;
    }
    long sum = string(in);
    sum += in.readLong();
    sum += in.readInt();
    sum += Float.floatToRawIntBits(in.readFloat());
    sum += Double.doubleToRawLongBits(in.readDouble());
    sum += in.readBoolean() ? 1 : 0;
    sum += string(in);
    sum += bytes(in);
    int symbol = in.readEnum();
    if (symbol < 0 || symbol >= statuses.length) {
      throw new AvroTypeException("enum index " + symbol + " out of range");
    }
    sum += symbol;
    in.readFixed(scratchFixed, 0, 16);
    sum += scratchFixed[0];
    sum += nullableString(in);
    for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        sum += in.readLong();
      }
    }
    for (long n = in.readMapStart(); n > 0; n = in.mapNext()) {
      for (long i = 0; i < n; i++) {
        sum += string(in);
        sum += string(in);
      }
    }
    sum += string(in);
    sum += string(in);
    sum += nullableString(in);
    for (long n = in.readArrayStart(); n > 0; n = in.arrayNext()) {
      for (long i = 0; i < n; i++) {
        sum += string(in);
        sum += in.readInt();
        sum += bytes(in);
      }
    }
    sum += in.readLong();
    sum += in.readInt();
    sum += bytes(in);
    return sum;
  }

  private int string(BoundedBinaryDecoder in) throws IOException {
    return in.readString(scratchUtf8).getByteLength();
  }

  private int nullableString(BoundedBinaryDecoder in) throws IOException {
    int branch = in.readIndex();
    if (branch == 0) {
      return -1;
    }
    if (branch != 1) {
      throw new AvroTypeException("union index " + branch + " out of range 0..1");
    }
    return string(in);
  }

  private int bytes(BoundedBinaryDecoder in) throws IOException {
    scratchBytes = in.readBytes(scratchBytes);
    return scratchBytes.remaining();
  }
}
