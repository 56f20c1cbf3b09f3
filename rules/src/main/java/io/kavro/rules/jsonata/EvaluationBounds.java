package io.kavro.rules.jsonata;

import com.dashjoin.jsonata.JException;
import com.dashjoin.jsonata.Jsonata;
import io.kavro.serde.rules.Causes;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The time and depth bounds of one JSONata evaluation ({@code jsonata.timeout.ms}, {@code jsonata.max.depth}).
 *
 * <p>The engine's own {@code Timebox} checks them each time it enters and leaves a node of the expression; its
 * clock starts when it is made, so each evaluation makes a new one, in the frame that the expressions
 * {@code $eval} runs within the evaluation share. This tells afterwards which bound a failed evaluation crossed,
 * from the engine's error among the failure's first causes, or else from its own clock (a few engine paths wrap
 * the error deeper, or drop it: {@code $sort}'s comparator, the right side of {@code and}; the time bound is still
 * told then, by the clock, but a depth bound is reported as the engine's error). The engine times an evaluation on
 * the wall clock and this on the monotonic one: a step of the wall clock (NTP setting a fresh machine's time) can
 * put them apart, so the engine's own error counts whatever this clock says. One per {@link JsonataProgram}:
 * confined to a thread.
 */
final class EvaluationBounds {
  /** How the engine's Timebox begins its error when the depth bound is crossed. */
  private static final String DEPTH_ERROR = "Stack overflow error";
  /** How the engine's Timebox begins its error when the time bound is crossed. */
  private static final String TIME_ERROR = "Expression evaluation timeout";

  private final long timeoutMs;
  private final int maxDepth;
  private long started;

  EvaluationBounds(long timeoutMs, int maxDepth) {
    this.timeoutMs = timeoutMs;
    this.maxDepth = maxDepth;
  }

  /** Starts the clock of an evaluation that runs with {@code frame}. */
  void start(Jsonata.Frame frame) {
    started = System.nanoTime();
    frame.setRuntimeBounds(timeoutMs, maxDepth);
  }

  /** What bound the evaluation that failed with {@code failure} crossed, or null when it crossed none. */
  String crossed(Throwable failure) {
    String timeCrossed = "ran longer than jsonata.timeout.ms=" + timeoutMs + " (a loop that does not end?)";
    Optional<String> engines = Causes.first(failure, e -> e instanceof JException j && j.getError() != null
        && (j.getError().startsWith(DEPTH_ERROR) || j.getError().startsWith(TIME_ERROR)))
        .map(e -> ((JException) e).getError());
    if (engines.isPresent()) {
      return engines.get().startsWith(DEPTH_ERROR)
          ? "nests deeper than jsonata.max.depth=" + maxDepth + " (a recursion that does not end?)" : timeCrossed;
    }
    // toNanos saturates: a timeout of Long.MAX_VALUE ms ("none") must not overflow into "always crossed"
    return System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(timeoutMs) ? timeCrossed : null;
  }
}
