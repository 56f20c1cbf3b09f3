package io.kavro.serde;


import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryKey;
import io.kavro.registry.config.RegistryConfigException;
import io.kavro.registry.config.Secret;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The registry client's keys as Kafka sees them: their {@link ConfigDef} entries, made from the client's own
 * table ({@link RegistryKey#ALL}), and the one parse of their values into the client's immutable
 * {@link RegistryConfig}.
 */
final class RegistryKeys {
  private RegistryKeys() {}

  /** Adds the registry client's keys to {@code def}, from the client's own table of them. */
  static ConfigDef define(ConfigDef def) {
    for (RegistryKey key : RegistryKey.ALL) {
      ConfigDef.Validator validator = key.allowed().isEmpty() && key.atLeast() == null ? null : new Check(key);
      def.define(key.name(), Type.valueOf(key.type().name()), key.defaultValue(), validator,
          Importance.valueOf(key.importance().name()), key.doc());
    }
    return def;
  }

  /** The table's own check of a key's allowed values and bound, with the client's messages, as Kafka's. */
  private record Check(RegistryKey key) implements ConfigDef.Validator {
    @Override
    public void ensureValid(String name, Object value) {
      try {
        key.check(value);
      } catch (RegistryConfigException e) {
        throw asConfigException(e);
      }
    }

    /** As Kafka's {@code CaseInsensitiveValidString} and {@code Range.atLeast} show their rule. */
    @Override
    public String toString() {
      return key.allowed().isEmpty() ? "[" + key.atLeast() + ",...]"
          : "(case insensitive) [" + String.join(", ", key.allowed()) + "]";
    }
  }

  /**
   * The client's configuration, parsed once, by the client, from the application's own values: a Kafka
   * {@code Password} becomes a {@link Secret}, a {@code Class} stays a {@code Class}, and keys the table does not
   * hold ({@code request.header.*}, {@code sasl.jaas.config}, a custom provider's own) are read as they are.
   *
   * @throws ConfigException naming the key of a value the client refuses
   */
  static RegistryConfig registryConfig(Map<String, ?> originals) {
    Map<String, Object> values = new HashMap<>();
    originals.forEach((key, value) -> values.put(key, secretOrValue(value)));
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
