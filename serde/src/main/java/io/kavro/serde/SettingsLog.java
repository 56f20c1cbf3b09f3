package io.kavro.serde;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Kavro plugin (serializer, deserializer, Streams serde, Connect converter) logs on each configure, to the
 * logger {@code io.kavro.serde.AvroSerdeConfig}: a WARN for each key that looks like a mistyped Kavro key
 * ({@link ConfigKeyCheck}), then one INFO block with every Kavro setting and the value in effect, defaults
 * included and secrets hidden, as Kafka's and Confluent's "values:" block.
 */
public final class SettingsLog {
  private static final Logger log = LoggerFactory.getLogger(AvroSerdeConfig.class);

  private SettingsLog() {}

  /** Logs a WARN for each suspect key of {@code keys}; before parsing, so that they show when parsing fails. */
  public static void warnSuspectKeys(ConfigKeyCheck check, Collection<String> keys) {
    check.warnings(keys).forEach(log::warn);
  }

  /** Logs the INFO block of {@code shown}: each key with its value as text, secrets already hidden. */
  public static void logSettings(String plugin, boolean isKey, Map<String, String> shown) {
    if (log.isInfoEnabled()) {
      log.info(block(plugin, isKey, shown));
    }
  }

  /**
   * Warns of suspect keys, parses {@code configs} once, and logs the settings in effect: a serializer's,
   * deserializer's or Streams serde's configure.
   *
   * @param role whether the plugin writes, reads, or both: Confluent's keys of the other side pass
   */
  static AvroSerdeConfig configure(String plugin, Map<String, ?> configs, boolean isKey, ConfluentKeys.Side role) {
    warnSuspectKeys(ConfigKeyCheck.SERDE, configs.keySet());
    AvroSerdeConfig config = new AvroSerdeConfig(configs, isKey, role);
    logSettings(plugin, isKey, config.shownValues());
    return config;
  }

  /** {@code KafkaAvroDeserializer settings (value side):}, then a tab-indented {@code key = value} per key, sorted. */
  static String block(String plugin, boolean isKey, Map<String, String> shown) {
    StringBuilder text = new StringBuilder(plugin).append(" settings (").append(isKey ? "key" : "value")
        .append(" side):");
    new TreeMap<>(shown).forEach((key, value) -> text.append("\n\t").append(key).append(" = ").append(value));
    return text.toString();
  }
}
