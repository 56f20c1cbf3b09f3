package io.kavro.serde;

import java.nio.ByteBuffer;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;

/**
 * Payloads framed by serdes whose registries Kavro does not call: the configured {@link FramingResolver} reads
 * them; without one, AWS Glue's framing is recognized and refused with a message that says what it is.
 */
final class ForeignFramings {
  /** The first byte of AWS Glue Schema Registry's framing: its header version, 3. */
  static final byte GLUE_MAGIC_BYTE = 0x3;
  /** Glue's prefix: the version byte, a compression byte and the schema version's 16-byte UUID. */
  static final int GLUE_PREFIX_SIZE = 18;

  private ForeignFramings() {}

  /** The configured resolver, created and configured, or {@code null}. */
  static FramingResolver resolver(AvroSerdeConfig config) {
    if (config.framingResolver() == null) {
      return null;
    }
    FramingResolver resolver = Utils.newInstance(config.framingResolver());
    resolver.configure(config.originals(), config.isKey());
    return resolver;
  }

  /**
   * Where the resolver finds the payload's writer schema.
   *
   * @throws UnsupportedFramingException for Glue's framing that no resolver reads
   * @throws MalformedPayloadException for a first byte that neither Kavro nor the resolver knows
   */
  static FramingResolver.Framed locate(FramingResolver resolver, String topic, boolean isKey, Headers headers,
      byte[] payload, int offset, int length) {
    FramingResolver.Framed framed = resolver == null ? null
        : locateWith(resolver, topic, isKey, headers, payload, offset, length);
    if (framed != null) {
      if (framed.prefixSize() > length) {
        throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, -1, length)
            + ": the framing resolver " + resolver.getClass().getName() + " says its prefix has "
            + framed.prefixSize() + " bytes", null);
      }
      return framed;
    }
    String record = Failures.record(topic, isKey, -1, length);
    if (payload[offset] == GLUE_MAGIC_BYTE && length >= GLUE_PREFIX_SIZE) {
      ByteBuffer prefix = ByteBuffer.wrap(payload, offset + 2, GLUE_PREFIX_SIZE - 2);
      UUID version = new UUID(prefix.getLong(), prefix.getLong());
      String compression = switch (payload[offset + 1]) {
        case 0 -> "uncompressed";
        case 5 -> "zlib-compressed";
        default -> String.format("compression byte 0x%02x", payload[offset + 1] & 0xff);
      };
      throw new UnsupportedFramingException("cannot deserialize " + record + ": it is framed by AWS Glue Schema "
          + "Registry's serde (" + compression + ", schema version " + version + "), whose schemas only Glue's API "
          + "gives; Kavro does not call it: configure a " + FramingResolver.class.getName() + " in "
          + (isKey ? AvroSerdeConfig.KEY_FRAMING_RESOLVER_CONFIG : AvroSerdeConfig.VALUE_FRAMING_RESOLVER_CONFIG)
          + " to read it");
    }
    String why;
    try {
      WireFormat.schemaId(payload, offset, length);
      why = "not framed"; // not reached: the first byte is not 0x00
    } catch (MalformedPayloadException e) {
      why = e.getMessage();
    }
    throw new MalformedPayloadException("cannot deserialize " + record + ": " + why, null);
  }

  /** The resolver's answer; what it throws is the plug-in's failure on this record, named as such. */
  private static FramingResolver.Framed locateWith(FramingResolver resolver, String topic, boolean isKey,
      Headers headers, byte[] payload, int offset, int length) {
    try {
      return resolver.locate(topic, headers, payload, offset, length);
    } catch (org.apache.kafka.common.errors.SerializationException
        | org.apache.kafka.common.errors.RetriableException e) {
      throw e;
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, -1, length)
          + ": the framing resolver " + resolver.getClass().getName() + " failed: locate threw: " + e,
          e instanceof StackOverflowError ? null : e);
    }
  }

  /** Closes the resolver; a failure to close is not the caller's. */
  static void close(FramingResolver resolver) {
    Utils.closeQuietly(resolver, "framing resolver " + resolver.getClass().getName());
  }
}
