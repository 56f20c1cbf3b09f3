package io.kavro.rules.cel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * A value of CEL's {@code confluent.type.Variant}: one value of the variant binary encoding (Parquet's, Iceberg's
 * and Spark's {@code VARIANT}), read where it is, in its two buffers.
 *
 * <ul>
 *   <li>The <b>metadata</b>: a header byte (version in the low 4 bits, which must be 1; bit 4 "keys sorted"; the
 *       offset width minus one in the top 2 bits), the dictionary's size, its size + 1 offsets (each of the offset
 *       width, little-endian, unsigned), then the keys' UTF-8 bytes: key {@code i} runs from offset {@code i} to
 *       offset {@code i + 1}.</li>
 *   <li>The <b>value</b>: a header byte, its low 2 bits the basic type (0 primitive, 1 short string, 2 object,
 *       3 array), its top 6 bits the type info: for a primitive, its type id ({@link Kind}); for a short string, its
 *       length (0..63); for an object, {@code 0 b4 b3b2 b1b0} (a 4-byte count if b4 else 1-byte, field ids
 *       {@code b3b2 + 1} bytes wide, offsets {@code b1b0 + 1} bytes wide), followed by the count, the field ids
 *       (sorted by key), count + 1 offsets into the data, the data; for an array, {@code 000 b2 b1b0}, the same
 *       without ids. Integers are little-endian.</li>
 * </ul>
 *
 * <p>Read as Confluent's {@code Variant} (its {@code schema-types}) reads it, lazily: a part is decoded when a
 * function asks for it; a field is looked up in order below 32 fields, by binary search from 32; an out-of-range
 * index is no element. Unlike Confluent's, every read is bounded by its buffer: an encoding that is cut short, whose
 * offsets point outside it, or that is an unknown type fails with a {@link CelFunctionException} that says what and
 * where, never an {@code IndexOutOfBoundsException}. Immutable (the buffers are never written once given); compares
 * by identity, as Confluent's does.
 */
final class Variant {
  /** The type of a variant value, by its type id. */
  enum Kind {
    OBJECT("object"), ARRAY("array"), NULL("null"), BOOLEAN("boolean"), INT8("int"), INT16("int"), INT32("int"),
    INT64("int"), DOUBLE("double"), FLOAT("double"), DECIMAL4("decimal"), DECIMAL8("decimal"),
    DECIMAL16("decimal"), DATE("date"), TIME("time"), TIMESTAMP_TZ("timestamp"), TIMESTAMP_NTZ("timestamp"),
    TIMESTAMP_NANOS_TZ("timestamp"), TIMESTAMP_NANOS_NTZ("timestamp"), STRING("string"), BINARY("bytes"),
    UUID("uuid");

    /** Its name in {@code variants.type}. */
    final String label;

    Kind(String label) {
      this.label = label;
    }
  }

  /** The basic types. */
  static final int PRIMITIVE = 0;
  static final int SHORT_STRING = 1;
  static final int OBJECT = 2;
  static final int ARRAY = 3;

  /** Below this many fields a key is looked up in order, from it by binary search (as Confluent's). */
  private static final int BINARY_SEARCH_FROM = 32;

  private final byte[] value;
  private final int at;
  private final byte[] metadata;

  private Variant(byte[] value, int at, byte[] metadata) {
    this.value = value;
    this.at = at;
    this.metadata = metadata;
  }

  /**
   * The variant whose value and metadata are these bytes, which the caller gives up (they are never copied).
   *
   * @throws CelFunctionException when the metadata is empty or not of version 1
   */
  static Variant of(byte[] value, byte[] metadata) {
    if (metadata.length == 0) {
      throw malformed("its metadata is empty (a version byte is needed)");
    }
    int version = metadata[0] & 0x0F;
    if (version != 1) {
      throw malformed("its metadata is of version " + version + ", not 1");
    }
    return new Variant(value, 0, metadata);
  }

