package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.maven.plugin.MojoFailureException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate} decides as {@code register} does, and names Avro 1.12.2's strictness only when that is what
 * refused the subject's file; a broken file in the imports fails the goal, named, even when the subject's own file
 * is one Avro 1.12.2 refuses.
 */
class ValidateMojoTest {
  /** Self-contained, with a default that does not match its type: Avro 1.12.2 refuses it, registries hold it. */
  private static final String BAD_DEFAULT = """
      {"type": "record", "name": "Order", "namespace": "com.acme",
       "fields": [{"name": "count", "type": "int", "default": "many"}]}""";
  private static final String ADDRESS = """
      {"type": "record", "name": "Address", "namespace": "com.acme",
       "fields": [{"name": "city", "type": "string"}]}""";

  private static ValidateMojo mojo(Path dir) {
    ValidateMojo mojo = new ValidateMojo();
    mojo.basedir = dir.toFile();
    mojo.subjects = Map.of("orders-value", new File("order.avsc"));
    mojo.imports = new File("common");
    mojo.decodeSubject = true;
    return mojo;
  }

  @Test
  void run_brokenImportsFile_failsNamingThatFile_notAvrosStrictness(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), BAD_DEFAULT);
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);
    Files.writeString(dir.resolve("common/Broken.avsc"), "{ not json");

    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("1 of 1 schema file(s) are not valid")
        .hasMessageContaining("Broken.avsc is not JSON")
        .hasMessageNotContaining("Avro 1.12.2 refuses");
  }

  /**
   * Issue 49, item 10: an {@code int} field with the default "many" passed validate with a warning, and register
   * then refused it: a build that passed CI failed at deploy. validate decides as register does.
   */
  @Test
  void run_defaultThatDoesNotMatchItsType_failsAsRegisterDoes(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), BAD_DEFAULT);
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);

    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("1 of 1 schema file(s) are not valid")
        .hasMessageContaining("subject 'orders-value' (order.avsc): Avro 1.12.2 refuses it (")
        .hasMessageContaining("Invalid default for field count: \"many\" not a \"int\"")
        .hasMessageContaining("and so does register")
        .hasMessageContaining("a default does not match its field's type; fix the default");
  }

  /** The same files, given to register: it refuses what validate refuses, and sends nothing. */
  @Test
  void register_refusesWhatValidateRefuses(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), BAD_DEFAULT);
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);
    String scope = "validate-" + UUID.randomUUID();
    MockRegistry registry = MockRegistries.scope(scope);
    try {
      RegisterMojo register = new RegisterMojo();
      register.setLog(new RecordingLog());
      register.basedir = dir.toFile();
      register.schemaRegistryUrls = List.of("mock://" + scope);
      register.subjects = Map.of("orders-value", new File("order.avsc"));
      register.imports = new File("common");
      register.decodeSubject = true;

      assertThatThrownBy(register::execute).isInstanceOf(MojoFailureException.class)
          .hasMessageContaining("Invalid default for field count");
      assertThat(registry.subjects()).isEmpty();
      assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoFailureException.class)
          .hasMessageContaining("Invalid default for field count");
    } finally {
      MockRegistries.drop(scope);
    }
  }

  /** Review H1, issue 49: an AVRO-4176 form, which register refuses too, fails naming the form. */
  @Test
  void run_objectReferenceInAFileThatImports_failsNamingTheForm(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "to", "type": "Address"},
                    {"name": "from", "type": {"type": "com.acme.Address"}}]}""");
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);

    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("subject 'orders-value' (order.avsc): Avro 1.12.2 refuses it")
        .hasMessageContaining("AVRO-4176").hasMessageContaining("write the name alone");
  }

  /** Review H1, issue 49: a default Avro 1.12.2 refuses, in an imported file, fails naming that file. */
  @Test
  void run_badDefaultInAnImportedFile_failsNamingTheImport(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "to", "type": "Address"}]}""");
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), """
        {"type": "record", "name": "Address", "namespace": "com.acme",
         "fields": [{"name": "floor", "type": "int", "default": "ground"}]}""");

    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("Avro 1.12.2 refuses common" + File.separator + "Address.avsc, which it uses (")
        .hasMessageContaining("Invalid default for field floor")
        .hasMessageContaining("a default does not match its field's type");
  }

  /** Issue 49, item 10: Avro's reason was cut at its first colon, losing the name it gives. */
  @Test
  void run_undefinedType_namesIt(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "to", "type": "com.acme.Nowhere"}]}""");
    ValidateMojo mojo = mojo(dir);
    mojo.imports = null;

    assertThatThrownBy(mojo::run).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("com.acme.Nowhere");
  }

  /** An AVRO-4176 form and a broken import: the broken import is the problem, not Avro's strictness. */
  @Test
  void run_objectReferenceAndABrokenImport_failsNamingTheImport(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "from", "type": {"type": "com.acme.Address"}}, {"name": "to", "type": "Address"}]}""");
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), """
        {"type": "record", "name": "Address", "namespace": "com.acme", "fields": [{"name": "x", "type": "Nope"}]}""");

    assertThatThrownBy(() -> mojo(dir).run()).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("Address.avsc uses com.acme.Nope").hasMessageNotContaining("Avro 1.12.2 refuses");
  }

  /**
   * Review M4: a reference to the latest version of a subject that is itself in {@code <subjects>} takes that
   * subject's file, so no registry is needed (none is configured here) and neither file need be registered.
   */
  @Test
  void run_referenceToASubjectInTheList_usesItsFile_withoutARegistry(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [{"name": "to", "type": "Address"}]}""");
    Files.writeString(dir.resolve("audit.avsc"), """
        {"type": "record", "name": "Audit", "namespace": "com.acme", "fields": [{"name": "of", "type": "Order"}]}""");
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);
    ValidateMojo mojo = mojo(dir);
    mojo.subjects = Map.of("orders-value", new File("order.avsc"), "audits-value", new File("audit.avsc"));
    mojo.references = Map.of("audits-value", references(new Reference("com.acme.Order", "orders-value", null)));
    RecordingLog log = new RecordingLog();
    mojo.setLog(log);

    assertThatCode(mojo::run).doesNotThrowAnyException();
    assertThat(log.lines()).anySatisfy(line -> assertThat(line).startsWith("INFO ").contains("subject 'audits-value'")
        .contains("is a valid Avro schema"));
  }

  static References references(Reference... list) {
    References references = new References();
    for (Reference reference : list) {
      references.addReference(reference);
    }
    return references;
  }
}
