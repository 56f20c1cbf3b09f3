package io.kavro.serde.subject;

import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.utils.Utils;

/** Resolves a configured strategy class name, accepting Confluent's class names as aliases. */
public final class SubjectNameStrategies {
  private static final String CONFLUENT_PACKAGE = "io.confluent.kafka.serializers.subject.";
  private static final Map<String, Class<? extends SubjectNameStrategy>> BUILT_IN = Map.of(
      "TopicNameStrategy", TopicNameStrategy.class,
      "RecordNameStrategy", RecordNameStrategy.class,
      "TopicRecordNameStrategy", TopicRecordNameStrategy.class);

  private SubjectNameStrategies() {}

  /**
   * A new instance of the named strategy.
   *
   * @param key the configuration key, for the error message
   * @param className a class implementing {@link SubjectNameStrategy}, one of Confluent's built-in names, or
   *     a built-in simple name
   * @throws ConfigException naming the key and value when the class is unknown or of the wrong type
   */
  public static SubjectNameStrategy create(String key, String className) {
    String name = className.trim();
    String simple = name.startsWith(CONFLUENT_PACKAGE) ? name.substring(CONFLUENT_PACKAGE.length()) : name;
    Class<? extends SubjectNameStrategy> builtIn = BUILT_IN.get(simple);
    if (builtIn != null) {
      return Utils.newInstance(builtIn);
    }
    Class<?> type;
    try {
      type = Class.forName(name, true, Utils.getContextOrKafkaClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ConfigException(key, className, "class not found");
    }
    if (!SubjectNameStrategy.class.isAssignableFrom(type)) {
      throw new ConfigException(key, className, "does not implement " + SubjectNameStrategy.class.getName());
    }
    try {
      return (SubjectNameStrategy) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new ConfigException(key, className, "cannot be instantiated: " + e);
    }
  }
}
