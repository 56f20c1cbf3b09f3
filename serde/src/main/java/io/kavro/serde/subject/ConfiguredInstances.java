package io.kavro.serde.subject;

import java.util.Map;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;

/**
 * Makes the instance a setting names ({@code key.subject.name.strategy}, {@code context.name.strategy}): one rule
 * for every kind of strategy, each error a {@link ConfigException} naming the key and the class.
 */
final class ConfiguredInstances {
  private ConfiguredInstances() {}

  /**
   * A new {@code kind} of class {@code type}, configured with {@code configs} when it is {@link Configurable}.
   *
   * @throws ConfigException when {@code type} is not a {@code kind} (a class written for Confluent's serde
   *     implements Confluent's interface) or cannot be made
   */
  static <T> T create(String key, Class<?> type, Class<T> kind, Map<String, ?> configs) {
    if (!kind.isAssignableFrom(type)) {
      throw new ConfigException(key, type.getName(), "does not implement " + kind.getName() + " (a class written "
          + "for Confluent's serde implements Confluent's interface: implement Kavro's, the same method, instead)");
    }
    T made;
    try {
      made = kind.cast(type.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new ConfigException(key, type.getName(), "cannot be instantiated: " + e);
    }
    if (made instanceof Configurable configurable) {
      configurable.configure(configs);
    }
    return made;
  }

  /**
   * The class named {@code name}, from the thread's context class loader (else Kafka's).
   *
   * @param confluentInterface Confluent's interface that a class written for its serde implements, for the hint
   *     when it cannot be loaded (that interface is not on Kavro's class path)
   * @throws ConfigException when it is not found or cannot be loaded
   */
  static Class<?> load(String key, String name, String confluentInterface, Class<?> kind) {
    try {
      return Class.forName(name, true, Utils.getContextOrKafkaClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ConfigException(key, name, "class not found");
    } catch (LinkageError e) {
      throw new ConfigException(key, name, "cannot be loaded (" + e + "): a class written for Confluent's "
          + confluentInterface + " must implement " + kind.getName() + " instead (the same method)");
    }
  }
}
