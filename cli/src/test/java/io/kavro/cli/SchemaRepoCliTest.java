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
@org.junit.jupiter.api.extension.ExtendWith(io.kavro.testkit.KavroStackExtension.class)
class SchemaRepoCliTest {
  private static EmbeddedSchemaRepo repository;

  private final io.kavro.testkit.TestStack stack;

  SchemaRepoCliTest(io.kavro.testkit.TestStack stack) {
    this.stack = stack;
  }

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
    return kavroReading("", args);
  }

  private static Run kavroReading(String stdin, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--schema-registry-url", repository.url(), "--property", "schema.registry.api=schema-repo",
        "--property", "schema.repo.validators=" + EmbeddedSchemaRepo.FULL_VALIDATOR));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    java.io.InputStream original = System.in;
    System.setIn(new java.io.ByteArrayInputStream(stdin.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    try {
      int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
      return new Run(status, out.toString(), err.toString());
    } finally {
      System.setIn(original);
    }
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

  /** {@code --value-schema-id} names an id of the topic's subject: produced and consumed with that schema. */
  @Test
  void produceBySchemaId_readsTheIdOfTheTopicsSubject_thenConsumes() throws Exception {
    String topic = "cli-sr-" + System.nanoTime();
    Path v1 = file("row.avsc", "{\"type\":\"record\",\"name\":\"Row\",\"fields\":[{\"name\":\"id\","
        + "\"type\":\"long\"}]}");
    assertThat(kavro("schema", "register", "--subject", topic + "-value", "--schema", v1.toString()).status())
        .isZero();

    Run produced = kavroReading("{\"id\": 7}\n", "produce", "--topic", topic, "--value-schema-id", "0",
        "--bootstrap-server", stack.bootstrapServers());
    Run consumed = kavro("consume", "--topic", topic, "--from-beginning", "--max-messages", "1",
        "--bootstrap-server", stack.bootstrapServers());

    assertThat(produced.status()).as(produced.err()).isZero();
    assertThat(consumed.status()).as(consumed.err()).isZero();
    assertThat(consumed.out().strip()).isEqualTo("{\"id\":7}");
  }

  @Test
  void getById_withoutTheSubject_isAUsageErrorNamingIt() {
    Run run = kavro("schema", "get", "--id", "0");

    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).contains("--subject");
  }
}
