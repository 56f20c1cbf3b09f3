package io.kavro.maven;

import java.util.Locale;
import java.util.Map;
import org.apache.maven.plugin.MojoExecutionException;

/** {@code <schemaTypes>}, as Confluent's plugin takes it: Kavro's plugin takes Avro, the default, only. */
final class SchemaTypes {
  private SchemaTypes() {}

  /**
   * Checks that every entry says {@code AVRO}.
   *
   * @throws MojoExecutionException naming the subject and its type otherwise
   */
  static void requireAvro(Map<String, String> schemaTypes) throws MojoExecutionException {
    if (schemaTypes == null) {
      return;
    }
    for (Map.Entry<String, String> type : schemaTypes.entrySet()) {
      if (type.getValue() != null && !type.getValue().strip().toUpperCase(Locale.ROOT).equals("AVRO")) {
        throw new MojoExecutionException("<schemaTypes> gives <" + type.getKey() + "> the type "
            + type.getValue() + ": Kavro's plugin works with Avro schemas (AVRO) only");
      }
    }
  }
}
