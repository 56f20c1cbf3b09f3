package io.kavro.serde;


import io.kavro.registry.RegistryConfig;
import io.kavro.registry.RegistryKey;
import io.kavro.registry.RegistryConfigException;
import io.kavro.registry.Secret;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The registry client's keys as Kafka sees them: their {@link ConfigDef} entries, made from the client's own
 * table ({@link RegistryKey#ALL}), and the one conversion of their parsed values into the client's immutable
 * {@link RegistryConfig}.
 */
final class RegistryKeys {
  private RegistryKeys() {}

  /** Adds the registry client's keys to {@code def}, from the client's own table of them. */
  static ConfigDef define(ConfigDef def) {
    for (RegistryKey key : RegistryKey.ALL) {
      ConfigDef.Validator validator = key.allowed().isEmpty() ? null
          : ConfigDef.CaseInsensitiveValidString.in(key.allowed().toArray(String[]::new));
      def.define(key.name(), Type.valueOf(key.type().name()), key.defaultValue(), validator,
          Importance.valueOf(key.importance().name()), key.doc());
    }
    return def;
  }

  /**
   * The client's configuration from values that {@link #define}'s entries parsed, once, and the keys of
   * {@code originals} that it does not define.
   *
   * @throws ConfigException naming the key of a value the client refuses
   */
  static RegistryConfig registryConfig(AbstractConfig parsed, Map<String, ?> originals) {
    // The originals too: request.header.*, sasl.jaas.config and a custom provider's own keys are not defined,
    // and a Class stays a Class.
    Map<String, Object> values = new HashMap<>();
    originals.forEach((key, value) -> values.put(key, secretOrValue(value)));
    for (String key : define(new ConfigDef()).names()) {
      Object value = parsed.values().get(key);
      if (value == null) {
        values.remove(key);
      } else if (!(values.get(key) instanceof Class<?>)) {
        values.put(key, secretOrValue(value));
      }
    }
    try {
      return RegistryConfig.from(values);
    } catch (RegistryConfigException e) {
      throw asConfigException(e);
    }
  }

  private static Object secretOrValue(Object value) {
    return value instanceof Password password ? Secret.of(password.value()) : value;
  }

  /** The registry client's configuration error as Kafka's, with the same message. */
  static ConfigException asConfigException(RegistryConfigException e) {
    ConfigException config = new ConfigException(e.getMessage());
    config.initCause(e);
    return config;
  }
}
