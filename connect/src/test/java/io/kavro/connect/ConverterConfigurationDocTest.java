package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.AvroSerdeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * The converter's section of the configuration reference (docs/configuration.md, "Kafka Connect converter") lists
 * exactly the keys that the converter's {@code config()} adds to the serde's, with the same defaults: the
 * reference is the one place where defaults are written down.
 */
class ConverterConfigurationDocTest {
  private static final String SECTION = "## Kafka Connect converter";

  @Test
  void converterTable_matchesTheConvertersOwnKeys() throws IOException {
    Map<String, String> documented = documentedTable();
    ConfigDef def = new AvroConverter().config();
    Set<String> serdeKeys = AvroSerdeConfig.configDef().names();

    assertThat(documented.keySet()).containsExactlyInAnyOrder("connect.meta.data", "enhanced.avro.schema.support",
        "scrub.invalid.names", "ignore.default.for.nullables", "generalized.sum.type.support",
        "flatten.singleton.unions", "discard.type.doc.default", "allow.optional.map.keys", "schemas.cache.config");
    assertThat(def.names()).containsAll(serdeKeys);
    assertThat(def.names().stream().filter(name -> !serdeKeys.contains(name)))
        .containsExactlyInAnyOrderElementsOf(documented.keySet());
    documented.forEach((name, cell) ->
        assertThat(cell).as(name).isEqualTo("`" + def.configKeys().get(name).defaultValue + "`"));
  }

  /** Key to default cell, from the rows of the table under {@link #SECTION}, up to the next heading. */
  private static Map<String, String> documentedTable() throws IOException {
    Map<String, String> rows = new LinkedHashMap<>();
    boolean inSection = false;
    for (String line : Files.readAllLines(Path.of("..", "docs", "configuration.md"))) {
      if (line.startsWith("#")) {
        inSection = line.equals(SECTION);
      } else if (inSection && line.startsWith("| `")) {
        String[] cells = line.split("\\|");
        rows.put(cells[1].trim().replace("`", ""), cells[2].trim());
      }
    }
    return rows;
  }
}
