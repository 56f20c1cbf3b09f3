package io.kavro.registry;

import java.util.Locale;

/** A subject's compatibility level, as named by the Confluent REST API. */
public enum CompatibilityLevel {
  /** Any schema is accepted. */
  NONE,
  /** The new schema can read data written with the latest one. */
  BACKWARD,
  /** The new schema can read data written with every earlier one. */
  BACKWARD_TRANSITIVE,
  /** The latest schema can read data written with the new one. */
  FORWARD,
  /** Every earlier schema can read data written with the new one. */
  FORWARD_TRANSITIVE,
  /** Both {@link #BACKWARD} and {@link #FORWARD}. */
  FULL,
  /** Both {@link #BACKWARD_TRANSITIVE} and {@link #FORWARD_TRANSITIVE}. */
  FULL_TRANSITIVE;

  /**
   * Parses a level name, ignoring case.
   *
   * @throws SchemaRegistryException naming the value when it is not a known level
   */
  public static CompatibilityLevel parse(String name) {
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new SchemaRegistryException("unknown compatibility level '" + name + "'", e);
    }
  }

  /** Whether new schemas are checked against every version, not only the latest. */
  public boolean transitive() {
    return this == BACKWARD_TRANSITIVE || this == FORWARD_TRANSITIVE || this == FULL_TRANSITIVE;
  }

  /** Whether the new schema must read the old ones' data. */
  public boolean backward() {
    return this == BACKWARD || this == BACKWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
  }

  /** Whether the old schemas must read the new one's data. */
  public boolean forward() {
    return this == FORWARD || this == FORWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
  }
}
