package io.kavro.maven;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.schematools.SchemaImports;

/** Schema files with their types from elsewhere, as the goals read them: their messages name the plugin's elements. */
final class PluginImports {
  /** The elements that the messages of {@link SchemaImports} name. */
  static final SchemaImports.Labels LABELS = new SchemaImports.Labels("<imports>", "<reference>");

  private PluginImports() {}

  /** Resolution against {@code registry}, imported files looked up, each text read strictly. */
  static SchemaImports against(SchemaRegistryClient registry) {
    return SchemaImports.against(registry, LABELS);
  }
}
