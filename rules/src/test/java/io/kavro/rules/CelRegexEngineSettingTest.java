package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.rules.cel.CelExecutor;
import io.kavro.rules.cel.CelFieldExecutor;
import io.kavro.rules.cel.CelValidator;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.common.config.ConfigException;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Confluent's {@code cel.regex.engine} is parsed once per serde configuration: one WARN for {@code pcre} however
 * many CEL runners the serde has (CEL, CEL_FIELD, the inline validator), with {@code rules.ignore=true} too; a value
 * that is neither {@code pcre} nor {@code re2} is refused, naming the key as given, by the serde and by each runner
 * configured by hand.
 */
class CelRegexEngineSettingTest {
  private final String scope = "regex-" + UUID.randomUUID();

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private void configure(Object... keyValues) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "validation.rules.execution", "BEFORE_DOMAIN_RULES"));
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config, false);
    }
  }

  private static List<String> regexWarnings(LogCapture logs) {
    return logs.lines(Level.WARN).stream().filter(line -> line.contains("cel.regex.engine")).toList();
  }

  @Test
  void pcre_oneWarnPerSerdeConfig_withEveryCelRunner_andWithRulesIgnored() {
    try (LogCapture logs = new LogCapture()) {
      configure("cel.regex.engine", "pcre");
      assertThat(regexWarnings(logs)).singleElement().asString().contains("'cel.regex.engine=pcre'")
          .contains("RE2").contains("lookahead");
    }
    try (LogCapture logs = new LogCapture()) {
      configure("cel.regex.engine", "PCRE", "rules.ignore", true);
      assertThat(regexWarnings(logs)).as("rules.ignore=true").hasSize(1);
    }
    try (LogCapture logs = new LogCapture()) {
      configure("cel.regex.engine", "pcre", "rule.executors._CEL_FIELD_.param.cel.regex.engine", "pcre");
      assertThat(regexWarnings(logs)).as("given twice, warned once, naming both").singleElement().asString()
          .contains("'cel.regex.engine', 'rule.executors._CEL_FIELD_.param.cel.regex.engine=pcre'");
    }
    try (LogCapture logs = new LogCapture()) {
      configure("cel.regex.engine", " re2");
      configure();
      assertThat(regexWarnings(logs)).isEmpty();
    }
  }

  @Test
  void otherValue_refusedByTheSerde_namingTheKeyAsGiven_withRulesIgnoredToo() {
    assertThatThrownBy(() -> configure("cel.regex.engine", "perl")).isInstanceOf(ConfigException.class)
        .hasMessageContaining("cel.regex.engine").hasMessageContaining("perl");
    assertThatThrownBy(() -> configure("cel.regex.engine", "perl", "rules.ignore", true))
        .isInstanceOf(ConfigException.class).hasMessageContaining("cel.regex.engine");
    assertThatThrownBy(() -> configure("rule.executors._CEL_.param.cel.regex.engine", "perl"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("rule.executors._CEL_.param.cel.regex.engine");
  }

  @Test
  void otherValue_refusedByEachRunnerConfiguredByHand_theSameWay() {
    List<Consumer<Map<String, ?>>> runners = List.of(new CelExecutor()::configure, new CelFieldExecutor()::configure,
        new CelValidator()::configure);
    for (Consumer<Map<String, ?>> runner : runners) {
      assertThatThrownBy(() -> runner.accept(Map.of("cel.regex.engine", "perl"))).isInstanceOf(ConfigException.class)
          .hasMessage("Invalid value perl for configuration cel.regex.engine: expected 'pcre' or 're2'");
      try (LogCapture logs = new LogCapture()) {
        runner.accept(Map.of("cel.regex.engine", "pcre"));
        assertThat(regexWarnings(logs)).as("the serde warns, once; a runner never does").isEmpty();
      }
    }
  }
}
