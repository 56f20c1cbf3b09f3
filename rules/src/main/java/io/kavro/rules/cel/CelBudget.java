package io.kavro.rules.cel;

import com.google.protobuf.ByteString;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.values.CelByteString;
import dev.cel.runtime.CelEvaluationListener;
import java.util.Collection;
import java.util.Map;

/**
 * What one run of a CEL rule on a message may still spend ({@link CelLimits}): CEL's evaluator calls it after each
 * sub-expression, and once a bound is crossed, every call throws, so that the evaluation unwinds at once. It also
 * remembers the crossing: CEL's {@code &&}, {@code ||} and macros can absorb an error into a value
 * ({@code false && error} is {@code false}), and a run that crossed a bound fails whatever its value. Confined to
 * the thread of the run.
 */
final class CelBudget implements CelEvaluationListener {
  /** The clock is read every 16 steps: a step is a fraction of a microsecond, reading the clock a good part of one. */
  private static final int CLOCK_EVERY = 15;

  private final CelLimits limits;
  private final long deadline;
  private long cost;
  private int steps;
  private String crossed;

  CelBudget(CelLimits limits) {
    this.limits = limits;
    this.deadline = System.nanoTime() + limits.timeoutMs() * 1_000_000L;
  }

  @Override
  public void callback(CelExpr expr, Object result) {
    if (crossed != null) {
      throw new Exceeded(crossed);
    }
    cost += expr.getKind() == CelExpr.ExprKind.Kind.CALL ? 1 + size(expr, result) : 1;
    if (cost > limits.maxCost()) {
      crossed = "costs more than " + CelLimits.MAX_COST_CONFIG + "=" + limits.maxCost()
          + " (a macro nested over lists, or a value built up again and again?)";
    } else if ((++steps & CLOCK_EVERY) == 0 && System.nanoTime() - deadline > 0) {
      crossed = "ran longer than " + CelLimits.TIMEOUT_CONFIG + "=" + limits.timeoutMs();
    }
    if (crossed != null) {
      throw new Exceeded(crossed);
    }
  }

  /**
   * What a call's result costs beyond 1: its size; a variant made by {@code variant(...)} from its buffers also
   * the length of its metadata, which it brings in (a variant found within another shares its metadata).
   */
  private static long size(CelExpr call, Object result) {
    if (result instanceof Variant variant && Variants.VARIANT_FUNCTION.equals(call.call().function())) {
      return variant.encodedSize() + variant.metadataLength();
    }
    return size(result);
  }

  private static long size(Object result) {
    if (result instanceof CharSequence text) {
      return text.length();
    }
    if (result instanceof Collection<?> elements) {
      return elements.size();
    }
    if (result instanceof Map<?, ?> entries) {
      return entries.size();
    }
    if (result instanceof CelByteString bytes) {
      return bytes.size();
    }
    if (result instanceof ByteString bytes) {
      return bytes.size();
    }
    if (result instanceof Variant variant) {
      return variant.encodedSize();
    }
    return 0;
  }

  /** The bound the run crossed, or null. */
  String crossed() {
    return crossed;
  }

  /** Thrown into CEL's evaluator when a bound is crossed. */
  static final class Exceeded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Exceeded(String message) {
      super(message, null, false, false);
    }
  }
}
