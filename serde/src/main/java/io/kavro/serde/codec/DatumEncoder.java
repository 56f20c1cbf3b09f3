package io.kavro.serde.codec;

import io.kavro.serde.avro.ByteSink;

/** Encodes one value of one schema into a {@link ByteSink}. Stateless and thread-safe. */
@FunctionalInterface
public interface DatumEncoder {
  /**
   * @throws ClassCastException, NullPointerException or {@link org.apache.avro.AvroRuntimeException} when the
   *     value does not match the schema, as Avro's writers do
   */
  void encode(Object value, ByteSink out);
}