  /**
   * Whether {@code schema} is an Avro {@code variant} record, as Confluent's {@code VariantLogicalType} takes it:
   * {@code "logicalType": "variant"} on a record of exactly the two fields {@code metadata} and {@code value}, both
   * {@code bytes}.
   */
  static boolean isRecordSchema(org.apache.avro.Schema schema) {
    return schema.getType() == org.apache.avro.Schema.Type.RECORD && "variant".equals(schema.getProp("logicalType"))
        && schema.getFields().size() == 2 && isBytes(schema.getField("metadata")) && isBytes(schema.getField("value"));
  }

  private static boolean isBytes(org.apache.avro.Schema.Field field) {
    return field != null && field.schema().getType() == org.apache.avro.Schema.Type.BYTES;
  }

  /** The metadata buffer, copied. */
  byte[] metadataBytes() {
    return metadata.clone();
  }

  /**
   * The value buffer from this value's start, copied: a value found within another keeps the bytes after it, as
   * Confluent's {@code Variant} keeps them in its buffer (a reader reads the first value only).
   */
  byte[] valueBytes() {
    return java.util.Arrays.copyOfRange(value, at, value.length);
  }

  /** The type of this value. */
  Kind kind() {
    int header = header();
    switch (header & 0b11) {
      case SHORT_STRING:
        return Kind.STRING;
      case OBJECT:
        return Kind.OBJECT;
      case ARRAY:
        return Kind.ARRAY;
      default:
        break;
    }
    int id = header >>> 2;
    return switch (id) {
      case 0 -> Kind.NULL;
      case 1, 2 -> Kind.BOOLEAN;
      case 3 -> Kind.INT8;
      case 4 -> Kind.INT16;
      case 5 -> Kind.INT32;
      case 6 -> Kind.INT64;
      case 7 -> Kind.DOUBLE;
      case 8 -> Kind.DECIMAL4;
      case 9 -> Kind.DECIMAL8;
      case 10 -> Kind.DECIMAL16;
      case 11 -> Kind.DATE;
      case 12 -> Kind.TIMESTAMP_TZ;
      case 13 -> Kind.TIMESTAMP_NTZ;
      case 14 -> Kind.FLOAT;
      case 15 -> Kind.BINARY;
      case 16 -> Kind.STRING;
      case 17 -> Kind.TIME;
      case 18 -> Kind.TIMESTAMP_NANOS_TZ;
      case 19 -> Kind.TIMESTAMP_NANOS_NTZ;
      case 20 -> Kind.UUID;
      default -> throw malformed("the value at byte " + at + " is of unknown primitive type " + id);
    };
  }

  /** A boolean's value. */
  boolean bool() {
    return header() >>> 2 == 1;
  }

  /**
   * The signed integer of an {@code INT8}, {@code INT16}, {@code INT32}, {@code INT64}, {@code DATE} (days),
   * {@code TIME} or {@code TIMESTAMP*} (micro- or nanoseconds) value, of its width.
   */
  long integer() {
    return switch (kind()) {
      case INT8 -> signed(at + 1, 1);
      case INT16 -> signed(at + 1, 2);
      case INT32, DATE -> signed(at + 1, 4);
      default -> signed(at + 1, 8);
    };
  }

  /** A {@code FLOAT} value, widened, or a {@code DOUBLE} value. */
  double floating() {
    return kind() == Kind.FLOAT ? Float.intBitsToFloat((int) signed(at + 1, 4))
        : Double.longBitsToDouble(signed(at + 1, 8));
  }

  /** A decimal's value: its scale byte (unsigned), then its unscaled value of 4, 8 or 16 bytes. */
  BigDecimal decimal() {
    Kind kind = kind();
    int scale = unsigned(at + 1, 1);
    if (kind == Kind.DECIMAL16) {
      require(at + 2, 16);
      byte[] bigEndian = new byte[16];
      for (int i = 0; i < 16; i++) {
        bigEndian[i] = value[at + 17 - i];
      }
      return new BigDecimal(new BigInteger(bigEndian), scale);
    }
    return BigDecimal.valueOf(signed(at + 2, kind == Kind.DECIMAL4 ? 4 : 8), scale);
  }

