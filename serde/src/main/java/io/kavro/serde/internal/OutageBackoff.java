package io.kavro.serde.internal;

import java.time.Duration;

/**
 * The waits between two askings in the background of an answer kept while the registry cannot be reached: the
 * first {@link #FIRST_WAIT}, then twice the last one, up to {@link #LONGEST_WAIT}. One rule for every answer the serde
 * keeps during an outage (a subject name strategy's subjects; a deserializer's topic contexts). Stateless.
 */
public final class OutageBackoff {
  /** The first wait after an asking that found the registry unreachable. */
  public static final Duration FIRST_WAIT = Duration.ofSeconds(30);
  /** The longest wait between two askings while the registry stays unreachable. */
  public static final Duration LONGEST_WAIT = Duration.ofMinutes(5);

  private OutageBackoff() {}

  /**
   * The wait, in nanoseconds, after the one of {@code lastWaitNanos}: {@link #FIRST_WAIT} after none (0), else twice
   * the last, at most {@link #LONGEST_WAIT}.
   */
  public static long nextWaitNanos(long lastWaitNanos) {
    return lastWaitNanos <= 0 ? FIRST_WAIT.toNanos() : Math.min(2 * lastWaitNanos, LONGEST_WAIT.toNanos());
  }
}
