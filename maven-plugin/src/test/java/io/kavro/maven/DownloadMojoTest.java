package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.maven.plugin.MojoExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code download} against Kavro's in-memory registry ({@code mock://}). */
class DownloadMojoTest {
  @TempDir
  Path dir;

  private final String scope = "download-" + UUID.randomUUID();
  private MockRegistry registry;

  @BeforeEach
  void setUp() {
    registry = MockRegistries.scope(scope);
  }

  @AfterEach
  void tearDown() {
    MockRegistries.drop(scope);
  }

  private static Schema order(String... fields) {
    StringBuilder json = new StringBuilder("{\"type\": \"record\", \"name\": \"Order\", \"fields\": [");
    for (int i = 0; i < fields.length; i++) {
      json.append(i == 0 ? "" : ", ").append("{\"name\": \"").append(fields[i])
          .append("\", \"type\": \"string\", \"default\": \"\"}");
    }
    return new Schema.Parser().parse(json.append("]}").toString());
  }

  private final RecordingLog log = new RecordingLog();

  private DownloadMojo mojo() {
    DownloadMojo mojo = new DownloadMojo();
    mojo.setLog(log);
    mojo.basedir = dir.toFile();
    mojo.schemaRegistryUrls = List.of("mock://" + scope);
    mojo.outputDirectory = new File("out");
    mojo.schemaExtension = ".avsc";
    mojo.encodeSubject = true;
    return mojo;
  }

  @Test
  void run_subjectNames_areLiteral_notRegularExpressions() throws Exception {
    registry.register("a+b", order("id"));
    registry.register("aab", order("id"));
    DownloadMojo mojo = mojo();
    mojo.subjectNames = List.of("a+b");

    mojo.execute();

    assertThat(dir.resolve("out")).isDirectoryContaining(p -> p.getFileName().toString().equals("a_x2Bb.avsc"));
    assertThat(Files.list(dir.resolve("out")).toList()).hasSize(1);
  }

  @Test
  void run_numberedVersion_writesThatVersion_notTheLatest() throws Exception {
    registry.register("orders-value", order("id"));
    registry.register("orders-value", order("id", "note"));
    DownloadMojo mojo = mojo();
    mojo.subjectPatterns = List.of("orders-.*");
    mojo.versions = List.of("1");

    mojo.execute();

    Schema written = new Schema.Parser().parse(dir.resolve("out/orders-value.avsc").toFile());
    assertThat(written).isEqualTo(order("id"));
  }

  @Test
  void run_versionsForPatternsThenNames_eachSubjectGetsItsOwn() throws Exception {
    registry.register("orders-value", order("id"));
    registry.register("orders-value", order("id", "note"));
    registry.register("x(1)", order("id"));
    registry.register("x(1)", order("id", "note"));
    DownloadMojo mojo = mojo();
    mojo.subjectPatterns = List.of("orders-.*");
    mojo.subjectNames = List.of("x(1)");
    mojo.versions = List.of("latest", "1");

    mojo.execute();

    assertThat(new Schema.Parser().parse(dir.resolve("out/orders-value.avsc").toFile()))
        .isEqualTo(order("id", "note"));
    assertThat(new Schema.Parser().parse(dir.resolve("out/x_x281_x29.avsc").toFile())).isEqualTo(order("id"));
  }

  @Test
  void run_unencodedSubjectThatClimbsOutOfTheOutputDirectory_failsWritingNothing() throws Exception {
    registry.register("../../escaped", order("id"));
    DownloadMojo mojo = mojo();
    mojo.subjectNames = List.of("../../escaped");
    mojo.encodeSubject = false;

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("subject '../../escaped' would be written to ")
        .hasMessageContaining("outside <outputDirectory>");
    assertThat(dir.getParent().resolve("escaped.avsc")).doesNotExist();
    assertThat(dir.resolve("escaped.avsc")).doesNotExist();
  }

