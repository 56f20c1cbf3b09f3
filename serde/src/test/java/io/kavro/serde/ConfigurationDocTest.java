package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * The configuration reference (docs/configuration.md) lists exactly the keys of the ConfigDef, with the same
 * defaults, in its first table (the converter's own keys follow under a heading of their own, checked by the
 * connect module's ConverterConfigurationDocTest).
 */
class ConfigurationDocTest {

  @Test
  void documentedTable_matchesConfigDef() throws IOException {
    Map<String, String> documented = documentedTable();
    ConfigDef def = AvroSerdeConfig.configDef();

    assertThat(documented.keySet()).containsExactlyInAnyOrderElementsOf(def.names());
    def.configKeys().forEach((name, key) -> {
      String cell = documented.get(name);
      Object value = key.defaultValue;
      if (value == null || value instanceof List<?> list && list.isEmpty()) {
        assertThat(cell).as(name).isIn("none", "required", "JDK default");
      } else if ("".equals(value)) {
        assertThat(cell).as(name).isEqualTo("empty");
      } else {
        assertThat(cell).as(name).isEqualTo("`" + value + "`");
      }
    });
  }

  private static Map<String, String> documentedTable() throws IOException {
    List<String> lines = Files.readAllLines(Path.of("..", "docs", "configuration.md"));
    Map<String, String> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : lines) {
      if (line.startsWith("#")) {
        inSection = line.equals("# Configuration reference");
      } else if (inSection && line.startsWith("| `")) {
        String[] cells = line.split("\\|");
        rows.put(cells[1].trim().replace("`", ""), cells[2].trim());
      }
    }
    return rows;
  }
}
