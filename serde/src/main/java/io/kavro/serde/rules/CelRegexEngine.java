package io.kavro.serde.rules;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;

/**
 * Confluent's {@code cel.regex.engine}, parsed once per serde configuration and given, typed, to every CEL runner:
 * the CEL and CEL_FIELD executors and the inline validator find it under {@link #CONFIG} in the map they are
 * configured with. Kavro's CEL {@code matches()} always runs RE2/J (linear time, as cel-java's standard library
 * does), so the value only decides what is said at configure: {@code re2} and no value pass in silence,
 * {@code pcre} (Confluent's default) gets one WARN from the serde, since RE2 has no lookahead, lookbehind,
 * backreferences, possessive or atomic groups; any other value is refused, as Confluent refuses it.
 */
public enum CelRegexEngine {
  /** {@code re2}, or no value: what Kavro runs. */
  RE2,
  /** {@code pcre}: asked for, but run as RE2. */
  PCRE;

  /** Confluent's key, as given or under {@code rule.executors.<name>.param.}. */
  public static final String CONFIG = "cel.regex.engine";

  /**
   * The engine a setting asks for.
   *
   * @param key the key as given, for the message
   * @param value the value as given: null or blank is {@link #RE2}; an engine is itself
   * @throws ConfigException naming {@code key}, for a value that is neither {@code pcre} nor {@code re2}
   */
  public static CelRegexEngine parse(String key, Object value) {
    if (value instanceof CelRegexEngine engine) {
      return engine;
    }
    String text = value == null ? "" : value.toString().trim().toLowerCase(Locale.ROOT);
    return switch (text) {
      case "", "re2" -> RE2;
      case "pcre" -> PCRE;
      default -> throw new ConfigException(key, value, "expected 'pcre' or 're2'");
    };
  }

  /**
   * The engine of a CEL runner's configuration: the serde's parsed value, or, for a runner configured by hand, the
   * value as given, parsed the same way.
   *
   * @throws ConfigException as {@link #parse}
   */
  public static CelRegexEngine of(Map<String, ?> configs) {
    return parse(CONFIG, configs.get(CONFIG));
  }

  /** The WARN for {@link #PCRE}, given under {@code keys}. */
  public static String warning(Iterable<String> keys) {
    return "Confluent's setting '" + String.join("', '", keys) + "=pcre' is ignored: Kavro's CEL matches() runs RE2 "
        + "(as " + CONFIG + "=re2 does): a regex with lookahead, lookbehind, backreferences, possessive or atomic "
        + "groups fails the rule";
  }
}
