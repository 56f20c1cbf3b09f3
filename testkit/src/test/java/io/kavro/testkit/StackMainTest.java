package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Issue 37, item 9: {@code kavro stack --help} answers as every other command does, the ports are the same on every
 * run unless given, and a taken one is an error naming it and its option, before anything starts. No test here
 * needs 9092 or 8081 to be free: each gives its ports.
 */
class StackMainTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int stack(String... args) throws InterruptedException {
    CountDownLatch stopAtOnce = new CountDownLatch(0);
    return StackMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), stopAtOnce);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void help_listsTheOptionsAndTheirFixedDefaults_exit0() throws Exception {
    assertThat(stack("--help")).isZero();
    assertThat(out()).startsWith("Usage: kavro stack [--kafka-port N] [--registry-port N] [-h]")
        .contains("--kafka-port N      Broker port (default: 9092; 0 for any free port).")
        .contains("--registry-port N   Registry port (default: 8081; 0 for any free port).")
        .contains("-h, --help");
    assertThat(err()).isEmpty();

    out.reset();
    assertThat(stack("-h")).isZero();
    assertThat(out()).contains("--kafka-port N");
  }

  @Test
  void takenKafkaPort_oneLineNamingThePortAndItsOption_exit1_nothingStarted() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();

      assertThat(stack("--kafka-port", Integer.toString(port), "--registry-port", "0")).isEqualTo(1);

      assertThat(err()).isEqualTo("kavro stack: port " + port + " on 127.0.0.1 is already in use, so the Kafka "
          + "broker cannot have it: stop what holds it, or choose another port with --kafka-port N (0 for any "
          + "free port)" + System.lineSeparator());
      assertThat(out()).isEmpty();
    }
  }

  @Test
  void takenRegistryPort_namesTheRegistryAndItsOption_beforeTheBrokerStarts() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();

      assertThat(stack("--kafka-port", "0", "--registry-port", Integer.toString(port))).isEqualTo(1);

      assertThat(err()).contains("port " + port + " on 127.0.0.1 is already in use, so the schema registry")
          .contains("--registry-port N");
      assertThat(out()).isEmpty();
    }
  }

  @Test
  void usageErrors_exit2_withTheOptions() throws Exception {
    assertThat(stack("--kafka-prot", "1")).isEqualTo(2);
    assertThat(err()).contains("unknown option '--kafka-prot'").contains("--help");
    assertThat(stack("--kafka-port")).isEqualTo(2);
    assertThat(err()).contains("--kafka-port needs a port");
    assertThat(stack("--registry-port", "70000")).isEqualTo(2);
    assertThat(err()).contains("--registry-port must be a port from 0 to 65535, was '70000'");
    assertThat(stack("--kafka-port", "18081", "--registry-port", "18081")).isEqualTo(2);
    assertThat(err()).contains("both 18081");
    assertThat(out()).isEmpty();
  }
}
