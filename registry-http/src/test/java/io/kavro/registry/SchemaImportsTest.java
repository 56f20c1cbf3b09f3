package io.kavro.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema file with its types from a directory of files that import each other, resolved against the in-memory
 * registry: what the console tool's {@code --imports} and the Maven plugin's {@code imports} do without a registry.
 */
class SchemaImportsTest {
  @TempDir
  Path dir;

  @Test
  void resolve_importedTypes_areRegisteredFirstAndReferenced() throws IOException {
    Path imports = Files.createDirectories(dir.resolve("imports"));
    Files.writeString(imports.resolve("Address.avsc"), """
        {"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"city","type":"string"}]}""");
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"}]}""");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      SchemaImports.Resolved resolved = SchemaImports.resolve(registry, order, List.of(), imports, true);

      assertThat(resolved.references()).containsExactly(
          new SchemaReference("com.acme.Address", "com.acme.Address", 1));
      assertThat(resolved.schema().getField("to").schema().getFullName()).isEqualTo("com.acme.Address");
      assertThat(registry.latestVersion("com.acme.Address").version()).isEqualTo(1);
    }
  }

  @Test
  void resolve_aTypeNoImportDefines_failsNamingTheFileAndType() throws IOException {
    Path imports = Files.createDirectories(dir.resolve("empty"));
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Nowhere"}]}""");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      assertThatThrownBy(() -> SchemaImports.resolve(registry, order, List.of(), imports, true))
          .isInstanceOf(SchemaFileException.class).hasMessageContaining("order.avsc uses com.acme.Nowhere");
    }
  }

  @Test
  void resolve_aFileThatIsNotJson_failsWithLineAndColumn_quotingNothing() throws IOException {
    Path order = Files.writeString(dir.resolve("order.avsc"), "{\"type\": s3cret}");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      assertThatThrownBy(() -> SchemaImports.resolve(registry, order, List.of(), null, true))
          .isInstanceOf(SchemaFileException.class).hasMessageContaining("is not JSON (line 1, column")
          .hasMessageNotContaining("s3cret");
    }
  }

  @Test
  void heldSchemas_readWhatAvro1122Refuses_andSaySo() {
    String text = """
        {"type":"record","name":"Visit","namespace":"com.acme","fields":[
          {"name":"home","type":{"type":"record","name":"Place","fields":[{"name":"x","type":"int"}]}},
          {"name":"work","type":{"type":"com.acme.Place"}}]}""";

    assertThat(HeldSchemas.referencesNamesAsObjects(text)).isTrue();
    assertThat(HeldSchemas.parse(text).getField("work").schema().getFullName()).isEqualTo("com.acme.Place");
    assertThat(HeldSchemas.referencesNamesAsObjects("{\"type\":\"record\",\"name\":\"A\",\"fields\":[]}")).isFalse();
  }
}
