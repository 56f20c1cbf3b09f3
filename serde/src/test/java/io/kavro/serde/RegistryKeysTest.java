package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

/**
 * Issue 34, item 4: the ConfigDef made from the registry client's table checks what the table declares (the auth
 * sources' values, the bounds) with the client's own messages, so that Kafka and Connect's validation refuse
 * what the client would refuse, key by key.
 */
class RegistryKeysTest {
  private final ConfigDef def = AvroSerdeConfig.configDef();

  @Test
  void authSources_areRefusedByTheConfigDef_namingTheAllowedValues() {
    assertThatThrownBy(() -> def.parse(Map.of("basic.auth.credentials.source", "TOKEN")))
        .isInstanceOf(ConfigException.class).hasMessage("Invalid value TOKEN for configuration "
            + "basic.auth.credentials.source: must be one of [URL, USER_INFO, SASL_INHERIT]");
    assertThatThrownBy(() -> def.parse(Map.of("bearer.auth.credentials.source", "SASL_OAUTHBEARER_INHERIT")))
        .isInstanceOf(ConfigException.class).hasMessage("Invalid value SASL_OAUTHBEARER_INHERIT for configuration "
            + "bearer.auth.credentials.source: Confluent's SASL_OAUTHBEARER_INHERIT is not supported by Kavro; "
            + "use one of [, STATIC_TOKEN, OAUTHBEARER, CUSTOM]");
    assertThat(def.parse(Map.of("basic.auth.credentials.source", "user_info")))
        .containsEntry("basic.auth.credentials.source", "user_info");
  }

  @Test
  void aBound_isRefusedByTheConfigDef() {
    assertThatThrownBy(() -> def.parse(Map.of("max.retries", "-1")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Invalid value -1 for configuration max.retries: Value must be at least 0");
    assertThatThrownBy(() -> def.parse(Map.of("http.connect.timeout.ms", "0")))
        .isInstanceOf(ConfigException.class)
        .hasMessage("Invalid value 0 for configuration http.connect.timeout.ms: Value must be at least 1");
  }

  /** Connect's validation reports each wrong key on its own, as its configuration UI shows it. */
  @Test
  void validate_namesEachWrongKey() {
    Map<String, List<String>> errors = new java.util.TreeMap<>();
    for (ConfigValue value : def.validate(Map.of("schema.registry.url", "http://r:8081",
        "bearer.auth.credentials.source", "nope", "missing.cache.size", "0"))) {
      if (!value.errorMessages().isEmpty()) {
        errors.put(value.name(), value.errorMessages());
      }
    }

    assertThat(errors).isEqualTo(Map.of(
        "bearer.auth.credentials.source", List.of("Invalid value nope for configuration "
            + "bearer.auth.credentials.source: must be one of [, STATIC_TOKEN, OAUTHBEARER, CUSTOM]"),
        "missing.cache.size", List.of("Invalid value 0 for configuration missing.cache.size: Value must be at "
            + "least 1")));
  }

  @Test
  void theRule_isShownAsKafkasValidatorsShowIt() {
    assertThat(def.configKeys().get("basic.auth.credentials.source").validator)
        .hasToString("(case insensitive) [URL, USER_INFO, SASL_INHERIT]");
    assertThat(def.configKeys().get("max.retries").validator).hasToString("[0,...]");
    assertThat(def.configKeys().get("proxy.port").validator).isNull();
  }
}
