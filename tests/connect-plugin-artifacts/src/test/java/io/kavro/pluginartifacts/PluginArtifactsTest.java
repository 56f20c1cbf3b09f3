package io.kavro.pluginartifacts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * Issue 49, item 11: the Connect plugin's two zips are two artifacts, each under its own coordinate, as a build
 * (and a repository, after {@code install} or {@code deploy}) gets them: {@code io.kavro:kavro-connect-plugin:zip}
 * holds the plugin for workers of Kafka 4.1 and later, {@code ...:zip:kafka3} the one for Kafka 3.0 to 4.0. When
 * both were attached under one coordinate, the second replaced the first, and the installed zip was the kafka3 one.
 */
class PluginArtifactsTest {
  private static final String VERSION = System.getProperty("kavro.version");

  private static Path zip(String property) {
    String path = System.getProperty(property);
    assertThat(path).as("%s, from the dependency's file", property).isNotBlank().doesNotStartWith("${");
    return Path.of(path);
  }

  private static List<String> files(Path zip) throws IOException {
    try (ZipFile file = new ZipFile(zip.toFile())) {
      return file.stream().filter(entry -> !entry.isDirectory()).map(ZipEntry::getName).toList();
    }
  }

  private static String manifest(Path zip, String folder) throws IOException {
    try (ZipFile file = new ZipFile(zip.toFile())) {
      ZipEntry entry = file.getEntry(folder + "/manifest.json");
      assertThat(entry).as("%s/manifest.json in %s", folder, zip).isNotNull();
      return new String(file.getInputStream(entry).readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  @Test
  void zipWithoutClassifier_isThePluginForKafka41AndLater() throws IOException {
    Path zip = zip("kavro.plugin.zip");

    assertThat(files(zip)).isNotEmpty()
        .allMatch(name -> name.startsWith("kavro-avro-converter/"), "in kavro-avro-converter/")
        .contains("kavro-avro-converter/lib/kavro-serde-" + VERSION + ".jar",
            "kavro-avro-converter/lib/kavro-connect-" + VERSION + ".jar")
        .noneMatch(name -> name.contains("kavro-serde-kafka3"));
    assertThat(manifest(zip, "kavro-avro-converter")).contains("\"name\": \"kavro-avro-converter\"");
  }

  @Test
  void zipWithClassifierKafka3_isThePluginForKafka30To40() throws IOException {
    Path zip = zip("kavro.plugin.kafka3.zip");

    assertThat(files(zip)).isNotEmpty()
        .allMatch(name -> name.startsWith("kavro-avro-converter-kafka3/"), "in kavro-avro-converter-kafka3/")
        .contains("kavro-avro-converter-kafka3/lib/kavro-serde-kafka3-" + VERSION + ".jar")
        .noneMatch(name -> name.endsWith("/kavro-serde-" + VERSION + ".jar"));
    assertThat(manifest(zip, "kavro-avro-converter-kafka3")).contains("\"name\": \"kavro-avro-converter-kafka3\"");
  }

  @Test
  void theTwoZips_areTwoFiles() throws IOException {
    Path plugin = zip("kavro.plugin.zip");
    Path kafka3 = zip("kavro.plugin.kafka3.zip");

    assertThat(plugin.toRealPath()).isNotEqualTo(kafka3.toRealPath());
    assertThat(Files.mismatch(plugin, kafka3)).isNotEqualTo(-1L);
  }
}
