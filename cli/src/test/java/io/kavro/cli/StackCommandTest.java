package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.testkit.StackMain;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 9: {@code kavro stack --help} answers in the console jar too, with the options and the fixed
 * default ports of the stack that {@code cli/bin/kavro stack} runs (the testkit's {@link StackMain}).
 */
class StackCommandTest {

  @Test
  void stackHelp_listsThePortOptionsWithTheStacksDefaults_exit0() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    int status = Kavro.run(new PrintWriter(out, true), new PrintWriter(err, true), "stack", "--help");

    assertThat(status).isZero();
    assertThat(err.toString()).isEmpty();
    assertThat(out.toString()).startsWith("Usage: kavro stack [-h] [--kafka-port=N] [--registry-port=N]")
        .contains("--kafka-port=N      Broker port (default: " + StackMain.KAFKA_PORT + "; 0 for any free port).")
        .contains("--registry-port=N   Registry port (default: " + StackMain.REGISTRY_PORT
            + "; 0 for any free port).")
        .contains("-h, --help");
  }

  @Test
  void stack_throughTheJar_saysItRunsThroughTheLauncher_exit2() {
    StringWriter err = new StringWriter();

    int status = Kavro.run(new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), "stack");

    assertThat(status).isEqualTo(2);
    assertThat(err.toString()).contains("kavro stack runs through cli/bin/kavro");
  }
}
