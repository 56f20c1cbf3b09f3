package io.kavro.serde.subject;

import java.util.Map;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.config.ConfigException;

/**
 * Resolves a configured {@code context.name.strategy}, accepting Confluent's class name of its default
 * ({@code io.confluent.kafka.serializers.context.NullContextNameStrategy}) as an alias of Kavro's.
 */
public final class ContextNameStrategies {
  /** Confluent's default, which Kavro's {@link NullContextNameStrategy} stands for. */
  public static final String CONFLUENT_DEFAULT = "io.confluent.kafka.serializers.context.NullContextNameStrategy";
  private static final String CONFLUENT_INTERFACE =
      "io.confluent.kafka.serializers.context.strategy.ContextNameStrategy";

  private ContextNameStrategies() {}

  /**
   * A new instance of the configured strategy, configured with {@code configs} when it is {@link Configurable}.
   *
   * @param key the configuration key, for the error message
   * @param classOrName a {@code Class} implementing {@link ContextNameStrategy}, or its name, or Confluent's name of
   *     its default, or the simple name {@code NullContextNameStrategy}
   * @param configs the serde's configuration, passed to a {@link Configurable} strategy
   * @throws ConfigException naming the key and value when the class is unknown, of the wrong type (Confluent's
   *     interface among them: Kavro's is {@link ContextNameStrategy}) or cannot be made
   */
  public static ContextNameStrategy create(String key, Object classOrName, Map<String, ?> configs) {
    Class<?> type = classOrName instanceof Class<?> given ? given : type(key, classOrName.toString().trim());
    return ConfiguredInstances.create(key, type, ContextNameStrategy.class, configs);
  }

  private static Class<?> type(String key, String name) {
    if (name.equals(CONFLUENT_DEFAULT) || name.equals(NullContextNameStrategy.class.getSimpleName())
        || name.equals(NullContextNameStrategy.class.getName())) {
      return NullContextNameStrategy.class;
    }
    return ConfiguredInstances.load(key, name, CONFLUENT_INTERFACE, ContextNameStrategy.class);
  }
}
