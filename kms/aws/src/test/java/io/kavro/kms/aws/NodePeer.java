package io.kavro.kms.aws;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * tests/js-peer/peer.js (Confluent's JavaScript client, {@code @confluentinc/schemaregistry} 1.10.1) run with an
 * environment of the test's: the AWS SDK's credentials and endpoint variables, as a user of that client sets them.
 * The test is skipped when {@code node} is not on the PATH; the peer's packages are installed ({@code npm ci})
 * when missing. The folder is the system property {@code kavro.jsPeer}, else {@code ../../tests/js-peer}.
 */
final class NodePeer {
  /** Variables of the AWS SDK that the test's environment must not pass on to the peer. */
  private static final List<String> AWS_VARIABLES = List.of("AWS_PROFILE", "AWS_ROLE_ARN", "AWS_SESSION_TOKEN",
      "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ENDPOINT_URL", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE");

  /** What peer.js did. */
  record Run(int exitCode, String stdout, String stderr) {
    /** The line it printed, after checking that it succeeded. */
    String line() {
      if (exitCode != 0) {
        throw new AssertionError("peer.js failed with exit code " + exitCode + ": " + stderr);
      }
      return stdout.strip();
    }
  }

  private final Path node;
  private final Path folder;

  private NodePeer(Path node, Path folder) {
    this.node = node;
    this.folder = folder;
  }

  /** The peer, or the calling test is skipped when {@code node} is not on the PATH. */
  static NodePeer require() throws IOException, InterruptedException {
    Path node = onPath("node");
    assumeTrue(node != null, "node is not on the PATH: the tests against Confluent's JavaScript client are skipped");
    Path folder = Path.of(System.getProperty("kavro.jsPeer", "../../tests/js-peer")).toAbsolutePath().normalize();
    if (!Files.isDirectory(folder.resolve("node_modules/@confluentinc/schemaregistry"))) {
      Path npm = onPath("npm");
      if (npm == null) {
        throw new IllegalStateException("node is on the PATH but npm is not: cannot install the JS peer in " + folder);
      }
      Run install = run(new ProcessBuilder(npm.toString(), "ci", "--no-audit", "--no-fund", "--prefer-offline")
          .directory(folder.toFile()), 10);
      if (install.exitCode() != 0) {
        throw new IllegalStateException("npm ci in " + folder + " failed: " + install.stdout() + install.stderr());
      }
    }
    return new NodePeer(node, folder);
  }

  /** Runs {@code node peer.js args...} with these environment variables over the test's, for at most a minute. */
  Run run(Map<String, String> environment, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(node.toString(), "peer.js"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
    AWS_VARIABLES.forEach(builder.environment()::remove);
    builder.environment().put("AWS_EC2_METADATA_DISABLED", "true");
    builder.environment().putAll(environment);
    return run(builder, 1);
  }

  private static Run run(ProcessBuilder builder, int minutes) throws IOException, InterruptedException {
    Process process = builder.start();
    process.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    if (!process.waitFor(minutes, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      throw new AssertionError(builder.command() + " did not end within " + minutes + " minute(s)");
    }
    return new Run(process.exitValue(), out.join(), err.join());
  }

  private static String read(InputStream in) {
    try (in) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  private static Path onPath(String program) {
    String path = System.getenv("PATH");
    if (path == null) {
      return null;
    }
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Path.of(dir, program);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    return null;
  }
}
