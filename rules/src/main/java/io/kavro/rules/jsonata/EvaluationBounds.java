package io.kavro.rules.jsonata;

import com.dashjoin.jsonata.JException;
import com.dashjoin.jsonata.Jsonata;

/**
 * The time and depth bounds of one JSONata evaluation ({@code jsonata.timeout.ms}, {@code jsonata.max.depth}).
 *
 * <p>The engine's own {@code Timebox} checks them each time it enters and leaves a node of the expression; its
 * clock starts when it is made, so each evaluation makes a new one, in the frame that the expressions
 * {@code $eval} runs within the evaluation share. This tells afterwards which bound a failed evaluation crossed,
 * from its own clock and the engine's error, however the engine wrapped that error. One per
 * {@link JsonataProgram}: confined to a thread.
 */
final class EvaluationBounds {
  /** How the engine's Timebox begins its message when the depth bound is crossed. */
  private static final String DEPTH_ERROR = "Stack overflow error";

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
    if (System.nanoTime() - started >= timeoutMs * 1_000_000L) {
      return "ran longer than jsonata.timeout.ms=" + timeoutMs + " (a loop that does not end?)";
    }
    Throwable cause = failure;
    for (int depth = 0; cause != null && depth < 16; depth++, cause = cause.getCause()) {
      if (cause instanceof JException e && e.getMessage() != null && e.getMessage().startsWith(DEPTH_ERROR)) {
        return "nests deeper than jsonata.max.depth=" + maxDepth + " (a recursion that does not end?)";
      }
    }
    return null;
  }
}