  /** A string's value (its UTF-8 bytes decoded, a malformed sequence as U+FFFD). */
  String string() {
    int header = header();
    int start;
    int length;
    if ((header & 0b11) == SHORT_STRING) {
      start = at + 1;
      length = header >>> 2;
    } else {
      start = at + 5;
      length = unsigned(at + 1, 4);
    }
    require(start, length);
    return new String(value, start, length, StandardCharsets.UTF_8);
  }

  /** A {@code BINARY} value's bytes, copied. */
  byte[] binary() {
    int length = unsigned(at + 1, 4);
    require(at + 5, length);
    byte[] out = new byte[length];
    System.arraycopy(value, at + 5, out, 0, length);
    return out;
  }

  /** A {@code UUID} value: 16 bytes, big-endian. */
  java.util.UUID uuid() {
    require(at + 1, 16);
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = high << 8 | (value[at + 1 + i] & 0xFF);
      low = low << 8 | (value[at + 9 + i] & 0xFF);
    }
    return new java.util.UUID(high, low);
  }

  /** How many fields (an object) or elements (an array) this value has. */
  int size() {
    return new Container(this).count;
  }

  /** The field of an object whose key is {@code key}, or null when there is none. */
  Variant field(String key) {
    Container object = new Container(this);
    if (object.count < BINARY_SEARCH_FROM) {
      for (int i = 0; i < object.count; i++) {
        if (object.key(i).equals(key)) {
          return object.child(i);
        }
      }
      return null;
    }
    int low = 0;
    int high = object.count - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int order = object.key(middle).compareTo(key);
      if (order < 0) {
        low = middle + 1;
      } else if (order > 0) {
        high = middle - 1;
      } else {
        return object.child(middle);
      }
    }
    return null;
  }

  /** The key of an object's {@code i}-th field, in the object's (key) order. */
  String keyAt(int i) {
    return new Container(this).key(i);
  }

  /** The value of an object's {@code i}-th field, or an array's {@code i}-th element; null when out of range. */
  Variant at(int i) {
    Container container = new Container(this);
    return i < 0 || i >= container.count ? null : container.child(i);
  }

  /**
   * The number of bytes of this value's encoding (its header included), as CEL's cost bound counts a result: at
   * most the bytes from its start to the buffer's end, at least 1 (also for an encoding too malformed to tell).
   */
  long encodedSize() {
    return Math.max(1, Math.min(declaredSize(), bytesFromHere()));
  }

  private long declaredSize() {
    try {
      int header = header();
      return switch (header & 0b11) {
        case SHORT_STRING -> 1 + (header >>> 2);
        case OBJECT, ARRAY -> {
          Container container = new Container(this);
          yield container.dataStart - at + (long) container.offset(container.count);
        }
        default -> switch (kind()) {
          case NULL, BOOLEAN -> 1;
          case INT8 -> 2;
          case INT16 -> 3;
          case INT32, DATE, FLOAT -> 5;
          case DECIMAL4 -> 6;
          case DECIMAL8 -> 10;
          case DECIMAL16 -> 18;
          case UUID -> 17;
          case STRING, BINARY -> 5 + (long) unsigned(at + 1, 4);
          default -> 9;
        };
      };
    } catch (CelFunctionException e) {
      return 1;
    }
  }

  /** How many bytes of the value buffer lie from this value's start to the buffer's end. */
  int bytesFromHere() {
    return value.length - at;
  }

  private int header() {
    if (at >= value.length) {
      throw malformed("the value is cut short: no header byte at byte " + at + " of " + value.length);
    }
    return value[at] & 0xFF;
  }

  /** The signed little-endian integer of {@code width} bytes at {@code from} of the value. */
  private long signed(int from, int width) {
    require(from, width);
    long result = 0;
    for (int i = width - 1; i >= 0; i--) {
      result = result << 8 | (value[from + i] & 0xFF);
    }
    int unused = 64 - 8 * width;
    return result << unused >> unused;
  }

  /** The unsigned little-endian integer of {@code width} bytes at {@code from} of the value, at most 2^31 - 1. */
  private int unsigned(int from, int width) {
    return unsigned(value, from, width, "value");
  }

  private void require(long from, long length) {
    require(value, from, length, "value");
  }

  private static int unsigned(byte[] bytes, long from, int width, String which) {
    require(bytes, from, width, which);
    long result = 0;
    for (int i = width - 1; i >= 0; i--) {
      result = result << 8 | (bytes[(int) from + i] & 0xFF);
    }
    if (result > Integer.MAX_VALUE) {
      throw malformed("its " + which + " holds a size or offset of " + result + " at byte " + from
          + ", beyond 2^31 - 1");
    }
    return (int) result;
  }

  private static void require(byte[] bytes, long from, long length, String which) {
    if (from < 0 || length < 0 || from + length > bytes.length) {
      throw malformed("its " + which + " is cut short: " + length + " bytes needed at byte " + from + ", "
          + bytes.length + " bytes in all");
    }
  }

  static CelFunctionException malformed(String what) {
    return new CelFunctionException("malformed variant: " + what);
  }

  /** The key of dictionary entry {@code id} of the metadata. */
  private String metadataKey(int id) {
    int width = ((metadata[0] & 0xFF) >>> 6) + 1;
    int count = unsigned(metadata, 1, width, "metadata");
    if (id >= count) {
      throw malformed("a field names key " + id + " of a dictionary of " + count);
    }
    long offsets = 1L + width;
    long strings = offsets + (count + 1L) * width;
    int start = unsigned(metadata, offsets + (long) id * width, width, "metadata");
    int end = unsigned(metadata, offsets + (id + 1L) * width, width, "metadata");
    if (start > end) {
      throw malformed("its metadata's key " + id + " ends (" + end + ") before it starts (" + start + ")");
    }
    require(metadata, strings + start, end - start, "metadata");
    return new String(metadata, (int) (strings + start), end - start, StandardCharsets.UTF_8);
  }

  /** The header of an object or an array: its count, the widths of its ids and offsets, where its parts start. */
  private static final class Container {
    private final Variant variant;
    private final boolean object;
    private final int count;
    private final int idWidth;
    private final int offsetWidth;
    private final int idStart;
    private final int offsetStart;
    private final int dataStart;

    Container(Variant variant) {
      this.variant = variant;
      int header = variant.header();
      int basic = header & 0b11;
      if (basic != OBJECT && basic != ARRAY) {
        throw new CelFunctionException("a variant of type " + variant.kind().label + " is neither an object nor an array");
      }
      object = basic == OBJECT;
      int info = header >>> 2;
      boolean large = ((object ? info >>> 4 : info >>> 2) & 1) != 0;
      int countWidth = large ? 4 : 1;
      idWidth = object ? ((info >>> 2) & 0b11) + 1 : 0;
      offsetWidth = (info & 0b11) + 1;
      count = variant.unsigned(variant.at + 1, countWidth);
      long ids = variant.at + 1L + countWidth;
      long offsets = ids + (long) count * idWidth;
      long data = offsets + (count + 1L) * offsetWidth;
      variant.require(ids, data - ids);
      idStart = (int) ids;
      offsetStart = (int) offsets;
      dataStart = (int) data;
    }

    int offset(int i) {
      return variant.unsigned(offsetStart + i * offsetWidth, offsetWidth);
    }

    String key(int i) {
      return variant.metadataKey(variant.unsigned(idStart + i * idWidth, idWidth));
    }

    Variant child(int i) {
      int offset = offset(i);
      int total = offset(count);
      variant.require(dataStart, total);
      if (offset >= total) {
        throw malformed("the " + (object ? "field" : "element") + " " + i + " of the " + (object ? "object" : "array")
            + " at byte " + variant.at + " starts at data offset " + offset + ", past its data's " + total + " bytes");
      }
      return new Variant(variant.value, dataStart + offset, variant.metadata);
    }
  }
}
