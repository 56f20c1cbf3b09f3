package io.kavro.serde;


/** Encodes one value of one schema into a {@link ByteSink}. Stateless and thread-safe. */
@FunctionalInterface
interface CompiledEncoder {
  /**
   * Writes {@code value} to {@code out}. A value that does not match the schema fails as it does in Avro's
   * writers: with a {@link ClassCastException}, a {@link NullPointerException} or an
   * {@link org.apache.avro.AvroRuntimeException}, which the serializer turns into a
   * {@code SerializationException} naming the record and, found by {@link WriteDiagnosis} once the write has failed,
   * the value that does not fit: an encoder tracks no path of its own.
   *
   * @throws ClassCastException when a value has the wrong Java type for its schema
   */
  void encode(Object value, ByteSink out);
}
