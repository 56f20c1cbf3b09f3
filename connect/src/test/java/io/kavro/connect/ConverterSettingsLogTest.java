package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.LogCapture;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 6: the converter warns of a mistyped key of its own or of the serde's, and not of its own keys;
 * it logs the serde's settings in effect (those the mapping fixes included) with the mapping's, secrets hidden.
 */
class ConverterSettingsLogTest {
  private static final String SECRET = "s3cret-token";

  @Test
  void configure_warnsOfTypos_andLogsTheConvertersSettings() {
    // As Connect passes them, its value.converter. prefix removed.
    Map<String, Object> configs = Map.of("schema.registry.url", "mock://converter-settings-log",
        "enhanced.avro.schema.suport", "true", "connect.meta.data", "false", "schema.registry.urll", "x",
        "converter.type", "value", "bearer.auth.token", SECRET, "specific.avro.reader", "true");

    try (LogCapture logs = new LogCapture(); AvroConverter converter = new AvroConverter()) {
      converter.configure(configs, false);

      assertThat(logs.lines(Level.WARN)).contains(
          "unknown Kavro setting 'enhanced.avro.schema.suport': did you mean 'enhanced.avro.schema.support'? It is "
              + "ignored.",
          "unknown Kavro setting 'schema.registry.urll': did you mean 'schema.registry.url'? It is ignored.")
          .noneMatch(line -> line.contains("'connect.meta.data'") || line.contains("'converter.type'"));
      List<String> blocks = logs.lines(Level.INFO).stream()
          .filter(line -> line.startsWith("AvroConverter settings (value side):")).toList();
      assertThat(blocks).isNotEmpty();
      assertThat(blocks.get(0)).contains("\n\tconnect.meta.data = false\n",
          "\n\tenhanced.avro.schema.support = false\n", "\n\tspecific.avro.reader = false\n",
          "\n\tbearer.auth.token = [hidden]\n");
      assertThat(logs.lines()).noneMatch(line -> line.contains(SECRET));
    }
  }
}
