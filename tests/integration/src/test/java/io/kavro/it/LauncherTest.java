package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code cli/bin/kavro} runs the shaded jar that {@code mvn package} built, as a user runs it. */
@ExtendWith(KavroStackExtension.class)
class LauncherTest {
  private final TestStack stack;

  LauncherTest(TestStack stack) {
    this.stack = stack;
  }

  private record Result(int status, String out) {}

  /**
   * The launcher's JVM options (its {@code KAVRO_OPTS}) in these tests: C1 and the serial collector, a run of a
   * second or two on two cores, as the testkit's child JVMs.
   */
  private static final String FAST_START = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";

  private static Result kavro(String... args) throws IOException, InterruptedException {
    return kavro(java.util.Map.of(), args);
  }

  /** Runs bin/kavro with {@link #FAST_START}, unless {@code env} sets KAVRO_OPTS (empty: unset, as users run it). */
  private static Result kavro(java.util.Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(
        List.of("sh", Path.of("..", "..", "cli", "bin", "kavro").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    builder.environment().put("KAVRO_OPTS", FAST_START);
    builder.environment().putAll(env);
    if (builder.environment().get("KAVRO_OPTS").isEmpty()) {
      builder.environment().remove("KAVRO_OPTS");
    }
    Process process = builder.start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), out);
  }

  @Test
  void launcher_runsTheJar_withItsExitStatus() throws Exception {
    Result version = kavro(java.util.Map.of("KAVRO_OPTS", ""), "--version"); // as users run it: no KAVRO_OPTS
    assertThat(version.status()).as(version.out()).isZero();
    assertThat(version.out()).contains("kavro");

    Result subjects = kavro("schema", "subjects", "--schema-registry-url", stack.registryUrl());
    assertThat(subjects.status()).as(subjects.out()).isZero();
    assertThat(subjects.out().strip()).startsWith("[");

    assertThat(kavro("consume").status()).isEqualTo(2);
  }

  /**
   * Issue 25, item 2: Kafka's own warnings show on stderr, as in Kafka's console tools, beside the tool's one-line
   * error; {@code KAVRO_LOG_LEVEL=ERROR} quiets them.
   */
  @Test
  void kafkasWarningsShow_unlessQuieted() throws Exception {
    String[] args = {"consume", "--bootstrap-server", "127.0.0.1:1", "--topic", "t",
        "--schema-registry-url", stack.registryUrl(), "--timeout-ms", "1000"};
    Result shown = kavro(args);
    assertThat(shown.status()).as(shown.out()).isEqualTo(1);
    assertThat(shown.out()).contains("WARN  NetworkClient").contains("127.0.0.1:1")
        .contains("kavro: cannot reach the Kafka broker at 127.0.0.1:1");
    assertThat(shown.out()).doesNotContain("INFO ");

    Result quiet = kavro(java.util.Map.of("KAVRO_LOG_LEVEL", "ERROR"), args);
    assertThat(quiet.status()).isEqualTo(1);
    assertThat(quiet.out()).doesNotContain("WARN").contains("kavro: cannot reach the Kafka broker");
  }
  /** Issue 37, item 9: {@code kavro stack --help} through the launcher, as every other command has it. */
  @Test
  void stackHelp_throughTheLauncher() throws Exception {
    Result help = kavro("stack", "--help");
    assertThat(help.status()).as(help.out()).isZero();
    assertThat(help.out()).startsWith("Usage: kavro stack").contains("--kafka-port N").contains("default: 9092")
        .contains("--registry-port N").contains("default: 8081");
  }

  /**
   * Issue 25, item 6: {@code kavro stack} starts a broker and a registry for manual use, whose registry defaults to
   * BACKWARD as Confluent's does, prints the export lines the tool reads, and stops cleanly on a signal.
   */
  @Test
  void stack_forManualUse_backwardByDefault_exportLines_stopsOnSignal() throws Exception {
    // Any free ports: the defaults (9092, 8081) need not be free where the tests run.
    ProcessBuilder stackCommand = new ProcessBuilder("sh", Path.of("..", "..", "cli", "bin", "kavro").toString(),
        "stack", "--kafka-port", "0", "--registry-port", "0")
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .redirectError(ProcessBuilder.Redirect.DISCARD);
    stackCommand.environment().put("KAVRO_OPTS", FAST_START);
    Process stackProcess = stackCommand.start();
    try {
      java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(
          stackProcess.getInputStream(), StandardCharsets.UTF_8));
      java.util.Map<String, String> exports = new java.util.HashMap<>();
      while (exports.size() < 2) {
        String line = lines.readLine();
        if (line == null) {
          break;
        }
        if (line.startsWith("export ")) {
          String[] pair = line.substring("export ".length()).split("=", 2);
          exports.put(pair[0], pair[1]);
        }
      }
      assertThat(exports).containsKeys("KAVRO_BOOTSTRAP_SERVERS", "KAVRO_SCHEMA_REGISTRY_URL");

      ProcessBuilder level = new ProcessBuilder("sh", Path.of("..", "..", "cli", "bin", "kavro").toString(), "schema",
          "compatibility").redirectErrorStream(true);
      level.environment().putAll(exports);
      level.environment().put("KAVRO_OPTS", FAST_START);
      Process tool = level.start();
      String answer = new String(tool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(tool.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(answer).contains("\"compatibility\":\"BACKWARD\"");

      java.util.concurrent.CompletableFuture<String> rest = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        StringBuilder text = new StringBuilder();
        try {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            text.append(line).append('\n');
          }
        } catch (IOException e) {
          text.append(e);
        }
        return text.toString();
      });
      // SIGTERM, as Ctrl-C's SIGINT: the shutdown hook stops the stack (Process.destroy would close its output too).
      stackProcess.toHandle().destroy();
      assertThat(stackProcess.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(rest.get(30, TimeUnit.SECONDS)).contains("# stopped");
    } finally {
      stackProcess.destroyForcibly();
    }
  }
}
