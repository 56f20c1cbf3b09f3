package io.kavro.serde.framing;

import io.kavro.registry.ApicurioId;
import io.kavro.serde.MalformedPayloadException;
import io.kavro.serde.UnsupportedFramingException;
import io.kavro.serde.WireFormat;
import org.apache.avro.Schema;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Where the deserializer finds a record's writer schema, asked once per record. First match wins: Confluent's id
 * header ({@code __value_schema_id}: {@code 0x00} and an id, or {@code 0x01} and a GUID), Apicurio's id headers
 * (by name), both only with {@code DualSchemaIdDeserializer}; the payload's prefix ({@code 0x00} and an id of the
 * configured {@link SchemaIdPrefix} form, or {@code 0x01} and a GUID); the {@link FramingResolver} for any other
 * first byte. A record with an id header whose payload also starts with a whole prefix gets both readings (see
 * {@link Located#alternative()}). Immutable and thread-safe, as its resolver must be.
 *
 * <p>Failures are a {@link MalformedPayloadException} or an {@link UnsupportedFramingException} whose message says
 * what is wrong with the framing, or a {@link io.kavro.serde.SchemaResolutionException} for a resolver that cannot
 * run; the deserializer adds which record it is.
 */
public final class SchemaIdReader implements AutoCloseable {
  /** Bytes of the usual prefix ({@link #plainPrefix}): the magic byte and the 4-byte id. */
  public static final int PLAIN_PREFIX_SIZE = WireFormat.HEADER_SIZE;

  private final String idHeaderName;
  private final boolean readsHeaders;
  private final ApicurioHeaders apicurioHeaders;
  private final SchemaIdPrefix prefix;
  private final FramingResolver resolver;
  private final String resolverKey;
  private final boolean isKey;

  /**
   * @param readsHeaders whether id headers are read ({@code DualSchemaIdDeserializer}), or the prefix only
   * @param prefix the form of a {@code 0x00} prefix
   * @param resolver the configured resolver, or {@code null}; closed with this reader
   */
  public SchemaIdReader(boolean isKey, boolean readsHeaders, SchemaIdPrefix prefix, FramingResolver resolver) {
    this.isKey = isKey;
    this.idHeaderName = SchemaIdWriter.idHeader(isKey);
    this.readsHeaders = readsHeaders;
    this.apicurioHeaders = readsHeaders ? new ApicurioHeaders(isKey) : null;
    this.prefix = prefix;
    this.resolver = resolver;
    this.resolverKey = isKey ? "key.framing.resolver" : "value.framing.resolver";
  }

  /**
   * Finds how the payload of {@code length} bytes at {@code offset} names its writer schema, and where its body
   * is, into {@code at}.
   *
   * @throws MalformedPayloadException when the record is not framed in a way this reader knows
   * @throws UnsupportedFramingException for AWS Glue's framing, which only a resolver reads, or the resolver's own
   * @throws io.kavro.serde.SchemaResolutionException for a resolver that cannot run, a class it uses failing to link,
   *     or the resolver's own
   */
  public void locate(String topic, Headers headers, byte[] payload, int offset, int length, Located at) {
    byte[] idHeader = readsHeaders && headers != null ? valueOf(headers.lastHeader(idHeaderName)) : null;
    Object headerKey = null;
    if (idHeader != null) {
      if (idHeader.length == WireFormat.HEADER_SIZE && idHeader[0] == WireFormat.MAGIC_BYTE) {
        at.set(WireFormat.schemaId(idHeader, 0, idHeader.length), null, offset, length);
        if (startsWithPrefix(payload, offset, length)) {
          alternative(payload, offset, length, at);
        }
        return;
      }
      headerKey = keyOfHeader(idHeader);
    } else if (apicurioHeaders != null && headers != null) {
      headerKey = apicurioHeaders.id(headers);
    }
    if (headerKey != null) {
      at.set(-1, headerKey, offset, length);
      if (startsWithPrefix(payload, offset, length)) {
        alternative(payload, offset, length, at);
      }
      return;
    }
    if (prefix == SchemaIdPrefix.CONFLUENT && length >= WireFormat.HEADER_SIZE
        && payload[offset] == WireFormat.MAGIC_BYTE) {
      // The usual record: its id is not boxed.
      at.set(WireFormat.schemaId(payload, offset, length), null, offset + WireFormat.HEADER_SIZE,
          length - WireFormat.HEADER_SIZE);
      return;
    }
    if (length > 0 && payload[offset] != WireFormat.MAGIC_BYTE && payload[offset] != WireFormat.MAGIC_BYTE_GUID
        && (resolver != null || payload[offset] == ForeignFramings.GLUE_MAGIC_BYTE)) {
      FramingResolver.Framed framed = ForeignFramings.locate(resolver, resolverKey, headers, payload, offset,
          length, topic);
      at.set(-1, new ResolverKey(framed.key()), offset + framed.prefixSize(), length - framed.prefixSize());
      return;
    }
    Object key = prefixKey(payload, offset, length);
    int size = prefixSize(payload, offset);
    at.set(-1, key, offset + size, length - size);
  }

  /**
   * Whether the record is framed the usual way: a Confluent prefix ({@code 0x00} and a 4-byte id) and no id header
   * that {@link #locate} would take before it. Then its id is {@link #plainId}'s and its body follows the
   * {@link #PLAIN_PREFIX_SIZE} bytes, as {@code locate} would find; the deserializer asks this first, so that the
   * usual record fills no {@link Located}.
   */
  public boolean plainPrefix(Headers headers, byte[] payload, int offset, int length) {
    return prefix == SchemaIdPrefix.CONFLUENT && length >= WireFormat.HEADER_SIZE
        && payload[offset] == WireFormat.MAGIC_BYTE && (!readsHeaders || headers == null || !hasIdHeader(headers));
  }

  /** The schema id of a payload that {@link #plainPrefix} found framed the usual way. */
  public static int plainId(byte[] payload, int offset) {
    return WireFormat.schemaId(payload, offset, PLAIN_PREFIX_SIZE);
  }

  private boolean hasIdHeader(Headers headers) {
    return valueOf(headers.lastHeader(idHeaderName)) != null || apicurioHeaders.present(headers);
  }

  /** The prefix's reading of a record that also has an id header. */
  private void alternative(byte[] payload, int offset, int length, Located at) {
    int size = prefixSize(payload, offset);
    at.alternative(prefixKey(payload, offset, length), offset + size, length - size);
  }

  private static byte[] valueOf(Header header) {
    return header == null ? null : header.value(); // a header without a value is no header
  }

  /** Whether the payload starts with a whole prefix: {@code 0x00} and an id of the configured form, or a GUID's. */
  private boolean startsWithPrefix(byte[] payload, int offset, int length) {
    return length > 0 && (payload[offset] == WireFormat.MAGIC_BYTE && length >= prefix.size()
        || payload[offset] == WireFormat.MAGIC_BYTE_GUID && length >= WireFormat.GUID_HEADER_SIZE);
  }

  private int prefixSize(byte[] payload, int offset) {
    return payload[offset] == WireFormat.MAGIC_BYTE_GUID ? WireFormat.GUID_HEADER_SIZE : prefix.size();
  }

  /**
   * How the payload's prefix names its writer schema: an {@code Integer} schema id, a GUID or an
   * {@link ApicurioId} of the configured prefix form; checks the prefix.
   */
  private Object prefixKey(byte[] payload, int offset, int length) {
    if (length > 0 && payload[offset] == WireFormat.MAGIC_BYTE_GUID) {
      return WireFormat.guid(payload, offset, length);
    }
    if (prefix == SchemaIdPrefix.CONFLUENT) {
      return WireFormat.schemaId(payload, offset, length);
    }
    if (length < prefix.size()) {
      throw new MalformedPayloadException("payload of " + length + " byte(s) is shorter than the " + prefix.size()
          + "-byte header (schema.id.prefix=" + prefix.configValue() + ")", null);
    }
    if (payload[offset] != WireFormat.MAGIC_BYTE) {
      WireFormat.schemaId(payload, offset, length); // throws the unknown magic byte's message
    }
    return prefix.apicurioId(payload, offset);
  }

  /** The id or GUID of a header value: exactly {@code [0x00][int32 id]} or {@code [0x01][16-byte guid]}. */
  private Object keyOfHeader(byte[] value) {
    if (value.length == WireFormat.GUID_HEADER_SIZE && value[0] == WireFormat.MAGIC_BYTE_GUID) {
      return WireFormat.guid(value, 0, value.length);
    }
    throw new MalformedPayloadException("its " + idHeaderName + " header holds " + value.length + " byte(s)"
        + (value.length > 0 ? String.format(" starting 0x%02x", value[0] & 0xff) : "")
        + ", not a schema id (exactly 0x00 and 4 bytes) or GUID (exactly 0x01 and 16 bytes)", null);
  }

  /** The header that named {@code headerKey}: Apicurio's for its ids, Confluent's otherwise. */
  public String headerName(Object headerKey) {
    if (headerKey instanceof ApicurioId apicurioId) {
      return (isKey ? "apicurio.key." : "apicurio.value.")
          + (apicurioId.kind() == ApicurioId.Kind.GLOBAL_ID ? "globalId" : "contentId");
    }
    return idHeaderName;
  }

  /** The resolver's class name, for messages; {@code null} without one. */
  public String resolverName() {
    return resolver == null ? null : resolver.getClass().getName();
  }

  /**
   * The writer schema of a resolver's key, from the resolver.
   *
   * @throws MalformedPayloadException naming the resolver when it throws anything but a Kafka
   *     {@code RetriableException}, which passes as it is, a {@code SerializationException}, which keeps its type,
   *     or a {@code LinkageError}
   * @throws io.kavro.serde.SchemaResolutionException naming the resolver when a class it uses fails to link
   */
  public Schema writerSchema(ResolverKey key) {
    try {
      return resolver.writerSchema(key.key());
    } catch (org.apache.kafka.common.errors.RetriableException e) {
      throw e;
    } catch (org.apache.kafka.common.errors.SerializationException e) {
      throw ForeignFramings.own(resolver, "writerSchema(" + key + ") threw", e);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw ForeignFramings.failure(resolver, "writerSchema(" + key + ") threw", e);
    }
  }

  /**
   * A failure of the resolver's key itself (its {@code hashCode} or {@code equals}), naming the resolver: a
   * {@link MalformedPayloadException}, or a {@link io.kavro.serde.SchemaResolutionException} for a
   * {@code LinkageError}.
   */
  public org.apache.kafka.common.errors.SerializationException keyFailure(Throwable e) {
    return ForeignFramings.failure(resolver, "its key's hashCode or equals threw", e);
  }

  /** Closes the resolver, if any. */
  @Override
  public void close() {
    if (resolver != null) {
      ForeignFramings.close(resolver);
    }
  }
}
