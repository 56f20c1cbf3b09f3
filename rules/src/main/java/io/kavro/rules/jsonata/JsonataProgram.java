package io.kavro.rules.jsonata;

import com.dashjoin.jsonata.JException;
import com.dashjoin.jsonata.Jsonata;
import java.util.List;

/**
 * A JSONata expression parsed for one thread, run within its bounds and with its regular expressions on RE2.
 *
 * <p>Its evaluations run with a frame that holds the checks of the {@link EvaluationBounds}, the RE2 forms of the
 * regex functions ({@link RegexFunctions}) and a bounded {@code $eval}: the engine copies that frame's bindings
 * into each evaluation's own, where they come before the engine's built-ins. (Functions registered on the parsed
 * expression would not do: the engine repoints its environment at the frames it evaluates.) An expression that
 * {@code $eval} parses gets its regexes on RE2 too, and runs within the same bounds (the same clock and depth).
 * Not thread-safe: the engine keeps per-evaluation state in the parsed expression, so each thread has its own.
 */
final class JsonataProgram {
  private final Jsonata expression;
  private final EvaluationBounds bounds;
  private final Jsonata.Frame frame;

  private JsonataProgram(Jsonata expression, long timeoutMs, int maxDepth) {
    this.expression = expression;
    this.bounds = new EvaluationBounds(timeoutMs, maxDepth);
    this.frame = new Jsonata.Frame(null);
    RegexFunctions.bind(frame);
    frame.bind("eval", new Jsonata.JFunction(this::eval, "<sx?:x>"));
  }

  /**
   * Parses {@code expr}.
   *
   * @throws JException when it does not parse
   * @throws IllegalArgumentException when one of its regular expressions cannot run on RE2, quoting it
   * @throws StackOverflowError when it nests deeper than the thread's stack; the caller reports it
   */
  static JsonataProgram compile(String expr, long timeoutMs, int maxDepth) {
    return new JsonataProgram(parse(expr), timeoutMs, maxDepth);
  }

  private static Jsonata parse(String expr) {
    Jsonata parsed = Jsonata.jsonata(expr);
    RegexLiterals.useRe2(parsed);
    return parsed;
  }

  /**
   * Evaluates the expression on {@code input} (JSON as maps, lists and scalars).
   *
   * @throws BoundCrossedException when the evaluation crossed a bound, however the engine wrapped the error
   * @throws RuntimeException the engine's own failure ({@link JException} and others)
   */
  Object evaluate(Object input) {
    bounds.start(frame);
    try {
      return expression.evaluate(input, frame);
    } catch (RuntimeException e) {
      String crossed = bounds.crossed(e);
      if (crossed != null) {
        throw new BoundCrossedException(crossed, e);
      }
      throw e;
    }
  }

  /** {@code $eval(expr, context)}: parsed as the rule's own expression was, run within this evaluation's bounds. */
  private Object eval(Object input, List<?> args) {
    Object expr = args.isEmpty() ? null : args.get(0);
    if (expr == null) {
      return null;
    }
    Object context = args.size() > 1 && args.get(1) != null ? args.get(1) : input;
    Jsonata parsed;
    try {
      parsed = parse(expr.toString());
    } catch (JException | IllegalArgumentException e) {
      throw new JException(e, "D3120", -1, e.getMessage(), null);
    }
    return parsed.evaluate(context, frame);
  }

  /** The evaluation crossed its time or depth bound; the message says which. */
  static final class BoundCrossedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BoundCrossedException(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
