package io.kavro.serde.rules;

/**
 * What an inline validation rule's {@code this} is bound to, as Confluent's serializer binds the application's own
 * object: chosen by the data model the serializer writes the record with.
 */
public enum InlineBinding {
  /**
   * A logical type is its Java type ({@code Instant}, {@code LocalDate}, {@code BigDecimal}, {@code UUID}...): a
   * generated (specific) class, reflection or a Java record, or generic data with
   * {@code avro.use.logical.type.converters=true}.
   */
  JAVA_TYPES,
  /**
   * A logical type is its underlying Avro value ({@code long} for {@code timestamp-millis}, {@code int} for
   * {@code date}, {@code bytes} for {@code decimal}, {@code string} for {@code uuid}): generic data without logical
   * type converters, Confluent's and Kavro's default.
   */
  AVRO_VALUES
}
