package io.kavro.rules.cel;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * The bounds of a CEL or CEL_FIELD rule's run on one message, read once from the executor's settings.
 *
 * <ul>
 *   <li>{@code cel.max.cost} ({@value #DEFAULT_MAX_COST}): the cost of the run, counted as CEL's evaluator goes:
 *       each sub-expression evaluated costs 1, and a function or operator whose result is a string, bytes, a list
 *       or a map also costs that result's size (characters, bytes, elements), so that a macro nested over lists
 *       or a string doubled again and again is stopped early;</li>
 *   <li>{@code cel.timeout.ms} ({@value #DEFAULT_TIMEOUT_MS}): its time.</li>
 * </ul>
 *
 * @param maxCost the cost bound
 * @param timeoutMs the time bound, in milliseconds
 */
record CelLimits(long maxCost, long timeoutMs) {
  /** The setting of the cost bound. */
  static final String MAX_COST_CONFIG = "cel.max.cost";
  /** The setting of the time bound. */
  static final String TIMEOUT_CONFIG = "cel.timeout.ms";
  static final long DEFAULT_MAX_COST = 10_000_000L;
  static final long DEFAULT_TIMEOUT_MS = 5_000L;
  /** The bounds when nothing is set. */
  static final CelLimits DEFAULTS = new CelLimits(DEFAULT_MAX_COST, DEFAULT_TIMEOUT_MS);

  /**
   * The bounds that {@code configs} set, the defaults for those they do not.
   *
   * @throws ConfigException when a setting is not a positive whole number
   */
  static CelLimits from(Map<String, ?> configs) {
    return new CelLimits(positive(configs, MAX_COST_CONFIG, DEFAULT_MAX_COST),
        positive(configs, TIMEOUT_CONFIG, DEFAULT_TIMEOUT_MS));
  }

  private static long positive(Map<String, ?> configs, String key, long fallback) {
    Object value = configs.get(key);
    if (value == null) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.toString().trim());
      if (parsed > 0 && parsed <= Long.MAX_VALUE / 1_000_000L) {
        return parsed;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new ConfigException(key, value, "must be a positive whole number");
  }

  /** A budget for one run, its clock started now. */
  CelBudget start() {
    return new CelBudget(this);
  }
}
