package io.kavro.cli;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * A Kafka {@code Deserializer} named by class in a property ({@code key.deserializer}, {@code headers.deserializer}),
 * configured with the properties under its name and a dot, the prefix removed, as Kafka's and Confluent's console
 * formatters configure theirs.
 */
final class NamedDeserializer {
  private NamedDeserializer() {}

  /**
   * The deserializer {@code property} names in {@code config}, configured; empty when it names none.
   *
   * @throws CliException (usage, exit 2) naming the property and the class when it cannot be made
   */
  static Optional<Deserializer<?>> load(String property, Map<String, ?> config, boolean isKey) {
    Object name = config.get(property);
    if (name == null) {
      return Optional.empty();
    }
    Class<?> type;
    try {
      type = Class.forName(name.toString().trim());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new CliException(property + " " + name + " is not on Kavro's class path"
          + (property.equals(PrintSettings.KEY_DESERIALIZER) && name.toString().startsWith("io.confluent.")
              ? " (leave it out: keys framed as Avro print decoded, as with Confluent's Avro deserializer)" : ""), 2);
    }
    if (!Deserializer.class.isAssignableFrom(type)) {
      throw new CliException(property + " " + name + " is not a " + Deserializer.class.getName(), 2);
    }
    Deserializer<?> deserializer;
    try {
      deserializer = (Deserializer<?>) type.getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new CliException(property + " " + name + " cannot be made with a public no-argument constructor: "
          + e, 2);
    }
    String prefix = property + ".";
    Map<String, Object> own = new HashMap<>();
    config.forEach((key, value) -> {
      if (key.startsWith(prefix) && key.length() > prefix.length()) {
        own.put(key.substring(prefix.length()), value);
      }
    });
    deserializer.configure(own, isKey);
    return Optional.of(deserializer);
  }
}
