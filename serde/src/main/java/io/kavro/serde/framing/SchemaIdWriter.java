package io.kavro.serde.framing;

import io.kavro.serde.WireFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.header.Headers;

/**
 * Where the serializer puts a route's schema id, as Confluent's {@code SchemaIdSerializer} implementations split
 * it: before the Avro body ({@code PrefixSchemaIdSerializer}), or in the record's header, as the schema's GUID or,
 * where the registry has none, its id ({@code HeaderSchemaIdSerializer}). Either way it removes the id headers
 * that would name another schema. Immutable; built once per route.
 */
public sealed interface SchemaIdWriter {

  /** {@code 0x00} and {@code id} before the body, for keys or values. */
  static SchemaIdWriter prefix(int id, boolean isKey) {
    List<String> others = new ArrayList<>();
    others.add(idHeader(isKey));
    others.addAll(ApicurioHeaders.names(isKey));
    return new Prefix(id, List.copyOf(others));
  }

  /** The body alone, and the schema's GUID (or, when {@code guid} is {@code null}, its id) in the id header. */
  static SchemaIdWriter header(int id, UUID guid, boolean isKey) {
    return Header.of(idHeader(isKey), id, guid, ApicurioHeaders.names(isKey));
  }

  /** Confluent's id header of keys or values. */
  static String idHeader(boolean isKey) {
    return isKey ? WireFormat.KEY_SCHEMA_ID_HEADER : WireFormat.VALUE_SCHEMA_ID_HEADER;
  }

  /** Apicurio's id headers of keys or values, which Kavro's writers remove and its translation leaves alone. */
  static List<String> apicurioIdHeaders(boolean isKey) {
    return ApicurioHeaders.names(isKey);
  }

  /** The payload's bytes before the Avro body. */
  int prefixSize();

  /** Writes those bytes at {@code offset}. */
  void writePrefix(byte[] buffer, int offset);

  /**
   * Adds the id to the record's headers, when it goes there, and removes the headers that would name another
   * schema (a record's headers may be copied from a record that another serde wrote, as Kafka Streams does).
   */
  void addHeader(Headers headers);

  /** Removes each of {@code names} that {@code headers} has; a record without them is not written to. */
  private static void removeAll(Headers headers, List<String> names) {
    for (String name : names) {
      if (headers.lastHeader(name) != null) {
        headers.remove(name);
      }
    }
  }

  /**
   * {@code 0x00} and the id before the body.
   *
   * @param otherIdHeaders the headers that name a schema otherwise (Confluent's id header, Apicurio's), which
   *     a reader would take before the prefix: removed from the record
   */
  record Prefix(int id, List<String> otherIdHeaders) implements SchemaIdWriter {
    @Override
    public int prefixSize() {
      return WireFormat.HEADER_SIZE;
    }

    @Override
    public void writePrefix(byte[] buffer, int offset) {
      WireFormat.writeHeader(buffer, offset, id);
    }

    @Override
    public void addHeader(Headers headers) {
      if (headers != null) {
        removeAll(headers, otherIdHeaders);
      }
    }
  }

  /**
   * The body alone, and {@code value} in header {@code name}: the GUID ({@code 0x01}) or the id ({@code 0x00}).
   *
   * @param otherIdHeaders the headers that name a schema otherwise (Apicurio's): removed from the record
   */
  record Header(String name, byte[] value, List<String> otherIdHeaders) implements SchemaIdWriter {
    /** The GUID when there is one, else the id. */
    static Header of(String name, int id, UUID guid, List<String> otherIdHeaders) {
      return new Header(name, guid != null ? WireFormat.guidPrefix(guid) : WireFormat.idPrefix(id), otherIdHeaders);
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
      removeAll(headers, otherIdHeaders);
      org.apache.kafka.common.header.Header existing = headers.lastHeader(name);
      if (existing == null || !Arrays.equals(existing.value(), value)) {
        headers.add(name, value.clone());
      }
    }
  }
}
