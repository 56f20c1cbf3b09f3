package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.AvroSerdeConfig;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, item 4: the converter's mapping switches are one ConfigDef read once, with Confluent's keys and
 * defaults, and the Connect page of the docs lists exactly those keys with the same defaults.
 */
class ConverterConfigTest {

  @Test
  void absentKeys_takeConfluentsDefaults() {
    ConverterConfig config = new ConverterConfig(Map.of());

    assertThat(config.connectMetaData()).isTrue();
    assertThat(config.enhancedAvroSchemaSupport()).isFalse();
    assertThat(config.scrubInvalidNames()).isFalse();
    assertThat(config.ignoreDefaultForNullables()).isFalse();
    assertThat(config.generalizedSumTypeSupport()).isFalse();
    assertThat(config.flattenSingletonUnions()).isTrue();
    assertThat(config.discardTypeDocDefault()).isFalse();
    assertThat(config.allowOptionalMapKeys()).isFalse();
    assertThat(config.schemasCacheSize()).isEqualTo(1000);
  }

  @Test
  void eachKey_isReadIntoItsOwnAccessor_fromText() {
    ConverterConfig config = new ConverterConfig(Map.of("connect.meta.data", "false",
        "enhanced.avro.schema.support", "TRUE", "scrub.invalid.names", " true ", "ignore.default.for.nullables",
        "true", "generalized.sum.type.support", "true", "flatten.singleton.unions", "false",
        "discard.type.doc.default", "true", "allow.optional.map.keys", true, "schemas.cache.config", "7",
        "schema.registry.url", "http://ignored:8081"));

    assertThat(config.connectMetaData()).isFalse();
    assertThat(config.enhancedAvroSchemaSupport()).isTrue();
    assertThat(config.scrubInvalidNames()).isTrue();
    assertThat(config.ignoreDefaultForNullables()).isTrue();
    assertThat(config.generalizedSumTypeSupport()).isTrue();
    assertThat(config.flattenSingletonUnions()).isFalse();
    assertThat(config.discardTypeDocDefault()).isTrue();
    assertThat(config.allowOptionalMapKeys()).isTrue();
    assertThat(config.schemasCacheSize()).isEqualTo(7);
  }

  /** Issue 51, item 7: the converter refuses Confluent's keys that Kavro cannot honour, as the serde does. */
  @Test
  void confluentKeysKavroCannotHonour_areRefusedByTheConverter_namingTheKey() throws Exception {
    Map<String, Object> configs = Map.of("schema.registry.url", "mock://converter-confluent-keys",
        "propagate.schema.tags", "true");
    try (AvroConverter converter = new AvroConverter()) {
      assertThatThrownBy(() -> converter.configure(configs, false)).isInstanceOf(ConfigException.class)
          .hasMessageContaining("propagate.schema.tags").hasMessageContaining("Instead, ");
      converter.configure(Map.of("schema.registry.url", "mock://converter-confluent-keys",
          "propagate.schema.tags", "false"), false); // Confluent's default passes
    }
  }

  @Test
  void wrongValues_areRefused_namingTheKey() {
    assertThatThrownBy(() -> new ConverterConfig(Map.of("schemas.cache.config", "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Invalid value 0 for configuration schemas.cache.config: Value must be at least 1");
    assertThatThrownBy(() -> new ConverterConfig(Map.of("schemas.cache.config", "many")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("schemas.cache.config");
    assertThatThrownBy(() -> new ConverterConfig(Map.of("scrub.invalid.names", "yes")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("scrub.invalid.names");
  }

  @Test
  void configDef_isTheSerdesKeys_andTheMappingsOwn_freshEachTime() {
    ConfigDef def = ConverterConfig.configDef();

    assertThat(def.names()).containsAll(AvroSerdeConfig.configDef().names());
    assertThat(mappingKeys(def)).containsExactlyInAnyOrder("connect.meta.data", "enhanced.avro.schema.support",
        "scrub.invalid.names", "ignore.default.for.nullables", "generalized.sum.type.support",
        "flatten.singleton.unions", "discard.type.doc.default", "allow.optional.map.keys", "schemas.cache.config");
    assertThat(new AvroConverter().config()).isNotSameAs(def);
    def.define("x", ConfigDef.Type.STRING, ConfigDef.Importance.LOW, "changing one does not change the next");
    assertThat(ConverterConfig.configDef().names()).doesNotContain("x");
  }

  private static Set<String> mappingKeys(ConfigDef def) {
    Set<String> names = new TreeSet<>(def.names());
    names.removeAll(AvroSerdeConfig.configDef().names());
    return names;
  }
}
