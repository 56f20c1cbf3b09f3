package io.kavro.serde.framing;

import io.kavro.serde.MalformedPayloadException;
import io.kavro.serde.SchemaResolutionException;
import io.kavro.serde.UnsupportedFramingException;
import io.kavro.serde.WireFormat;
import java.nio.ByteBuffer;
import java.util.UUID;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.utils.Utils;

/**
 * Payloads framed by serdes whose registries Kavro does not call: the configured {@link FramingResolver} reads
 * them; without one, AWS Glue's framing is recognized and refused with a message that says what it is. Messages
 * say what is wrong with the framing; the deserializer adds which record.
 */
final class ForeignFramings {
  /** The first byte of AWS Glue Schema Registry's framing: its header version, 3. */
  static final byte GLUE_MAGIC_BYTE = 0x3;
  /** Glue's prefix: the version byte, a compression byte and the schema version's 16-byte UUID. */
  static final int GLUE_PREFIX_SIZE = 18;

  private ForeignFramings() {}

  /**
   * Where the resolver finds the payload's writer schema.
   *
   * @param resolverKeys the configuration key that names a resolver, for the message that asks for one
   * @throws UnsupportedFramingException for Glue's framing that no resolver reads, or the resolver's own
   * @throws MalformedPayloadException for a first byte that neither Kavro nor the resolver knows, or a resolver
   *     that fails
   * @throws SchemaResolutionException for a resolver that cannot run, a class it uses failing to link, or the
   *     resolver's own
   */
  static FramingResolver.Framed locate(FramingResolver resolver, String resolverKeys, Headers headers,
      byte[] payload, int offset, int length, String topic) {
    FramingResolver.Framed framed = resolver == null ? null
        : locateWith(resolver, topic, headers, payload, offset, length);
    if (framed != null) {
      if (framed.prefixSize() > length) {
        throw new MalformedPayloadException("the framing resolver " + resolver.getClass().getName()
            + " says its prefix has " + framed.prefixSize() + " bytes", null);
      }
      return framed;
    }
    if (payload[offset] == GLUE_MAGIC_BYTE && length >= GLUE_PREFIX_SIZE) {
      ByteBuffer prefix = ByteBuffer.wrap(payload, offset + 2, GLUE_PREFIX_SIZE - 2);
      UUID version = new UUID(prefix.getLong(), prefix.getLong());
      String compression = switch (payload[offset + 1]) {
        case 0 -> "uncompressed";
        case 5 -> "zlib-compressed";
        default -> String.format("compression byte 0x%02x", payload[offset + 1] & 0xff);
      };
      throw new UnsupportedFramingException("it is framed by AWS Glue Schema Registry's serde (" + compression
          + ", schema version " + version + "), whose schemas only Glue's API gives; Kavro does not call it: "
          + "configure a " + FramingResolver.class.getName() + " in " + resolverKeys + " to read it");
    }
    WireFormat.schemaId(payload, offset, length); // throws the unknown magic byte's message: not 0x00 here
    throw new MalformedPayloadException("not framed", null);
  }

  /** The resolver's answer; what it throws is the plug-in's failure, named as such ({@link #failure}, {@link #own}). */
  private static FramingResolver.Framed locateWith(FramingResolver resolver, String topic, Headers headers,
      byte[] payload, int offset, int length) {
    try {
      return resolver.locate(topic, headers, payload, offset, length);
    } catch (RetriableException e) {
      throw e;
    } catch (SerializationException e) {
      throw own(resolver, "locate threw", e);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw failure(resolver, "locate threw", e);
    }
  }

  /**
   * The resolver's own exception, of a type whose message the deserializer gives again naming the record
   * ({@link MalformedPayloadException}, {@link SchemaResolutionException}, {@link UnsupportedFramingException}):
   * of the same type, naming the resolver, with it as the cause, so that its stack trace is kept; any other
   * {@code SerializationException} as it is.
   */
  static SerializationException own(FramingResolver resolver, String what, SerializationException e) {
    String message = "the framing resolver " + resolver.getClass().getName() + " failed: " + what + ": " + e;
    if (e instanceof SchemaResolutionException) {
      return new SchemaResolutionException(message, e);
    }
    if (e instanceof MalformedPayloadException) {
      return new MalformedPayloadException(message, e);
    }
    if (e instanceof UnsupportedFramingException) {
      SerializationException unsupported = new UnsupportedFramingException(message);
      unsupported.initCause(e);
      return unsupported;
    }
    return e;
  }

  /**
   * The resolver's failure, naming it: the record's ({@link MalformedPayloadException}), unless a class the
   * resolver uses failed to link or initialize, which every record it reads would meet alike: a deployment fault
   * ({@link SchemaResolutionException}), so that no handler skips good records as bad ones.
   */
  static SerializationException failure(FramingResolver resolver, String what, Throwable e) {
    if (e instanceof LinkageError) {
      // Its initializer's failure, which on Java 17 only the class's first failed initialization carries
      return new SchemaResolutionException("the framing resolver " + resolver.getClass().getName() + " cannot "
          + "run, a class it uses failed to link or initialize (a deployment fault, not this record's: fix the "
          + "deployment, then read the record again): " + what + ": " + e
          + (e.getCause() == null ? "" : ", caused by " + e.getCause()), e);
    }
    return new MalformedPayloadException("the framing resolver " + resolver.getClass().getName() + " failed: "
        + what + ": " + e, e instanceof StackOverflowError ? null : e);
  }

  /** Closes the resolver; a failure to close is not the caller's. */
  static void close(FramingResolver resolver) {
    Utils.closeQuietly(resolver, "framing resolver " + resolver.getClass().getName());
  }
}
