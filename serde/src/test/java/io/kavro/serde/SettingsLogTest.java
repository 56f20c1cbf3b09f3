package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.LogCapture;
import io.kavro.serde.subject.RecordNameStrategy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 6: configuring a serde warns of a mistyped key, naming the key meant, and logs every setting in
 * effect once, with secrets hidden.
 */
class SettingsLogTest {
  private static final String SECRET = "s3cret-pw";
  private static final String HEADER = "KafkaAvroDeserializer settings (value side):";

  @Test
  void configure_warnsOfATypo_andLogsTheSettings_withSecretsHidden() {
    Map<String, Object> configs = new HashMap<>();
    configs.put("schema.registry.url", "mock://settings-log-test");
    configs.put("specific.avro.readr", "true");
    configs.put("basic.auth.user.info", "alice:" + SECRET);
    configs.put("bearer.auth.token", new Password(SECRET + "-token"));
    configs.put("bootstrap.servers", "localhost:9092");
    configs.put("group.id", "orders");

    try (LogCapture logs = new LogCapture(); KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(configs, false);

      String warning = "unknown Kavro setting 'specific.avro.readr': did you mean 'specific.avro.reader'? It is "
          + "ignored.";
      List<String> warnings = logs.lines(Level.WARN).stream().filter(line -> line.startsWith("unknown")).toList();
      assertThat(warnings).isNotEmpty().allMatch(line -> line.equals(warning));
      List<String> blocks = logs.lines(Level.INFO).stream().filter(line -> line.startsWith(HEADER)).toList();
      assertThat(blocks).hasSameSizeAs(warnings); // one block per configure, as one warning
      assertThat(blocks.get(0)).contains("\n\tspecific.avro.reader = false\n", "\n\tauto.register.schemas = true\n",
          "\n\tschema.registry.url = mock://settings-log-test\n", "\n\tbasic.auth.user.info = [hidden]\n",
          "\n\tbearer.auth.token = [hidden]\n", "\n\tschema.registry.ssl.keystore.key = null\n")
          .doesNotContain("specific.avro.readr", "bootstrap.servers");
      assertThat(logs.lines()).noneMatch(line -> line.contains(SECRET));
    }
  }

  /** A list of URLs with spaces after its commas: each URL's user info is hidden all the same. */
  @Test
  void shownValues_hideTheUserInfoOfUrlsAfterSpaces() {
    assertThat(AvroSerdeConfig.shownUrls("http://alice:" + SECRET + "@h1:8081, carol:" + SECRET + "@h2:8081"))
        .doesNotContain(SECRET).isEqualTo("http://h1:8081,h2:8081");
  }

  @Test
  void shownValues_hideSecretsAndTheUserInfoOfUrls_andShowDefaults() {
    Map<String, Object> configs = Map.of("schema.registry.url", "http://alice:" + SECRET + "@h1:8081,http://h2:8081",
        "bearer.auth.issuer.endpoint.url", "https://bob:" + SECRET + "@idp/token",
        "bearer.auth.client.secret", SECRET, "schema.registry.ssl.keystore.password", SECRET,
        "schema.registry.ssl.keystore.type", "PEM", "schema.registry.ssl.keystore.key", SECRET,
        "schema.registry.ssl.keystore.certificate.chain", SECRET, "value.subject.name.strategy",
        RecordNameStrategy.class);

    Map<String, String> shown = new AvroSerdeConfig(configs, false).shownValues();

    assertThat(shown).containsEntry("schema.registry.url", "http://h1:8081,http://h2:8081")
        .containsEntry("bearer.auth.issuer.endpoint.url", "https://idp/token")
        .containsEntry("bearer.auth.client.secret", "[hidden]")
        .containsEntry("schema.registry.ssl.keystore.password", "[hidden]")
        .containsEntry("schema.registry.ssl.keystore.key", "[hidden]")
        .containsEntry("schema.registry.ssl.keystore.certificate.chain", "[hidden]")
        .containsEntry("value.subject.name.strategy", RecordNameStrategy.class.getName())
        .containsEntry("max.retries", "3")
        .containsEntry("specific.avro.reader", "false")
        .containsEntry("schema.registry.ssl.enabled.protocols", "[TLSv1.2, TLSv1.3]");
    assertThat(shown.keySet()).containsExactlyInAnyOrderElementsOf(AvroSerdeConfig.configDef().names());
    assertThat(shown.values()).noneMatch(value -> value.contains(SECRET));
  }
}
