package io.kavro.examples;

import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The demo's main entry point against the shared stack, so that the demo cannot rot. */
@ExtendWith(KavroStackExtension.class)
class DemoEndToEndTest {
  private final TestStack stack;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  DemoEndToEndTest(TestStack stack) {
    this.stack = stack;
  }

  private int run(String... args) {
    return Demo.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void demo_runsEveryScenarioAndPrintsTheSummary() throws Exception {
    java.util.Set<String> before = streamsFolders();
    int status = run("--bootstrap-servers", stack.bootstrapServers(), "--schema-registry-url", stack.registryUrl(),
        "--records", "2000");

    String printed = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(printed)
        .contains("== 1. Generic records", "== 2. Generated SpecificRecord", "== 3. A plain Java record",
            "== 4. Schema evolution", "== 5. Kafka Streams", "== 6. A larger batch", "== Summary")
        .containsPattern("registered: subject kavro-demo-\\w+-users-value, version 1, id \\d+")
        .containsPattern("00 00 00 00 [0-9a-f]{2} \\| ")
        .contains("\"country\": \"unknown\"")
        .contains("the registry rejected the schema as incompatible")
        .contains("wrote 3 summaries")
        .contains("consumed 2,000 / 2,000 (100%)")
        .contains("records produced:          2,019")
        .contains("records consumed:          2,019")
        .contains("Demo finished: every record written was read back.");
    // Issue 25, item 13: the Streams scenario's state folder goes with it (each run left one in the temp folder).
    assertThat(streamsFolders()).isEqualTo(before);
  }

  private static java.util.Set<String> streamsFolders() throws java.io.IOException {
    try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(
        java.nio.file.Path.of(System.getProperty("java.io.tmpdir")))) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("kavro-demo-streams"))
          .collect(java.util.stream.Collectors.toSet());
    }
  }

  @Test
  void unreachableRegistry_clearMessageAndExit1() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    long start = System.nanoTime();

    int status = run("--bootstrap-servers", stack.bootstrapServers(), "--schema-registry-url",
        "http://127.0.0.1:" + closed + "/apis/ccompat/v7");

    assertThat(status).isEqualTo(1);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("Demo failed: cannot reach the schema registry at http://127.0.0.1:" + closed);
  }
}
