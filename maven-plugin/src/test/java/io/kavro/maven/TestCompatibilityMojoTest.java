package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
 * Review M4: {@code test-compatibility} decides each subject on its own. One subject's {@code <references>} no
 * longer sends every subject's imported files to the registry to be looked up (they need not be registered to be
 * tested); a reference to a subject of {@code <subjects>} takes its file; a reference the registry does not have is
 * that subject's problem, named. On a {@code mock://} registry of its own.
 */
class TestCompatibilityMojoTest {
  private static final String ADDRESS = """
      {"type": "record", "name": "Address", "namespace": "com.acme", "fields": [{"name": "city", "type": "string"}]}""";
  private static final String ORDER = """
      {"type": "record", "name": "Order", "namespace": "com.acme", "fields": [{"name": "to", "type": "Address"}]}""";
  private static final String AUDIT = """
      {"type": "record", "name": "Audit", "namespace": "com.acme", "fields": [{"name": "of", "type": "Order"}]}""";

  @TempDir
  Path dir;

  private TestCompatibilityMojo mojo() throws Exception {
    Files.writeString(dir.resolve("order.avsc"), ORDER);
    Files.writeString(dir.resolve("audit.avsc"), AUDIT);
    Files.createDirectory(dir.resolve("common"));
    Files.writeString(dir.resolve("common/Address.avsc"), ADDRESS);
    TestCompatibilityMojo mojo = new TestCompatibilityMojo();
    mojo.basedir = dir.toFile();
    mojo.schemaRegistryUrls = List.of("mock://test-compatibility-" + UUID.randomUUID());
    mojo.subjects = Map.of("orders-value", new File("order.avsc"), "audits-value", new File("audit.avsc"));
    mojo.imports = new File("common");
    mojo.decodeSubject = true;
    mojo.verbose = true;
    return mojo;
  }

  @Test
  void run_oneSubjectsReferenceToAnother_importsNeedNoRegistering() throws Exception {
    TestCompatibilityMojo mojo = mojo();
    mojo.references = Map.of("audits-value", ValidateMojoTest.references(
        new Reference("com.acme.Order", "orders-value", null)));
    RecordingLog log = new RecordingLog();
    mojo.setLog(log);

    assertThatCode(mojo::run).doesNotThrowAnyException();
    assertThat(log.lines()).filteredOn(line -> line.startsWith("INFO ") && line.contains("has no version yet"))
        .hasSize(2);
  }

  @Test
  void run_aReferenceTheRegistryDoesNotHave_isThatSubjectsProblem_named() throws Exception {
    TestCompatibilityMojo mojo = mojo();
    mojo.references = Map.of("audits-value", ValidateMojoTest.references(
        new Reference("com.acme.Order", "elsewhere-value", 3)));
    RecordingLog log = new RecordingLog();
    mojo.setLog(log);

    assertThatThrownBy(mojo::run).isInstanceOf(MojoFailureException.class)
        .hasMessageContaining("1 of 2 schema(s) are incompatible")
        .hasMessageContaining("subject 'audits-value' (audit.avsc): <reference> to subject 'elsewhere-value' "
            + "version 3:");
    assertThat(log.lines()).anySatisfy(line -> assertThat(line).startsWith("INFO ").contains("subject 'orders-value'")
        .contains("has no version yet"));
  }
}
