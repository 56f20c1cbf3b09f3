package io.kavro.rules.encryption;

import io.kavro.registry.contract.Kek;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.types.Password;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings a {@link KmsDriver} is given, and how a driver reads one. The settings hold secrets (credentials,
 * tokens): never printed.
 */
public final class KmsSettings {
  private static final Logger LOG = LoggerFactory.getLogger(KmsSettings.class);

  private KmsSettings() {}

  /**
   * The settings of a KEK's client: the executor's (or {@code kavro dek rewrap}'s) with the KEK's {@code kmsProps}
   * over them, except the driver's {@link KmsDriver#executorOnlySettings()}, which a KEK's creator may not set (an
   * endpoint that would receive the executor's credentials): those are ignored, with a warning naming the KEK and
   * the setting, never its value.
   *
   * @return an unmodifiable map
   */
  static Map<String, Object> merged(Map<String, ?> configs, Kek kek, KmsDriver driver) {
    Set<String> executorOnly = driver.executorOnlySettings();
    Map<String, Object> merged = new HashMap<>(configs);
    kek.kmsProps().forEach((name, value) -> {
      if (executorOnly.contains(name)) {
        LOG.warn("KEK '{}' sets {} in its kmsProps, which only the executor's settings may set: ignored",
            kek.name(), name);
      } else {
        merged.put(name, value);
      }
    });
    return Collections.unmodifiableMap(merged);
  }

  /**
   * A setting's text, trimmed; null when it is unset or blank. A Kafka {@link Password} (a {@code PASSWORD} setting,
   * a config provider's value) gives its value, not its {@code [hidden]} text.
   */
  public static String text(Map<String, ?> configs, String name) {
    return text(configs.get(name));
  }

  /**
   * A setting's or an environment variable's value as text, trimmed; null when it is null or blank. A Kafka
   * {@link Password} gives its value, not its {@code [hidden]} text.
   */
  public static String text(Object value) {
    String text = value instanceof Password password ? password.value() : value == null ? null : value.toString();
    return text == null || text.isBlank() ? null : text.trim();
  }
}
