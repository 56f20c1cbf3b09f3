package io.kavro.connect;

import org.apache.avro.Schema;

/**
 * The {@code key} and {@code value} fields of the record in which Avro holds a map with non-string keys (an
 * array of {@code MapEntry} records, as Confluent's {@code AvroData} writes it): their schemas and positions, for
 * both directions of the mapping.
 */
record MapEntryFields(Schema keySchema, int keyPos, Schema valueSchema, int valuePos) {

  /** The fields of {@code entry}, the array's element record. */
  static MapEntryFields of(Schema entry) {
    Schema.Field key = entry.getField(ConnectProps.KEY_FIELD);
    Schema.Field value = entry.getField(ConnectProps.VALUE_FIELD);
    return new MapEntryFields(key.schema(), key.pos(), value.schema(), value.pos());
  }
}
