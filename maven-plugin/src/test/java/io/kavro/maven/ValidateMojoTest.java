package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.logging.SystemStreamLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate} warns about Avro 1.12.2's strictness only when that is what refused the subject's file; a
 * broken file in the imports fails the goal, named, even when the subject's own file is one Avro 1.12.2 refuses.
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

  @Test
  void run_defaultAvro1122Refuses_withGoodImports_passesWithAWarning(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), BAD_DEFAULT);
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);

    assertThatCode(() -> mojo(dir).run()).doesNotThrowAnyException();
  }

  /** Review H1: an AVRO-4176 form in a file that uses an imported type warns, naming the form, and passes. */
  @Test
  void run_objectReferenceInAFileThatImports_passesWithAWarningNamingTheForm(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "to", "type": "Address"},
                    {"name": "from", "type": {"type": "com.acme.Address"}}]}""");
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);
    Logged log = new Logged();
    ValidateMojo mojo = mojo(dir);
    mojo.setLog(log);

    assertThatCode(mojo::run).doesNotThrowAnyException();
    assertThat(log.warnings).singleElement().asString().contains("subject 'orders-value' (order.avsc)")
        .contains("Avro 1.12.2 refuses it").contains("AVRO-4176");
  }

  /** Review H1: a default Avro 1.12.2 refuses, in an imported file, warns naming that file, and passes. */
  @Test
  void run_badDefaultInAnImportedFile_passesWithAWarningNamingTheImport(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("order.avsc"), """
        {"type": "record", "name": "Order", "namespace": "com.acme",
         "fields": [{"name": "to", "type": "Address"}]}""");
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), """
        {"type": "record", "name": "Address", "namespace": "com.acme",
         "fields": [{"name": "floor", "type": "int", "default": "ground"}]}""");
    Logged log = new Logged();
    ValidateMojo mojo = mojo(dir);
    mojo.setLog(log);

    assertThatCode(mojo::run).doesNotThrowAnyException();
    assertThat(log.warnings).singleElement().asString().contains("Avro 1.12.2 refuses common"
        + java.io.File.separator + "Address.avsc, which it uses (").contains("Invalid default for field floor")
        .contains("a default does not match its field's type");
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
    Logged log = new Logged();
    mojo.setLog(log);

    assertThatCode(mojo::run).doesNotThrowAnyException();
    assertThat(log.infos).anySatisfy(line -> assertThat(line).contains("subject 'audits-value'")
        .contains("is a valid Avro schema"));
  }

  static References references(Reference... list) {
    References references = new References();
    for (Reference reference : list) {
      references.addReference(reference);
    }
    return references;
  }

  /** Maven's log, keeping what a goal says. */
  static final class Logged extends SystemStreamLog {
    final List<String> infos = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();

    @Override
    public void info(CharSequence content) {
      infos.add(content.toString());
    }

    @Override
    public void warn(CharSequence content) {
      warnings.add(content.toString());
    }
  }
}
