package io.kavro.serde.framing;

import io.kavro.registry.ApicurioId;
import io.kavro.serde.MalformedPayloadException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The record headers in which Apicurio's serdes put a schema id instead of the payload's prefix
 * ({@code apicurio.registry.headers.enabled}, the default of Apicurio 2): {@code apicurio.value.globalId} or
 * {@code apicurio.value.contentId} (and {@code apicurio.key.*}), each an 8-byte big-endian id, with the Avro body
 * alone in the payload. Recognized by their names. Immutable.
 */
final class ApicurioHeaders {
  private static final byte[] BINARY = "BINARY".getBytes(StandardCharsets.US_ASCII);
  private final String globalIdHeader;
  private final String contentIdHeader;
  private final String encodingHeader;
  ApicurioHeaders(boolean isKey) {
    this.globalIdHeader = side(isKey) + "globalId";
    this.contentIdHeader = side(isKey) + "contentId";
    this.encodingHeader = side(isKey) + "encoding";
  }

  private static String side(boolean isKey) {
    return isKey ? "apicurio.key." : "apicurio.value.";
  }

  /** The names of the id headers of keys or values: the global id's, then the content id's. */
  static List<String> names(boolean isKey) {
    return List.of(side(isKey) + "globalId", side(isKey) + "contentId");
  }

  /** Whether the record has one of Apicurio's id headers, well formed or not: then {@link #id} reads it. */
  boolean present(Headers headers) {
    return headers.lastHeader(globalIdHeader) != null || headers.lastHeader(contentIdHeader) != null;
  }

  /**
   * The id in the record's headers, the global id first, or {@code null} when it has neither header.
   *
   * @throws MalformedPayloadException when such a header is not 8 bytes, or the record says its body is not
   *     Avro's binary encoding (Apicurio's {@code apicurio.registry.avro.encoding=JSON})
   */
  ApicurioId id(Headers headers) {
    Header header = headers.lastHeader(globalIdHeader);
    ApicurioId.Kind kind = ApicurioId.Kind.GLOBAL_ID;
    if (header == null) {
      header = headers.lastHeader(contentIdHeader);
      kind = ApicurioId.Kind.CONTENT_ID;
      if (header == null) {
        return null;
      }
    }
    byte[] value = header.value();
    if (value == null || value.length != Long.BYTES) {
      throw new MalformedPayloadException("its " + header.key() + " header holds "
          + (value == null ? "no value" : value.length + " byte(s)") + ", not an 8-byte Apicurio id", null);
    }
    Header encoding = headers.lastHeader(encodingHeader);
    String encodingName = encoding == null || encoding.value() == null
        || java.util.Arrays.equals(encoding.value(), BINARY) ? "BINARY"
        : new String(encoding.value(), StandardCharsets.UTF_8);
    if (!"BINARY".equalsIgnoreCase(encodingName)) {
      throw new MalformedPayloadException("its " + encodingHeader + " header says '" + encodingName + "', and Kavro reads Avro's binary "
          + "encoding only (Apicurio writes JSON with apicurio.registry.avro.encoding=JSON)", null);
    }
    long id = 0;
    for (byte b : value) {
      id = id << 8 | b & 0xff;
    }
    return new ApicurioId(kind, id);
  }
}
