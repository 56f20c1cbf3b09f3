package io.kavro.serde.subject;

import io.kavro.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.config.ConfigException;

/** Resolves a configured strategy class name, accepting Confluent's class names as aliases. */
public final class SubjectNameStrategies {
  private static final String CONFLUENT_PACKAGE = "io.confluent.kafka.serializers.subject.";
  private static final String CONFLUENT_INTERFACE = CONFLUENT_PACKAGE + "strategy.SubjectNameStrategy";
  private static final Map<String, Class<? extends SubjectNameStrategy>> BUILT_IN = Map.of(
      "TopicNameStrategy", TopicNameStrategy.class,
      "RecordNameStrategy", RecordNameStrategy.class,
      "TopicRecordNameStrategy", TopicRecordNameStrategy.class,
      "AssociatedNameStrategy", AssociatedNameStrategy.class);

  private SubjectNameStrategies() {}

  /**
   * A new instance of the configured strategy, configured with {@code configs} when it is
   * {@link Configurable}.
   *
   * @param key the configuration key, for the error message
   * @param classOrName a {@code Class} implementing {@link SubjectNameStrategy}, or its name, or one of
   *     Confluent's built-in names ({@code io.confluent.kafka.serializers.subject.*}), or a built-in simple name
   * @param configs the serde's configuration, passed to a {@link Configurable} strategy
   * @throws ConfigException naming the key and value when the class is unknown or of the wrong type
   */
  public static SubjectNameStrategy create(String key, Object classOrName, Map<String, ?> configs) {
    Class<?> type = classOrName instanceof Class<?> given ? given : type(key, classOrName.toString().trim());
    return ConfiguredInstances.create(key, type, SubjectNameStrategy.class, configs);
  }

  /**
   * Gives {@code strategy} the serde's registry client when it asks the registry ({@link RegistryAwareStrategy}):
   * the serde calls this once, after making the strategy and its client, before any record.
   */
  public static void useRegistry(SubjectNameStrategy strategy, SchemaRegistryClient client) {
    if (strategy instanceof RegistryAwareStrategy aware) {
      aware.useRegistry(client);
    }
  }

  private static Class<?> type(String key, String name) {
    String simple = name.startsWith(CONFLUENT_PACKAGE) ? name.substring(CONFLUENT_PACKAGE.length()) : name;
    Class<? extends SubjectNameStrategy> builtIn = BUILT_IN.get(simple);
    if (builtIn != null) {
      return builtIn;
    }
    for (Class<? extends SubjectNameStrategy> own : BUILT_IN.values()) {
      // Kavro's own by their full names, whatever the thread's context class loader sees (a Connect transform
      // is configured with its connector's loader, which may not see Kavro's plugin).
      if (own.getName().equals(name)) {
        return own;
      }
    }
    return ConfiguredInstances.load(key, name, CONFLUENT_INTERFACE, SubjectNameStrategy.class);
  }
}
