package io.kavro.serde;

import java.nio.ByteBuffer;

/**
 * The framing shared with Confluent's serializers: {@code [0x00][int32 big-endian schema id][Avro binary]}.
 */
public final class WireFormat {
  /** The first byte of every framed record. */
  public static final byte MAGIC_BYTE = 0x0;
  /** Bytes before the Avro body: the magic byte and the schema id. */
  public static final int HEADER_SIZE = 5;

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

  private static MalformedPayloadException tooShort(int length) {
    return new MalformedPayloadException("payload of " + length + " byte(s) is shorter than the "
        + HEADER_SIZE + "-byte header", null);
  }

  private static MalformedPayloadException badMagic(byte magic) {
    return new MalformedPayloadException(String.format("unknown magic byte 0x%02x (expected 0x00): not a "
        + "schema-registry framed Avro record", magic & 0xff), null);
  }
}
