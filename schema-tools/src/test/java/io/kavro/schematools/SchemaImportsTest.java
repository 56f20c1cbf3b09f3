package io.kavro.schematools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryClients;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema file with its types from a directory of files that import each other, resolved against the in-memory
 * registry: what the console tool's {@code --imports} and the Maven plugin's {@code imports} do without a registry.
 */
class SchemaImportsTest {
  private static final SchemaImports.Labels LABELS = new SchemaImports.Labels("--imports", "--reference");

  @TempDir
  Path dir;

  private static SchemaImports registering(SchemaRegistryClient registry) {
    return SchemaImports.against(registry, LABELS).withImportedFiles(SchemaImports.ImportedFiles.REGISTER);
  }

  @Test
  void resolve_importedTypes_areRegisteredFirstAndReferenced() throws IOException {
    Path imports = Files.createDirectories(dir.resolve("imports"));
    Files.writeString(imports.resolve("Address.avsc"), """
        {"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"city","type":"string"}]}""");
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"}]}""");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      SchemaImports.Resolved resolved = registering(registry).resolve(order, List.of(), Optional.of(imports));

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
      assertThatThrownBy(() -> registering(registry).resolve(order, List.of(), Optional.of(imports)))
          .isInstanceOf(SchemaFileException.class).hasMessageContaining("order.avsc uses com.acme.Nowhere");
    }
  }

  @Test
  void resolve_aFileThatIsNotJson_failsWithLineAndColumn_quotingNothing() throws IOException {
    Path order = Files.writeString(dir.resolve("order.avsc"), "{\"type\": s3cret}");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      assertThatThrownBy(() -> registering(registry).resolve(order, List.of(), Optional.empty()))
          .isInstanceOf(SchemaFileException.class).hasMessageContaining("is not JSON (line 1, column")
          .hasMessageNotContaining("s3cret");
    }
  }

  @Test
  void resolve_importedFilesRead_registerNothing_andReferenceNothing() throws IOException {
    Path imports = Files.createDirectories(dir.resolve("imports"));
    Files.writeString(imports.resolve("Address.avsc"), """
        {"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"city","type":"string"}]}""");
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"}]}""");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      SchemaImports.Resolved resolved = SchemaImports.against(registry, LABELS)
          .withImportedFiles(SchemaImports.ImportedFiles.READ).resolve(order, List.of(), Optional.of(imports));

      assertThat(resolved.references()).isEmpty();
      assertThat(resolved.schema().getField("to").schema().getField("city")).isNotNull();
      assertThat(registry.subjects()).isEmpty();
    }
  }

  @Test
  void resolve_importedFilesLookedUp_anUnregisteredOneIsTheRegistrysNotFound() throws IOException {
    Path imports = Files.createDirectories(dir.resolve("imports"));
    Files.writeString(imports.resolve("Address.avsc"), """
        {"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"city","type":"string"}]}""");
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"}]}""");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      assertThatThrownBy(() -> SchemaImports.against(registry, LABELS).resolve(order, List.of(),
          Optional.of(imports))).isInstanceOf(SchemaNotFoundException.class);
      assertThat(registry.subjects()).isEmpty();
    }
  }

  @Test
  void resolve_messagesNameTheToolsLabels() throws IOException {
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"}]}""");
    Path empty = Files.createDirectories(dir.resolve("empty"));

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      SchemaImports plugin = SchemaImports.against(registry, new SchemaImports.Labels("<imports>", "<reference>"));
      assertThatThrownBy(() -> plugin.resolve(order, List.of(), Optional.of(dir.resolve("nowhere"))))
          .hasMessage("<imports> " + dir.resolve("nowhere") + " is not a directory");
      assertThatThrownBy(() -> plugin.resolve(order, List.of(), Optional.of(empty)))
          .hasMessageEndingWith("uses com.acme.Address, which neither <imports> nor a <reference> defines");
    }
  }
}
