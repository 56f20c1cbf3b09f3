package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.testkit.EmbeddedSchemaRepo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The console tool's {@code schema} commands on schema-repo 0.1.2 (the real server in a child JVM), with
 * {@code --property schema.registry.api=schema-repo}: its ids count per subject, so an id is read with its subject.
 */
class SchemaRepoCliTest {
  private static EmbeddedSchemaRepo repository;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() {
    repository = EmbeddedSchemaRepo.start(0);
  }

  @AfterAll
  static void stop() {
    repository.close();
  }

  private record Run(int status, String out, String err) {}

  private static Run kavro(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--schema-registry-url", repository.url(), "--property", "schema.registry.api=schema-repo",
        "--property", "schema.repo.validators=" + EmbeddedSchemaRepo.FULL_VALIDATOR));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
    return new Run(status, out.toString(), err.toString());
  }

  private Path file(String name, String schema) throws Exception {
    return Files.writeString(dir.resolve(name), schema);
  }

  @Test
  void registerGetVersionsAndAnIncompatibleSchema() throws Exception {
    String subject = "cli-" + System.nanoTime() + "-value";
    Path v1 = file("v1.avsc", "{\"type\":\"record\",\"name\":\"Row\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}");
    Path v2 = file("v2.avsc", "{\"type\":\"record\",\"name\":\"Row\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"},"
        + "{\"name\":\"note\",\"type\":\"string\",\"default\":\"\"}]}");
    Path broken = file("broken.avsc", "{\"type\":\"record\",\"name\":\"Row\",\"fields\":[{\"name\":\"id\","
        + "\"type\":\"string\"}]}");

    assertThat(kavro("schema", "register", "--subject", subject, "--schema", v1.toString()).status()).isZero();
    assertThat(kavro("schema", "register", "--subject", subject, "--schema", v2.toString()).status()).isZero();
    Run refused = kavro("schema", "register", "--subject", subject, "--schema", broken.toString());

    assertThat(refused.status()).isNotZero();
    assertThat(refused.err()).contains("Row.id");
    assertThat(kavro("schema", "versions", "--subject", subject).out().strip()).isEqualTo("[1,2]");
    Run byId = kavro("schema", "get", "--subject", subject, "--id", "1");
    assertThat(byId.status()).isZero();
    assertThat(byId.out()).contains("\"id\":1").contains("\"note\"");
    assertThat(kavro("schema", "get", "--subject", subject).out()).contains("\"version\":2").contains("\"id\":1");
    assertThat(kavro("schema", "subjects").out()).contains(subject);
  }

  @Test
  void getById_withoutTheSubject_isAUsageErrorNamingIt() {
    Run run = kavro("schema", "get", "--id", "0");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--subject");
  }
}
