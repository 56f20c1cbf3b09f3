package io.kavro.rules.jsonata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.dashjoin.jsonata.JException;
import com.dashjoin.jsonata.Jsonata;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Which bound a failed evaluation crossed is told by the engine's own error first: the engine times on the wall
 * clock, Kavro on the monotonic one, and a step of the wall clock puts them apart (CI failed on it once).
 */
class EvaluationBoundsTest {
  /** Lets Kavro's monotonic clock pass {@code nanos}: a spin on that clock, not a sleep. */
  private static void spinPast(long nanos) {
    long until = System.nanoTime() + nanos;
    while (System.nanoTime() - until < 0) {
      Thread.onSpinWait();
    }
  }

  private static EvaluationBounds started(long timeoutMs) {
    EvaluationBounds bounds = new EvaluationBounds(timeoutMs, 50);
    bounds.start(new Jsonata.Frame(null));
    return bounds;
  }

  @Test
  void theEnginesTimeout_isTheTimeBound_beforeKavrosClockGetsThere() {
    JException timeout = new JException("Expression evaluation timeout: Check for infinite loop", -1);
    String crossed = started(60_000).crossed(new RuntimeException("as $sort's comparator wraps it", timeout));
    assertThat(crossed).isEqualTo("ran longer than jsonata.timeout.ms=60000 (a loop that does not end?)");
  }

  @Test
  void theEnginesDepthError_isTheDepthBound() {
    JException deep = new JException("Stack overflow error: Check for non-terminating recursive function.", -1);
    assertThat(started(60_000).crossed(deep))
        .isEqualTo("nests deeper than jsonata.max.depth=50 (a recursion that does not end?)");
  }

  /** Against the engine itself: its own 50 ms Timebox fires long before Kavro's 60 s clock would. */
  @Test
  void theEnginesOwnTimeout_isTheTimeBound() {
    EvaluationBounds bounds = new EvaluationBounds(60_000, 1000);
    Jsonata.Frame frame = new Jsonata.Frame(null);
    bounds.start(frame);
    frame.setRuntimeBounds(50, 1000);
    // guarded: the engine times on the wall clock, which a step back would hold off
    Throwable thrown = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> catchThrowable(
        () -> Jsonata.jsonata("($f := function($x) { $f($x + 1) }; $f(0))").evaluate(null, frame)));
    assertThat(bounds.crossed(thrown))
        .isEqualTo("ran longer than jsonata.timeout.ms=60000 (a loop that does not end?)");
  }

  @Test
  void theEnginesDepthError_isTheDepthBound_evenAfterKavrosClockRanOut() {
    EvaluationBounds bounds = started(1);
    spinPast(5_000_000);
    assertThat(bounds.crossed(new JException("Stack overflow error: Depth=51 max=50", -1)))
        .isEqualTo("nests deeper than jsonata.max.depth=50 (a recursion that does not end?)");
  }

  /** A timeout of Long.MAX_VALUE ms, a way to say "none", does not overflow into every error being a timeout. */
  @Test
  void aTimeoutTooLargeForNanoseconds_isNeverCrossedByTheClock() {
    assertThat(started(Long.MAX_VALUE).crossed(new JException("T2001", 3))).isNull();
  }

  @Test
  void anotherError_beforeTheTimeout_crossedNoBound() {
    assertThat(started(60_000).crossed(new JException("T2001", 3))).isNull();
    assertThat(started(60_000).crossed(new IllegalStateException("boom"))).isNull();
  }

  @Test
  void anyError_afterKavrosClockRanOut_isTheTimeBound() {
    EvaluationBounds bounds = started(1);
    spinPast(5_000_000);
    assertThat(bounds.crossed(new IllegalStateException("the engine's error, however wrapped")))
        .isEqualTo("ran longer than jsonata.timeout.ms=1 (a loop that does not end?)");
  }
}
