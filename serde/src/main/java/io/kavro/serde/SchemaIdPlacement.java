package io.kavro.serde;

import java.util.Arrays;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;

/**
 * Where the serializer puts a route's schema id, as Confluent's {@code SchemaIdSerializer} implementations split
 * it: before the Avro body ({@code PrefixSchemaIdSerializer}), or in the record's header, as the schema's GUID or,
 * where the registry has none, its id ({@code HeaderSchemaIdSerializer}). Immutable.
 */
sealed interface SchemaIdPlacement {

  /** The payload's bytes before the Avro body. */
  int prefixSize();

  /** Writes those bytes at {@code offset}. */
  void writePrefix(byte[] buffer, int offset);

  /** Adds the id to the record's headers, when it goes there. */
  void addHeader(Headers headers);

  /** {@code 0x00} and the id before the body. */
  record Prefix(int id) implements SchemaIdPlacement {
    @Override
    public int prefixSize() {
      return WireFormat.HEADER_SIZE;
    }

    @Override
    public void writePrefix(byte[] buffer, int offset) {
      WireFormat.writeHeader(buffer, offset, id);
    }

    @Override
    public void addHeader(Headers headers) {}
  }

  /** The body alone, and {@code value} in header {@code name}: the GUID ({@code 0x01}) or the id ({@code 0x00}). */
  record Header(String name, byte[] value) implements SchemaIdPlacement {
    /** The GUID when there is one, else the id. */
    static Header of(String name, int id, UUID guid) {
      return new Header(name, guid != null ? WireFormat.guidPrefix(guid) : WireFormat.idPrefix(id));
    }

    @Override
    public int prefixSize() {
      return 0;
    }

    @Override
    public void writePrefix(byte[] buffer, int offset) {}

    /** Added unless the last such header already holds it, as Confluent's serializer does. */
    @Override
    public void addHeader(Headers headers) {
      org.apache.kafka.common.header.Header existing = headers.lastHeader(name);
      if (existing == null || !Arrays.equals(existing.value(), value)) {
        headers.add(name, value.clone());
      }
    }
  }
}