  @Test
  void run_noPatternAndNoName_failsNamingBothParameters() {
    assertThatThrownBy(mojo()::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageStartingWith("<subjectPatterns> and <subjectNames> name no subject");
  }

  @Test
  void run_anExactNameTheRegistryLacks_warnsNamingIt() throws Exception {
    // Issue 49, item 10: the name matched nothing, another did, and nothing was said.
    registry.register("orders-value", order("id"));
    DownloadMojo mojo = mojo();
    mojo.subjectNames = List.of("orders-value", "orders-valeu");

    mojo.execute();

    assertThat(dir.resolve("out/orders-value.avsc")).exists();
    assertThat(log.lines()).contains("WARN <subjectNames>: the registry has no subject 'orders-valeu'; nothing was "
        + "written for it");
  }

  @Test
  void run_aNameAlsoMatchedByAPattern_isNoWarning() throws Exception {
    registry.register("orders-value", order("id"));
    DownloadMojo mojo = mojo();
    mojo.subjectPatterns = List.of("orders-.*", "nothing-.*");
    mojo.subjectNames = List.of("orders-value");

    mojo.execute();

    assertThat(log.lines()).filteredOn(line -> line.startsWith("WARN"))
        .containsExactly("WARN <subjectPatterns>: 'nothing-.*' matches no subject of the registry's 1");
  }

  @Test
  void run_twoSubjectsEncodedToOneFileName_failNamingBothAndTheFile_writingNothing() throws Exception {
    // Issue 49, item 10: 'pk-a/b' and 'pk-a_x2Fb' both make pk-a_x2Fb.avsc; the second overwrote the first.
    registry.register("pk-a/b", order("id"));
    registry.register("pk-a_x2Fb", order("id", "note"));
    registry.register("aaa-value", order("id"));
    DownloadMojo mojo = mojo();
    mojo.subjectPatterns = List.of(".*");

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("'pk-a/b'").hasMessageContaining("'pk-a_x2Fb'")
        .hasMessageContaining("would both be written to " + dir.resolve("out/pk-a_x2Fb.avsc"))
        .hasMessageContaining("nothing was written");
    assertNothingWritten();
  }

  /**
   * Review of issue 49, item 10: 'Orders-value' and 'orders-value' make two file names that macOS and Windows take
   * for one file; the second overwrote the first there.
   */
  @Test
  void run_twoSubjectsWhoseFileNamesDifferOnlyInCase_failNamingBothAndTheFiles_writingNothing() throws Exception {
    registry.register("Orders-value", order("id"));
    registry.register("orders-value", order("id", "note"));
    DownloadMojo mojo = mojo();
    mojo.subjectPatterns = List.of("(?i)orders-value");

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("'Orders-value'").hasMessageContaining("'orders-value'")
        .hasMessageContaining(dir.resolve("out/Orders-value.avsc").toString())
        .hasMessageContaining(dir.resolve("out/orders-value.avsc").toString())
        .hasMessageContaining("ignore case").hasMessageContaining("nothing was written");
    assertNothingWritten();
  }

  /** 'é' written as one character and as 'e' with an accent are one file name on macOS. */
  @Test
  void run_twoSubjectsWhoseFileNamesDifferOnlyInUnicodeNormalization_fail_writingNothing() throws Exception {
    registry.register("caf\u00e9-value", order("id"));
    registry.register("cafe\u0301-value", order("id", "note"));
    DownloadMojo mojo = mojo();
    mojo.encodeSubject = false;
    mojo.subjectPatterns = List.of("caf.*");

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("'caf\u00e9-value'").hasMessageContaining("'cafe\u0301-value'")
        .hasMessageContaining("Unicode normalization").hasMessageContaining("nothing was written");
    assertNothingWritten();
  }

  private void assertNothingWritten() {
    assertThat(dir.resolve("out")).satisfiesAnyOf(out -> assertThat(out).doesNotExist(),
        out -> assertThat(out).isEmptyDirectory());
  }

  @Test
  void run_aMissingVersion_writesNothing() throws Exception {
    registry.register("aaa-value", order("id"));
    registry.register("orders-value", order("id"));
    DownloadMojo mojo = mojo();
    mojo.subjectNames = List.of("aaa-value", "orders-value");
    mojo.versions = List.of("1", "7");

    assertThatThrownBy(mojo::execute).isInstanceOf(MojoExecutionException.class)
        .hasMessageContaining("subject 'orders-value' has no version 7");
    assertThat(dir.resolve("out/aaa-value.avsc")).doesNotExist();
  }
}
