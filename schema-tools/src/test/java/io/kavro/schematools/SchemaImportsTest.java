package io.kavro.schematools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A schema file with its types from a directory of files that import each other, resolved against the in-memory
 * registry: what the console tool's {@code --imports} and the Maven plugin's {@code imports} do without a registry.
 */
class SchemaImportsTest {
  private static final SchemaImports.Labels LABELS = new SchemaImports.Labels("--imports", "--reference");
  private static final String ORDER = """
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"}]}""";

  @TempDir
  Path dir;

  /** A directory of imports that defines com.acme.Address. */
  private Path addressImports() throws IOException {
    Path imports = Files.createDirectories(dir.resolve("imports"));
    Files.writeString(imports.resolve("Address.avsc"), """
        {"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"city","type":"string"}]}""");
    return imports;
  }

  private static SchemaImports registering(SchemaRegistryClient registry) {
    return SchemaImports.against(registry, LABELS).withImportedFiles(SchemaImports.ImportedFiles.REGISTER);
  }

  @Test
  void resolve_importedTypes_areRegisteredFirstAndReferenced() throws IOException {
    Path imports = addressImports();
    Path order = Files.writeString(dir.resolve("order.avsc"), ORDER);

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
    Path imports = addressImports();
    Path order = Files.writeString(dir.resolve("order.avsc"), ORDER);

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
    Path imports = addressImports();
    Path order = Files.writeString(dir.resolve("order.avsc"), ORDER);

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      assertThatThrownBy(() -> SchemaImports.against(registry, LABELS).resolve(order, List.of(),
          Optional.of(imports))).isInstanceOf(SchemaNotFoundException.class);
      assertThat(registry.subjects()).isEmpty();
    }
  }

  @Test
  void resolve_messagesNameTheToolsLabels() throws IOException {
    Path order = Files.writeString(dir.resolve("order.avsc"), ORDER);
    Path empty = Files.createDirectories(dir.resolve("empty"));

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      SchemaImports plugin = SchemaImports.against(registry, new SchemaImports.Labels("<imports>", "<reference>"));
      assertThatThrownBy(() -> plugin.resolve(order, List.of(), Optional.of(dir.resolve("nowhere"))))
          .hasMessage("<imports> " + dir.resolve("nowhere") + " is not a directory");
      assertThatThrownBy(() -> plugin.resolve(order, List.of(), Optional.of(empty)))
          .hasMessageEndingWith("uses com.acme.Address, which neither <imports> nor a <reference> defines");
    }
  }

  /**
   * Review M7b: registries hold versions whose defaults do not match their types (registered before Avro 1.9), and
   * a reference to one must resolve: its types are taken from the version as the client read it, never parsed again
   * with Avro 1.12.2's checks (which threw a raw AvroTypeException).
   */
  @Test
  void resolve_aReferencedVersionWithADefaultNotMatchingItsType_resolves() throws IOException {
    Schema held = new Schema.Parser().setValidateDefaults(false).parse("""
        {"type":"record","name":"Address","namespace":"com.acme","fields":[
          {"name":"city","type":"string","default":0},
          {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["HOME","WORK"]}}]}""");
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"},
          {"name":"kind","type":"Kind"}]}""");

    try (SchemaRegistryClient registry = holding("addresses", held)) {
      SchemaImports.Resolved resolved = SchemaImports.against(registry, LABELS)
          .resolve(order, List.of(new SchemaImports.Wanted("com.acme.Address", "addresses", 0)), Optional.empty());

      assertThat(resolved.references()).containsExactly(new SchemaReference("com.acme.Address", "addresses", 1));
      assertThat(resolved.schema().getField("kind").schema().getFullName()).isEqualTo("com.acme.Kind");
      assertThatThrownBy(() -> SchemaImports.against(registry, LABELS).resolve(order,
          List.of(new SchemaImports.Wanted("com.acme.Nope", "addresses", 1)), Optional.empty()))
          .isInstanceOf(SchemaFileException.class)
          .hasMessage("--reference com.acme.Nope=addresses:1: that version does not define com.acme.Nope; it "
              + "defines com.acme.Address, com.acme.Kind");
    }
  }

  /** The file's own defaults are still checked, strictly, as Avro 1.12.2 checks them; read as held, they are not. */
  @Test
  void resolve_aDefaultNotMatchingItsTypeInTheFile_failsStrictly_andReadsAsHeld() throws IOException {
    Path imports = addressImports();
    Path order = Files.writeString(dir.resolve("order.avsc"), """
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"},
          {"name":"priority","type":"int","default":"high"}]}""");

    try (SchemaRegistryClient registry = SchemaRegistryClients.inMemory()) {
      SchemaImports reading = SchemaImports.against(registry, LABELS)
          .withImportedFiles(SchemaImports.ImportedFiles.READ);
      assertThatThrownBy(() -> reading.resolve(order, List.of(), Optional.of(imports)))
          .isInstanceOf(SchemaFileException.class)
          .hasMessage(order.toAbsolutePath().normalize() + " is not an Avro schema: Invalid default for field "
              + "priority: \"high\" not a \"int\"")
          .extracting(e -> ((SchemaFileException) e).file()).isEqualTo(Optional.of(order.toAbsolutePath()
              .normalize()));
      assertThat(reading.withReading(SchemaImports.Reading.AS_HELD).resolve(order, List.of(), Optional.of(imports))
          .schema().getField("priority")).isNotNull();
    }
  }

  /**
   * An in-memory registry whose {@code subject} holds {@code schema} as version 1, as a registry holds what it was
   * given before Avro checked defaults: Kavro's own registries refuse to register such a schema.
   */
  private static SchemaRegistryClient holding(String subject, Schema schema) {
    SchemaRegistryClient inMemory = SchemaRegistryClients.inMemory();
    SubjectVersion version = new SubjectVersion(subject, 1, 1, schema, DataContract.NONE);
    return (SchemaRegistryClient) Proxy.newProxyInstance(SchemaImportsTest.class.getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if ((method.getName().equals("latestVersion") || method.getName().equals("version"))
              && subject.equals(args[0])) {
            return version;
          }
          try {
            return method.invoke(inMemory, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }
}
