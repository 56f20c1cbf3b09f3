package io.kavro.serde;

import java.util.List;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Runs a property over generated cases, in plain JUnit: case {@code i} comes from seed {@code first + i}, so a
 * failure names the one seed that makes it again. A failing case is shrunk by structure (the generator's own
 * shrinker: fields, branches and items dropped) while it still fails, and the smallest is reported.
 *
 * <p>{@code -Dkavro.property.tries=N} sets the tries of every property (a million-case run, say);
 * {@code -Dkavro.property.seed=S} the first seed, {@code random} for a new one each run. The default seed is
 * fixed, so that CI runs the same cases every time and a red run is reproducible as it is.
 */
public final class Property {
  private static final long DEFAULT_SEED = 20_261_201L;
  private static final int MAX_SHRINK_STEPS = 400;

  private Property() {}

  /** What must hold for a case; it may throw anything, which counts as a failure. */
  @FunctionalInterface
  public interface Check<C> {
    void verify(C c) throws Exception;
  }

  /** The tries of a property whose own default is {@code fallback}. */
  public static int tries(int fallback) {
    return Integer.getInteger("kavro.property.tries", fallback);
  }

  private static long firstSeed() {
    String seed = System.getProperty("kavro.property.seed");
    if (seed == null || seed.isBlank()) {
      return DEFAULT_SEED;
    }
    return seed.equals("random") ? new java.util.Random().nextLong() : Long.parseLong(seed);
  }

  /** {@code check} holds for {@code tries} cases; no shrinking. */
  public static <C> void forAll(String name, int tries, LongFunction<C> generate, Check<C> check) {
    forAll(name, tries, generate, c -> List.of(), check);
  }

  /**
   * {@code check} holds for {@code tries} generated cases; a failing one is shrunk with {@code smaller}, which
   * gives the candidates one step smaller than a case, and the smallest that still fails is reported.
   */
  public static <C> void forAll(String name, int tries, LongFunction<C> generate,
      Function<C, List<C>> smaller, Check<C> check) {
    long first = firstSeed();
    for (int i = 0; i < tries; i++) {
      long seed = first + i;
      C generated = generate.apply(seed);
      Throwable failure = failure(check, generated);
      if (failure == null) {
        continue;
      }
      C smallest = generated;
      int steps = 0;
      boolean shrunk = true;
      while (shrunk && steps < MAX_SHRINK_STEPS) {
        shrunk = false;
        for (C candidate : smaller.apply(smallest)) {
          steps++;
          Throwable again = failure(check, candidate);
          if (again != null) {
            smallest = candidate;
            failure = again;
            shrunk = true;
            break;
          }
          if (steps >= MAX_SHRINK_STEPS) {
            break;
          }
        }
      }
      throw new AssertionError("property " + name + " failed at try " + (i + 1) + " of " + tries + ", seed " + seed
          + " (again: -Dkavro.property.seed=" + seed + " -Dkavro.property.tries=1); smallest case after " + steps
          + " shrink step(s):\n" + smallest + "\n" + failure.getMessage(), failure);
    }
  }

  private static <C> Throwable failure(Check<C> check, C c) {
    try {
      check.verify(c);
      return null;
    } catch (AssertionError | Exception | StackOverflowError e) {
      return e;
    }
  }
}
