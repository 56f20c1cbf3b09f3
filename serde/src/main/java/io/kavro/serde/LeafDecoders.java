package io.kavro.serde;

import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;

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
  /** The kind of every {@link Decimal}. */
  private static final int DECIMAL = 14; // LEAVES.length, as a constant for the switch

  static {
    if (LEAVES.length != DECIMAL) {
      throw new AssertionError("DECIMAL must follow the last leaf");
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
        return in.readBoolean();
      case 3:
        return in.readInt();
      case 4:
        return in.readLong();
      case 5:
        return in.readFloat();
      case 6:
        return in.readDouble();
      case 7:
        return in.readUtf8();
      case 8:
        return in.readString();
      case 9:
        return in.readNullableUtf8();
      case 10:
        return (long) in.readInt();
      case 11:
        return LocalDate.ofEpochDay(in.readInt());
      case 12:
        return Instant.ofEpochMilli(in.readLong());
      case 13:
        return in.readUuid();
      case DECIMAL:
        return ((Decimal) decoder).decode(in);
      default:
        return decoder.decode(in);
    }
  }
}
