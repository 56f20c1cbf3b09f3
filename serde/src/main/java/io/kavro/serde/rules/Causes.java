package io.kavro.serde.rules;

import java.util.Optional;
import java.util.function.Predicate;

/**
 * A failure's cause chain, walked at most {@link #MAX_CAUSES} deep (a bound against a cyclic chain): how the serde
 * finds a registry fault or an outage that a rule wrapped, and how kavro-rules tells a KMS outage from a refusal.
 */
public final class Causes {
  /** How deep a chain is walked, the failure itself included. */
  public static final int MAX_CAUSES = 16;

  private Causes() {}

  /**
   * The first of {@code failure} and its causes that is a {@code type}, within {@link #MAX_CAUSES}.
   *
   * @param failure the failure, or null
   * @param type the type looked for
   * @param <T> the type looked for
   * @return the first failure of that type, or empty when none is within the depth
   */
  public static <T extends Throwable> Optional<T> find(Throwable failure, Class<T> type) {
    return first(failure, type::isInstance).map(type::cast);
  }

  /**
   * The first of {@code failure} and its causes that {@code test} accepts, within {@link #MAX_CAUSES}.
   *
   * @param failure the failure, or null
   * @param test what is looked for
   * @return the first failure accepted, or empty when none is within the depth
   */
  public static Optional<Throwable> first(Throwable failure, Predicate<Throwable> test) {
    Throwable cause = failure;
    for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
      if (test.test(cause)) {
        return Optional.of(cause);
      }
    }
    return Optional.empty();
  }
}
