package io.kavro.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The demo's command line and its failures that need no running Kafka. */
class DemoTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Demo.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  @Test
  void help_printsUsage() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--bootstrap-servers").contains("--schema-registry-url");
  }

  @Test
  void badArguments_exit2WithReason() {
    assertThat(run("--frobnicate")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("unknown argument '--frobnicate'").contains("Usage");
    assertThat(run("--bootstrap-servers", "127.0.0.1:9092")).isEqualTo(2);
    assertThat(run("--records", "many")).isEqualTo(2);
  }

  @Test
  void options_parsed() {
    DemoOptions options = DemoOptions.parse("--bootstrap-servers", "k:9092", "--schema-registry-url", "http://r:8081",
        "--records", "10");

    assertThat(options.external()).isTrue();
    assertThat(options.records()).isEqualTo(10);
    assertThatThrownBy(() -> DemoOptions.parse("--kafka-port", "70000")).hasMessageContaining("between 1 and 65535");
  }

  @Test
  void unreachableKafka_clearMessageAndExit1WithinThirtySeconds() throws Exception {
    long start = System.nanoTime();

    int status = run("--bootstrap-servers", "127.0.0.1:" + closedPort(), "--schema-registry-url",
        "http://127.0.0.1:" + closedPort());

    assertThat(status).isEqualTo(1);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("Demo failed: cannot reach Kafka at 127.0.0.1:")
        .contains("every address refused the connection"); // at once: not the Admin client's 12 s wait
  }

  /** A server the refusal check cannot tell about (no such host) is the Admin client's to check, as before. */
  @Test
  void unresolvableKafka_leftToTheAdminClient_clearMessageAndExit1() throws Exception {
    int status = run("--bootstrap-servers", "no-such-host.invalid:9092", "--schema-registry-url",
        "http://127.0.0.1:" + closedPort());

    assertThat(status).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("Demo failed: cannot reach Kafka at no-such-host.invalid:9092 within 12 s")
        .doesNotContain("refused the connection");
  }

  @Test
  void takenPort_clearMessage() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int status = run("--kafka-port", Integer.toString(taken.getLocalPort()));

      assertThat(status).isEqualTo(1);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains("port " + taken.getLocalPort() + " on 127.0.0.1, wanted for the Kafka broker, is already in use");
    }
  }
}
