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

  private static Result kavro(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of("sh", Path.of("..", "cli", "bin", "kavro").toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), out);
  }

  @Test
  void launcher_runsTheJar_withItsExitStatus() throws Exception {
    Result version = kavro("--version");
    assertThat(version.status()).as(version.out()).isZero();
    assertThat(version.out()).contains("kavro");

    Result subjects = kavro("schema", "subjects", "--schema-registry-url", stack.registryUrl());
    assertThat(subjects.status()).as(subjects.out()).isZero();
    assertThat(subjects.out().strip()).startsWith("[");

    assertThat(kavro("consume").status()).isEqualTo(2);
  }
}
