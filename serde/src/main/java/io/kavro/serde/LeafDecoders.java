package io.kavro.serde;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.avro.util.Utf8;

/**
 * The leaf decoders that records, arrays and maps hold most (primitives, strings, {@code ["null", "string"]},
 * dates and millisecond timestamps), as singletons that a container recognizes once, when it is compiled, and
 * then reads inline through {@link #decode}: one switch instead of a call per value through an interface call
 * site that every field of every schema shares, which the JIT cannot inline once it has seen more than two kinds
 * of value. Any other decoder is called as it is.
 */
final class LeafDecoders {
  static final CompiledDecoder NULL = in -> null;
  static final CompiledDecoder BOOLEAN = BoundedBinaryDecoder::readBoolean;
  static final CompiledDecoder INT = BoundedBinaryDecoder::readInt;
  static final CompiledDecoder LONG = BoundedBinaryDecoder::readLong;
  static final CompiledDecoder FLOAT = BoundedBinaryDecoder::readFloat;
  static final CompiledDecoder DOUBLE = BoundedBinaryDecoder::readDouble;
  /** A string as Avro's {@code Utf8}. */
  static final CompiledDecoder UTF8 = BoundedBinaryDecoder::readUtf8;
  /** A string as {@code java.lang.String}. */
  static final CompiledDecoder STRING = BoundedBinaryDecoder::readString;
  /** A writer's {@code ["null", "string"]} read as {@code null} or a {@code Utf8}. */
  static final CompiledDecoder NULLABLE_UTF8 = BoundedBinaryDecoder::readNullableUtf8;
  /** An int read as {@code long}: Avro's promotion. */
  static final CompiledDecoder INT_AS_LONG = in -> (long) in.readInt();
  /** A {@code date} through Avro's {@code DateConversion}, without the boxed int between. */
  static final CompiledDecoder DATE = in -> LocalDate.ofEpochDay(in.readInt());
  /** A {@code timestamp-millis} through Avro's {@code TimestampMillisConversion}, without the boxed long. */
  static final CompiledDecoder TIMESTAMP_MILLIS = in -> Instant.ofEpochMilli(in.readLong());
  /** A {@code uuid} string through Avro's {@code UUIDConversion}, without the {@code Utf8} or the text between. */
  static final CompiledDecoder UUID = BoundedBinaryDecoder::readUuid;

  /**
   * A {@code decimal} of bytes through Avro's {@code DecimalConversion}, without the {@code ByteBuffer} and the copy
   * of its bytes between: the unscaled value straight from the payload.
   */
  static final class Decimal implements CompiledDecoder {
    private final int scale;

    Decimal(int scale) {
      this.scale = scale;
    }

    @Override
    public java.math.BigDecimal decode(BoundedBinaryDecoder in) throws IOException {
      return in.readDecimal(scale);
    }
  }

  private static final CompiledDecoder[] LEAVES = {
      null, NULL, BOOLEAN, INT, LONG, FLOAT, DOUBLE, UTF8, STRING, NULLABLE_UTF8, INT_AS_LONG, DATE, TIMESTAMP_MILLIS,
      UUID};
  /** The methods of the leaves by kind, as {@link SpunReader} calls them; a null leaf pushes a null. */
  private static final String[] SPUN_LEAVES = {null, SpunReader.NULL_LEAF, "readBoolean", "readInt", "readLong",
      "readFloat", "readDouble", "readUtf8", "readString", "readNullableUtf8", "readIntAsLong", "readDate",
      "readTimestampMillis", "readUuid"};

  /** The kind of every {@link Decimal}. */
  private static final int DECIMAL = 14; // LEAVES.length, as a constant for the switch

  static {
    if (LEAVES.length != DECIMAL) {
      throw new AssertionError("DECIMAL must follow the last leaf");
    }
    if (SPUN_LEAVES.length != LEAVES.length) {
      throw new AssertionError("every leaf needs its spun method");
    }
  }

  private LeafDecoders() {}

