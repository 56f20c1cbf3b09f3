package io.kavro.rules.cel;

import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Confluent's {@code cel.regex.engine}, read once at configure. Kavro's CEL {@code matches()} always runs RE2/J
 * (linear time, as cel-java's standard library does): {@code re2} and no value pass in silence; {@code pcre},
 * Confluent's default ({@code CelUtils.RegexEngine.DEFAULT}), is warned of, since RE2 has no lookahead, lookbehind,
 * backreferences, possessive or atomic groups; any other value is refused, as Confluent refuses it.
 */
final class CelRegexEngine {
  /** Confluent's key. */
  static final String CONFIG = "cel.regex.engine";
  private static final Logger log = LoggerFactory.getLogger(CelRegexEngine.class);

  private CelRegexEngine() {}

  /**
   * Checks {@code configs}' value of {@link #CONFIG}: a WARN for {@code pcre}.
   *
   * @throws ConfigException naming the key, for a value that is neither {@code pcre} nor {@code re2}
   */
  static void check(Map<String, ?> configs) {
    Object value = configs.get(CONFIG);
    String engine = value == null ? "" : value.toString().trim().toLowerCase(Locale.ROOT);
    if (engine.isEmpty() || engine.equals("re2")) {
      return;
    }
    if (!engine.equals("pcre")) {
      throw new ConfigException(CONFIG, value, "expected 'pcre' or 're2'");
    }
    log.warn("Confluent's setting '" + CONFIG + "=" + value + "' is ignored: Kavro's CEL matches() runs RE2 (as "
        + CONFIG + "=re2 does): a regex with lookahead, lookbehind, backreferences, possessive or atomic groups "
        + "fails the rule");
  }
}
