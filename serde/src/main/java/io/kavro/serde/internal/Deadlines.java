package io.kavro.serde.internal;

/**
 * The one rule for when a kept answer's time is over, on a nanosecond clock ({@link System#nanoTime()} or a
 * ticker): a deadline is the clock reading until which an answer stands, {@link Long#MAX_VALUE} for good, compared
 * by difference so that the clock may wrap. Used for every answer the serde keeps for a time (a subject name
 * strategy's subjects; a deserializer's topic contexts). Stateless.
 */
public final class Deadlines {
  private Deadlines() {}

  /** The clock reading {@code nanos} after {@code now}; {@link Long#MAX_VALUE} (for good) for a very long time. */
  public static long until(long now, long nanos) {
    return nanos >= Long.MAX_VALUE / 2 ? Long.MAX_VALUE : now + Math.max(0, nanos);
  }

  /** Whether an answer standing until {@code until} still stands at clock reading {@code now}. */
  public static boolean stands(long until, long now) {
    return until == Long.MAX_VALUE || now - until < 0;
  }

  /**
   * Whether an answer standing until {@code until} still stands on {@code clock}, which is read only when the answer
   * does not stand for good: on the record path, a clock reading ({@link System#nanoTime()}, tens of nanoseconds on a
   * virtual machine) for an answer that never expires is a record's cost for nothing.
   */
  public static boolean stands(long until, java.util.function.LongSupplier clock) {
    return until == Long.MAX_VALUE || clock.getAsLong() - until < 0;
  }
}
