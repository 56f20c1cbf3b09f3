package io.kavro.serde;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * The framing shared with Confluent's serializers: {@code [0x00][int32 big-endian schema id][Avro binary]}.
 *
 * <p>Confluent 8 adds two forms, which the deserializer reads too: a prefix of magic byte {@code 0x01} and the
 * schema's 16-byte GUID (most significant half first), and the schema id in a record header
 * ({@link #KEY_SCHEMA_ID_HEADER}, {@link #VALUE_SCHEMA_ID_HEADER}) whose value is either prefix, with the Avro
 * body alone in the payload.
 */
public final class WireFormat {
  /** The first byte of every framed record. */
  public static final byte MAGIC_BYTE = 0x0;
  /** Bytes before the Avro body: the magic byte and the schema id. */
  public static final int HEADER_SIZE = 5;
  /** The first byte of a prefix that holds a schema GUID. */
  public static final byte MAGIC_BYTE_GUID = 0x1;
  /** Bytes of a GUID prefix: the magic byte and the 16-byte GUID. */
  public static final int GUID_HEADER_SIZE = 17;
  /** The record header that holds a key's schema id, as Confluent's {@code HeaderSchemaIdSerializer} writes it. */
  public static final String KEY_SCHEMA_ID_HEADER = "__key_schema_id";
  /** The record header that holds a value's schema id. */
  public static final String VALUE_SCHEMA_ID_HEADER = "__value_schema_id";

  private WireFormat() {}

  /** Writes the header for {@code schemaId} at {@code offset}. */
  public static void writeHeader(byte[] target, int offset, int schemaId) {
    target[offset] = MAGIC_BYTE;
    target[offset + 1] = (byte) (schemaId >>> 24);
    target[offset + 2] = (byte) (schemaId >>> 16);
    target[offset + 3] = (byte) (schemaId >>> 8);
    target[offset + 4] = (byte) schemaId;
  }

  /**
   * The schema id of a framed payload, read at its position without moving it.
   *
   * @throws MalformedPayloadException if the payload is shorter than the header or its magic byte is not 0
   */
  public static int schemaId(ByteBuffer payload) {
    int length = payload.remaining();
    if (length < HEADER_SIZE) {
      throw tooShort(length);
    }
    byte magic = payload.get(payload.position());
    if (magic != MAGIC_BYTE) {
      throw badMagic(magic);
    }
    return payload.getInt(payload.position() + 1);
  }

  /**
   * The schema id of the framed payload in {@code length} bytes of {@code payload} from {@code offset}.
   *
   * @throws MalformedPayloadException if the payload is shorter than the header or its magic byte is not 0
   */
  public static int schemaId(byte[] payload, int offset, int length) {
    if (length < HEADER_SIZE) {
      throw tooShort(length);
    }
    if (payload[offset] != MAGIC_BYTE) {
      throw badMagic(payload[offset]);
    }
    return (payload[offset + 1] & 0xff) << 24 | (payload[offset + 2] & 0xff) << 16
        | (payload[offset + 3] & 0xff) << 8 | (payload[offset + 4] & 0xff);
  }

  /** {@code [0x01][16-byte GUID]}, as a header value or a prefix. */
  public static byte[] guidPrefix(UUID guid) {
    return ByteBuffer.allocate(GUID_HEADER_SIZE).put(MAGIC_BYTE_GUID).putLong(guid.getMostSignificantBits())
        .putLong(guid.getLeastSignificantBits()).array();
  }

  /** {@code [0x00][int32 id]}, as a header value or a prefix. */
  public static byte[] idPrefix(int schemaId) {
    byte[] prefix = new byte[HEADER_SIZE];
    writeHeader(prefix, 0, schemaId);
    return prefix;
  }

  /**
   * The GUID of a {@code 0x01} prefix at {@code offset}.
   *
   * @throws MalformedPayloadException if fewer than {@link #GUID_HEADER_SIZE} bytes are there
   */
  public static UUID guid(byte[] payload, int offset, int length) {
    if (length < GUID_HEADER_SIZE) {
      throw new MalformedPayloadException("payload of " + length + " byte(s) is shorter than the "
          + GUID_HEADER_SIZE + "-byte GUID header", null);
    }
    ByteBuffer buffer = ByteBuffer.wrap(payload, offset + 1, GUID_HEADER_SIZE - 1);
    return new UUID(buffer.getLong(), buffer.getLong());
  }

  private static MalformedPayloadException tooShort(int length) {
    return new MalformedPayloadException("payload of " + length + " byte(s) is shorter than the "
        + HEADER_SIZE + "-byte header", null);
  }

  private static MalformedPayloadException badMagic(byte magic) {
    return new MalformedPayloadException(String.format("unknown magic byte 0x%02x (expected 0x00, or 0x01 for a GUID): not a "
        + "schema-registry framed Avro record", magic & 0xff), null);
  }
}
