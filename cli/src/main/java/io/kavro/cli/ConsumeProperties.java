package io.kavro.cli;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.serde.AvroSerdeConfig;
import io.kavro.serde.ConfigKeyCheck;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The {@code --property} keys {@code consume} takes: the printing properties of Confluent's console consumer
 * ({@link PrintSettings}), the Kafka consumer's settings and Kavro's serde and registry settings. Any other key is
 * a usage error that names it, and the key it is close to, where Confluent's tool ignores it silently.
 */
final class ConsumeProperties {
  /** Prefixes of keys whose rest is free: the deserializers' settings, rules, registry headers and TLS. */
  private static final List<String> PREFIXES = List.of(PrintSettings.PREFIXES.get(0), PrintSettings.PREFIXES.get(1),
      AvroSerdeConfig.RULE_EXECUTORS_CONFIG + ".", AvroSerdeConfig.RULE_ACTIONS_CONFIG + ".",
      RegistryConfig.REQUEST_HEADER_PREFIX, RegistryConfig.SSL_PREFIX);

  private static final Set<String> KNOWN = known();

  private ConsumeProperties() {}

  private static Set<String> known() {
    Set<String> names = new TreeSet<>(PrintSettings.KEYS);
    names.addAll(ConsumerConfig.configNames());
    names.addAll(AvroSerdeConfig.configDef().names());
    return Set.copyOf(names);
  }

  /**
   * Checks the keys given with {@code --property}.
   *
   * @throws CliException (usage, exit 2) naming the first unknown key and the one it is close to, or what
   *     {@code --property} takes
   */
  static void check(Map<String, String> properties) {
    for (String name : properties.keySet()) {
      if (KNOWN.contains(name) || PREFIXES.stream().anyMatch(p -> name.startsWith(p) && name.length() > p.length())) {
        continue;
      }
      String hint = ConfigKeyCheck.nearest(name, KNOWN).map(known -> "did you mean " + known + "?")
          .orElse("consume takes Confluent's " + String.join(", ", PrintSettings.KEYS) + ", the Kafka consumer's "
              + "settings and Kavro's (docs/configuration.md); other settings go in --command-config");
      throw new CliException("unknown --property '" + name + "': " + hint, 2);
    }
  }

  /** The configuration without the printing properties, for the Kafka consumer and the deserializers. */
  static Map<String, Object> clientConfig(Map<String, Object> config) {
    Map<String, Object> client = new HashMap<>(config);
    client.keySet().removeIf(name -> PrintSettings.KEYS.contains(name)
        || PrintSettings.PREFIXES.stream().anyMatch(name::startsWith));
    return client;
  }
}