  /** What {@link #decode} reads for {@code decoder}: its index in {@link #LEAVES}, {@link #DECIMAL}, or 0 for any
   * other decoder. */
  static int kindOf(CompiledDecoder decoder) {
    if (decoder instanceof Decimal) {
      return DECIMAL;
    }
    for (int kind = 1; kind < LEAVES.length; kind++) {
      if (LEAVES[kind] == decoder) {
        return kind;
      }
    }
    return 0;
  }

  /** {@link #kindOf} of each decoder. */
  static int[] kindsOf(CompiledDecoder[] decoders) {
    int[] kinds = new int[decoders.length];
    for (int i = 0; i < decoders.length; i++) {
      kinds[i] = kindOf(decoders[i]);
    }
    return kinds;
  }

  /** What {@code decoder}, whose {@link #kindOf} is {@code kind}, decodes: a leaf read in place, else its call. */
  static Object decode(int kind, CompiledDecoder decoder, BoundedBinaryDecoder in) throws IOException {
    switch (kind) {
      case 1:
        return null;
      case 2:
        return readBoolean(in);
      case 3:
        return readInt(in);
      case 4:
        return readLong(in);
      case 5:
        return readFloat(in);
      case 6:
        return readDouble(in);
      case 7:
        return readUtf8(in);
      case 8:
        return readString(in);
      case 9:
        return readNullableUtf8(in);
      case 10:
        return readIntAsLong(in);
      case 11:
        return readDate(in);
      case 12:
        return readTimestampMillis(in);
      case 13:
        return readUuid(in);
      case DECIMAL:
        return ((Decimal) decoder).decode(in);
      default:
        return decoder.decode(in);
    }
  }

  /**
   * The static {@code (BoundedBinaryDecoder) Object} method here that reads a leaf of {@code kind} as
   * {@link #decode} does, {@link SpunReader#NULL_LEAF} for a null, or {@code null} where the decoder itself is
   * called (no leaf, or a decimal, whose scale is the decoder's).
   */
  static String spunLeaf(int kind) {
    return kind > 0 && kind < SPUN_LEAVES.length ? SPUN_LEAVES[kind] : null;
  }

  /**
   * The class of the value a string leaf of {@code kind} reads ({@code Utf8}, or {@code String}; a nullable string
   * reads a {@code Utf8} or a null), or {@code null} for any other kind.
   */
  static Class<?> stringLeafType(int kind) {
    CompiledDecoder leaf = kind > 0 && kind < LEAVES.length ? LEAVES[kind] : null;
    return leaf == UTF8 || leaf == NULLABLE_UTF8 ? Utf8.class : leaf == STRING ? String.class : null;
  }

  /** Whether a leaf of {@code kind} may read a null (a nullable string; a null field pushes one). */
  static boolean readsNull(int kind) {
    CompiledDecoder leaf = kind > 0 && kind < LEAVES.length ? LEAVES[kind] : null;
    return leaf == NULLABLE_UTF8 || leaf == NULL;
  }

  static Object readBoolean(BoundedBinaryDecoder in) throws IOException {
    return in.readBoolean();
  }

  static Object readInt(BoundedBinaryDecoder in) throws IOException {
    return in.readInt();
  }

  static Object readLong(BoundedBinaryDecoder in) throws IOException {
    return in.readLong();
  }

  static Object readFloat(BoundedBinaryDecoder in) throws IOException {
    return in.readFloat();
  }

  static Object readDouble(BoundedBinaryDecoder in) throws IOException {
    return in.readDouble();
  }

  static Object readUtf8(BoundedBinaryDecoder in) throws IOException {
    return in.readUtf8();
  }

  static Object readString(BoundedBinaryDecoder in) throws IOException {
    return in.readString();
  }

  static Object readNullableUtf8(BoundedBinaryDecoder in) throws IOException {
    return in.readNullableUtf8();
  }

  static Object readIntAsLong(BoundedBinaryDecoder in) throws IOException {
    return (long) in.readInt();
  }

  static Object readDate(BoundedBinaryDecoder in) throws IOException {
    return LocalDate.ofEpochDay(in.readInt());
  }

  static Object readTimestampMillis(BoundedBinaryDecoder in) throws IOException {
    return Instant.ofEpochMilli(in.readLong());
  }

  static Object readUuid(BoundedBinaryDecoder in) throws IOException {
    return in.readUuid();
  }
}
