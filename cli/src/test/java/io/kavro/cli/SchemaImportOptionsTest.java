package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code schema register} and {@code schema check} say of the types a file takes from elsewhere: each message
 * names the option to change ({@code --imports}, {@code --reference}), as it did before the code moved to
 * kavro-schema-tools, which the Maven plugin shares with its own element names. On a {@code mock://} registry of
 * its own, so no stack is needed.
 */
class SchemaImportOptionsTest {
  private static final String ORDER = """
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"to","type":"Address"}]}""";

  @TempDir
  Path dir;

  private final String registry = "mock://schema-import-options-" + UUID.randomUUID();

  /** The exit status and what went to standard error. */
  private record Run(int status, String err) {}

  private Run kavro(String... args) {
    StringWriter err = new StringWriter();
    int status = Kavro.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), args);
    return new Run(status, err.toString());
  }

  @Test
  void imports_notADirectory_namesTheOption() throws Exception {
    Path order = Files.writeString(dir.resolve("order.avsc"), ORDER);
    Path missing = dir.resolve("nowhere");

    Run run = kavro("schema", "check", "--subject", "orders-value", "--schema", order.toString(), "--imports",
        missing.toString(), "--schema-registry-url", registry);

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("kavro: --imports " + missing + " is not a directory\n");
  }

  @Test
  void aTypeNeitherSourceDefines_namesBothOptions() throws Exception {
    Path imports = Files.createDirectories(dir.resolve("imports"));
    Path order = Files.writeString(dir.resolve("order.avsc"), ORDER);

    Run run = kavro("schema", "register", "--subject", "orders-value", "--schema", order.toString(), "--imports",
        imports.toString(), "--schema-registry-url", registry);

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("kavro: " + order.toAbsolutePath().normalize() + " uses com.acme.Address, which "
        + "neither --imports nor a --reference defines\n");
  }

  @Test
  void aReferenceToAVersionWithoutTheType_namesTheOption() throws Exception {
    Path address = Files.writeString(dir.resolve("address.avsc"), """
        {"type":"record","name":"Address","namespace":"com.acme","fields":[{"name":"city","type":"string"}]}""");
    assertThat(kavro("schema", "register", "--subject", "addresses", "--schema", address.toString(),
        "--schema-registry-url", registry).status()).isZero();
    Path order = Files.writeString(dir.resolve("order.avsc"), ORDER);

    Run run = kavro("schema", "register", "--subject", "orders-value", "--schema", order.toString(), "--reference",
        "com.acme.Nope=addresses:1", "--schema-registry-url", registry);

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).isEqualTo("kavro: --reference com.acme.Nope=addresses:1: that version does not define "
        + "com.acme.Nope; it defines com.acme.Address\n");
  }
}
