package io.kavro.connect;

import org.apache.kafka.connect.errors.DataException;

/**
 * Maps the values of one schema to the values of another, Connect to Avro or Avro to Connect, with every decision
 * that depends on the schemas alone taken once, when the mapper is built. Thread-safe.
 */
@FunctionalInterface
interface ValueMapper {
  /**
   * The mapped value.
   *
   * @throws DataException naming the type when the value does not fit its schema
   */
  Object map(Object value);

  /** {@code convert}, with a value of the wrong Java type for the logical type {@code name} a DataException. */
  static ValueMapper logical(String name, ValueMapper convert) {
    return value -> {
      try {
        return convert.map(value);
      } catch (ClassCastException e) {
        throw new DataException("Invalid type for " + name + ": " + value.getClass().getName());
      }
    };
  }
}
