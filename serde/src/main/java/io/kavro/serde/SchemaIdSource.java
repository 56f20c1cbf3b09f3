package io.kavro.serde;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * Where the deserializer finds a record's schema id, as Confluent's {@code SchemaIdDeserializer} implementations
 * split it: in the payload's prefix only ({@code PrefixSchemaIdDeserializer}), or in the record's header when it
 * has one, else in the prefix ({@code DualSchemaIdDeserializer}). Either holds {@code 0x00} and an id, or
 * {@code 0x01} and a GUID (see {@link WireFormat}). Immutable.
 */
sealed interface SchemaIdSource {

  /** The value of the record's schema id header, or {@code null} to read the id from the payload's prefix. */
  byte[] header(Headers headers);

  /** The name of the header it reads, for messages. */
  String headerName();

  /** The prefix only. */
  record Prefix(String headerName) implements SchemaIdSource {
    @Override
    public byte[] header(Headers headers) {
      return null;
    }
  }

  /** The header {@code headerName} when the record has one, else the prefix. */
  record HeaderOrPrefix(String headerName) implements SchemaIdSource {
    @Override
    public byte[] header(Headers headers) {
      if (headers == null) {
        return null;
      }
      Header header = headers.lastHeader(headerName);
      return header == null ? null : header.value();
    }
  }

  /** The source a deserializer of keys or values is configured with. */
  static SchemaIdSource of(AvroSerdeConfig config) {
    String name = config.isKey() ? WireFormat.KEY_SCHEMA_ID_HEADER : WireFormat.VALUE_SCHEMA_ID_HEADER;
    return config.schemaIdFromHeader() ? new HeaderOrPrefix(name) : new Prefix(name);
  }
}
