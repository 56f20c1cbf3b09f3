package io.kavro.registry;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Issue 24, item 3: the table of keys is the one description of the registry client's keys. It names every key
 * the client reads, once, and its defaults are the client's: setting a key to its documented default changes
 * nothing.
 */
class RegistryKeyTest {
  /** Keys the client reads that are not its own: the Kafka client's JAAS configuration. */
  private static final Set<String> NOT_IN_TABLE = Set.of(RegistryConfig.SASL_JAAS_CONFIG);

  @Test
  void everyKeyTheClientNames_isInTheTable_once() throws IllegalAccessException {
    List<String> names = RegistryKey.ALL.stream().map(RegistryKey::name).toList();
    Set<String> constants = new java.util.TreeSet<>();
    for (Field field : RegistryConfig.class.getFields()) {
      if (Modifier.isStatic(field.getModifiers()) && field.getName().endsWith("_CONFIG")) {
        constants.add((String) field.get(null));
      }
    }
    constants.removeAll(NOT_IN_TABLE);

    assertThat(names).doesNotHaveDuplicates();
    assertThat(Set.copyOf(names)).isEqualTo(constants);
  }

  @Test
  void eachDocumentedDefault_isTheClientsDefault() {
    Map<String, Object> base = Map.of(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, "http://registry:8081");
    RegistryConfig defaults = RegistryConfig.from(base);
    for (RegistryKey key : RegistryKey.ALL) {
      if (key.defaultValue() == null || key.name().equals(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG)) {
        continue;
      }
      Map<String, Object> set = new HashMap<>(base);
      set.put(key.name(), key.defaultValue());
      assertThat(RegistryConfig.from(set)).as(key.name() + "=" + key.defaultValue()).isEqualTo(defaults);
      set.put(key.name(), key.defaultValue().toString());
      assertThat(RegistryConfig.from(set)).as(key.name() + "=\"" + key.defaultValue() + "\"").isEqualTo(defaults);
    }
  }

  @Test
  void aChoice_takesItsAllowedValues_inAnyCase() {
    for (RegistryKey key : RegistryKey.ALL) {
      for (String allowed : key.allowed()) {
        Map<String, Object> set = new HashMap<>(Map.of(RegistryConfig.SCHEMA_REGISTRY_URL_CONFIG, "https://r:1"));
        set.put(key.name(), allowed.toLowerCase(java.util.Locale.ROOT));
        RegistryConfig.from(set);
      }
    }
    assertThat(RegistryKey.ALL.stream().filter(k -> !k.allowed().isEmpty()).map(RegistryKey::name)
        .collect(Collectors.toSet())).contains(RegistryConfig.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG);
  }
}
