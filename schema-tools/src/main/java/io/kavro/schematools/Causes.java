package io.kavro.schematools;

import java.util.Optional;

/**
 * A failure's cause chain, walked at most {@link #MAX_CAUSES} deep: a chain can be cyclic (an exception whose cause
 * was set, with {@code initCause}, to one that wraps it), and a tool must still end with a message. The console
 * tool finds the registry's failure in a chain with it, and {@link SchemaFiles} the JSON error inside Avro's.
 */
public final class Causes {
  /** How deep a chain is walked, as the serde's own {@code RulePlan} walks one. */
  public static final int MAX_CAUSES = 16;

  private Causes() {}

  /**
   * The first of {@code failure} and its causes that is a {@code type}, within {@link #MAX_CAUSES}.
   *
   * @param failure the failure
   * @param type the type looked for
   * @param <T> the type looked for
   * @return the first failure of that type, or empty when none is within the depth
   */
  public static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> type) {
    Throwable cause = failure;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (type.isInstance(cause)) {
        return Optional.of(type.cast(cause));
      }
    }
    return Optional.empty();
  }
}
