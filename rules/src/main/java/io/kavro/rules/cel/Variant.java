package io.kavro.rules.cel;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

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
    OBJECT("object", -1), ARRAY("array", -1), NULL("null", 0), BOOLEAN("boolean", 1), INT8("int", 3),
    INT16("int", 4), INT32("int", 5), INT64("int", 6), DOUBLE("double", 7), FLOAT("double", 14),
    DECIMAL4("decimal", 8), DECIMAL8("decimal", 9), DECIMAL16("decimal", 10), DATE("date", 11), TIME("time", 17),
    TIMESTAMP_TZ("timestamp", 12), TIMESTAMP_NTZ("timestamp", 13), TIMESTAMP_NANOS_TZ("timestamp", 18),
    TIMESTAMP_NANOS_NTZ("timestamp", 19), STRING("string", 16), BINARY("bytes", 15), UUID("uuid", 20);

    /** The type id of a boolean {@code false} (a {@code true}'s is {@link #BOOLEAN}'s). */
    static final int FALSE_TYPE_ID = 2;

    /** The kinds by primitive type id; null where an id is unknown. */
    private static final Kind[] BY_TYPE_ID = new Kind[21];

    static {
      for (Kind kind : values()) {
        if (kind.typeId >= 0) {
          BY_TYPE_ID[kind.typeId] = kind;
        }
      }
      BY_TYPE_ID[FALSE_TYPE_ID] = BOOLEAN;
    }

    /** Its name in {@code variants.type}. */
    final String label;
    /**
     * Its primitive type id, the top 6 bits of a primitive's header (for a boolean, a {@code true}'s); -1 for an
     * object and an array, which are basic types. A string of at most 63 bytes may also be a short string.
     */
    final int typeId;

    Kind(String label, int typeId) {
      this.label = label;
      this.typeId = typeId;
    }

    /** The kind of primitive type id {@code id}, or null when no kind has it. */
    static Kind ofTypeId(int id) {
      return id < BY_TYPE_ID.length ? BY_TYPE_ID[id] : null;
    }
  }

  /** The basic types. */
  static final int PRIMITIVE = 0;
  static final int SHORT_STRING = 1;
  static final int OBJECT = 2;
  static final int ARRAY = 3;

  /**
   * The deepest nesting {@code variants.parseJson} reads and {@code variants.toJson} prints: Jackson's default
   * bound ({@code StreamReadConstraints}, {@code StreamWriteConstraints}).
   */
  static final int MAX_DEPTH = 1000;

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

  /** The length of the metadata buffer. */
  int metadataLength() {
    return metadata.length;
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
    return Arrays.copyOfRange(value, at, value.length);
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
    Kind kind = Kind.ofTypeId(id);
    if (kind == null) {
      throw malformed("the value at byte " + at + " is of unknown primitive type " + id);
    }
    return kind;
  }

  /** A boolean's value. */
  boolean bool() {
    return header() >>> 2 == Kind.BOOLEAN.typeId;
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
  UUID uuid() {
    require(at + 1, 16);
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = high << 8 | (value[at + 1 + i] & 0xFF);
      low = low << 8 | (value[at + 9 + i] & 0xFF);
    }
    return new UUID(high, low);
  }

  /** How many fields (an object) or elements (an array) this value has. */
  int size() {
    return new Container(this).count;
  }

  /** The field of an object whose key is {@code key}, or null when there is none. */
  Variant field(String key) {
    return field(key, key.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The field of an object whose key is {@code key} ({@code utf8} its UTF-8 bytes), or null when there is none: the
   * dictionary's keys are compared as bytes where they are, never decoded but where the binary search must order a
   * key that is not ASCII (it orders as {@link String#compareTo}, as Confluent's does).
   */
  Variant field(String key, byte[] utf8) {
    Container object = new Container(this);
    if (object.count < BINARY_SEARCH_FROM) {
      for (int i = 0; i < object.count; i++) {
        if (object.keyEquals(i, utf8)) {
          return object.child(i);
        }
      }
      return null;
    }
    int low = 0;
    int high = object.count - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int order = object.keyCompare(middle, key, utf8);
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

  /** The length in UTF-8 bytes of the key of an object's {@code i}-th field, read without decoding it. */
  int keyLengthAt(int i) {
    Container object = new Container(this);
    return (int) object.variant.keySlice(object.keyId(i));
  }

  /**
   * The length of a {@code STRING} value in UTF-8 bytes, or of a {@code BINARY} value in bytes, read without
   * decoding it (and checked against the buffer).
   */
  int lengthOfBytes() {
    int header = header();
    if ((header & 0b11) == SHORT_STRING) {
      require(at + 1, header >>> 2);
      return header >>> 2;
    }
    int length = unsigned(at + 1, 4);
    require(at + 5, length);
    return length;
  }

  /** Where a {@code STRING} value's UTF-8 bytes start in {@link #buffer()}. */
  int stringStart() {
    return (header() & 0b11) == SHORT_STRING ? at + 1 : at + 5;
  }

  /** The value buffer itself, to be read only (for printing a string's bytes where they are). */
  byte[] buffer() {
    return value;
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
      throw malformed("its " + which + " holds a size or offset beyond 2^31 - 1 at byte " + from);
    }
    return (int) result;
  }

  private static void require(byte[] bytes, long from, long length, String which) {
    if (from < 0 || length < 0 || from + length > bytes.length) {
      throw malformed("its " + which + " is cut short: a part at byte " + from + " runs past its end ("
          + bytes.length + " bytes in all)");
    }
  }

  static CelFunctionException malformed(String what) {
    return new CelFunctionException("malformed variant: " + what);
  }

  /** The key of dictionary entry {@code id} of the metadata. */
  private String metadataKey(int id) {
    long slice = keySlice(id);
    return new String(metadata, (int) (slice >>> 32), (int) slice, StandardCharsets.UTF_8);
  }

  /**
   * Where the UTF-8 bytes of dictionary entry {@code id} lie in the metadata: their start in the high 32 bits, their
   * length in the low 32 (one long, so that a key probe allocates nothing).
   */
  private long keySlice(int id) {
    int width = ((metadata[0] & 0xFF) >>> 6) + 1;
    int count = unsigned(metadata, 1, width, "metadata");
    if (id >= count) {
      throw malformed("a field names a key past the end of its metadata's dictionary");
    }
    long offsets = 1L + width;
    long strings = offsets + (count + 1L) * width;
    long where = offsets + (long) id * width;
    int start = unsigned(metadata, where, width, "metadata");
    int end = unsigned(metadata, where + width, width, "metadata");
    if (start > end) {
      throw malformed("its metadata's key offsets at byte " + where + " are out of order");
    }
    require(metadata, strings + start, end - start, "metadata");
    return (strings + start) << 32 | (end - start);
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
        throw new CelFunctionException("a variant of type " + variant.kind().label
            + " is neither an object nor an array");
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

    int keyId(int i) {
      return variant.unsigned(idStart + i * idWidth, idWidth);
    }

    String key(int i) {
      return variant.metadataKey(keyId(i));
    }

    /** Whether field {@code i}'s key is {@code utf8}: lengths first, then bytes. */
    boolean keyEquals(int i, byte[] utf8) {
      long slice = variant.keySlice(keyId(i));
      return (int) slice == utf8.length && Arrays.equals(variant.metadata, (int) (slice >>> 32),
          (int) (slice >>> 32) + utf8.length, utf8, 0, utf8.length);
    }

    /**
     * Field {@code i}'s key against {@code key} ({@code utf8} its bytes) in {@link String#compareTo}'s order: by
     * bytes while both are ASCII (the same order), by the decoded key from the first byte that is not.
     */
    int keyCompare(int i, String key, byte[] utf8) {
      int id = keyId(i);
      long slice = variant.keySlice(id);
      int start = (int) (slice >>> 32);
      int length = (int) slice;
      int common = Math.min(length, utf8.length);
      for (int k = 0; k < common; k++) {
        int mine = variant.metadata[start + k];
        int theirs = utf8[k];
        if (mine < 0 || theirs < 0) {
          return variant.metadataKey(id).compareTo(key);
        } else if (mine != theirs) {
          return mine - theirs;
        }
      }
      return length - utf8.length;
    }

    Variant child(int i) {
      int offset = offset(i);
      int total = offset(count);
      variant.require(dataStart, total);
      if (offset >= total) {
        throw malformed("the " + (object ? "field" : "element") + " " + i + " of the " + (object ? "object" : "array")
            + " at byte " + variant.at + " starts past the end of its data");
      }
      return new Variant(variant.value, dataStart + offset, variant.metadata);
    }
  }
}
