package io.kavro.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs tests/js-peer/peer.js, Confluent's JavaScript schema registry client as a command-line peer (see its
 * header for the commands). A test that needs it calls {@link #require()}, which skips the test, saying why,
 * only when {@code node} is not on the PATH. It installs the peer's npm packages first ({@code npm ci}, pinned by
 * package-lock.json) when they are missing or older than the lock file, once per JVM and under a file lock; an
 * install that fails (no npm, no network and no npm cache) fails the test with npm's message.
 *
 * <p>Commands without an environment of their own go to one {@code node peer.js serve} kept for the JVM, which
 * answers each as a process of its own would have, from a new process's state (see tests/js-peer/README.md).
 *
 * <p>Shared with other modules' tests through the testkit's test-jar ({@code <type>test-jar</type>}); the peer's
 * folder is the system property {@code kavro.jsPeer}, else {@code ../tests/js-peer} (relative to the module).
 */
public final class JsPeer {
  /**
   * What peer.js did: its exit code and its output.
   *
   * @param exitCode 0 on success, 1 when the client failed (stderr holds "error: &lt;class&gt;: &lt;message&gt;")
   * @param stdout what it printed
   * @param stderr what it printed on stderr
   */
  public record Run(int exitCode, String stdout, String stderr) {
    /** The single line the command printed, after checking that it succeeded. */
    public String line() {
      if (exitCode != 0) {
        throw new AssertionError("peer.js failed with exit code " + exitCode + ": " + stderr);
      }
      return stdout.strip();
    }
  }

  private final Path node;
  private final Path folder;

  private JsPeer(Path node, Path folder) {
    this.node = node;
    this.folder = folder;
  }

  /** The peer, or the calling test is skipped when {@code node} is not on the PATH. */
  public static JsPeer require() {
    Path node = onPath("node");
    assumeTrue(node != null, "node is not on the PATH: the tests against Confluent's JavaScript client are skipped");
    Path folder = Path.of(System.getProperty("kavro.jsPeer", "../tests/js-peer")).toAbsolutePath().normalize();
    install(folder);
    return new JsPeer(node, folder);
  }

  private static boolean installed;

  /** Runs {@code npm ci} in the folder unless node_modules is as new as package-lock.json. */
  private static synchronized void install(Path folder) {
    if (installed) {
      return;
    }
    Path lock = folder.resolve("package-lock.json");
    Path hidden = folder.resolve("node_modules/.package-lock.json");
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(folder.resolve(
            "node_modules.lock"), java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
        java.nio.channels.FileLock held = channel.lock()) {
      if (!Files.exists(hidden) || Files.getLastModifiedTime(hidden).compareTo(Files.getLastModifiedTime(lock)) < 0) {
        Path npm = onPath("npm");
        if (npm == null) {
          throw new IllegalStateException("node is on the PATH but npm is not: cannot install the JS peer in "
              + folder);
        }
        long start = System.nanoTime();
        Process process = new ProcessBuilder(npm.toString(), "ci", "--no-audit", "--no-fund", "--prefer-offline")
            .directory(folder.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
          process.destroyForcibly();
          throw new IllegalStateException("npm ci in " + folder + " did not end within 10 minutes");
        }
        if (process.exitValue() != 0) {
          throw new IllegalStateException("npm ci in " + folder + " failed (exit code " + process.exitValue()
              + "): " + output.join());
        }
        System.out.printf("JsPeer: npm ci in %s took %d ms%n", folder, (System.nanoTime() - start) / 1_000_000);
      }
      installed = true;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("Cannot install the JS peer in " + folder, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while installing the JS peer in " + folder, e);
    }
  }

  /**
   * Runs {@code peer.js args...} for at most a minute, as {@code node peer.js args...} in the peer's folder would:
   * through one {@code node peer.js serve} kept for the JVM (Node's start-up, most of a command's time, paid once),
   * which starts each command from the state a new process has and answers with the exit code and output a process
   * of its own would have given.
   */
  public Run run(String... args) throws IOException, InterruptedException {
    synchronized (JsPeer.class) {
      if (server == null || !server.process.isAlive()) {
        server = Server.start(node, folder);
      }
      try {
        return server.ask(args);
      } catch (IOException | AssertionError e) {
        server.process.destroyForcibly();
        server = null;
        throw e;
      }
    }
  }

  /** The peer serving this JVM's commands without an environment of their own, or null before the first. */
  private static Server server;

  /** A {@code node peer.js serve}: a command a line on its stdin, its answer a line on its stdout. */
  private static final class Server {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
        new com.fasterxml.jackson.databind.ObjectMapper();

    final Process process;
    private final java.io.Writer commands;
    private final java.io.BufferedReader answers;

    private Server(Process process) {
      this.process = process;
      this.commands = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      this.answers = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8));
    }

    static Server start(Path node, Path folder) throws IOException {
      Process process = new ProcessBuilder(node.toString(), "peer.js", "serve").directory(folder.toFile())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "js-peer-stop"));
      return new Server(process);
    }

    Run ask(String... args) throws IOException, InterruptedException {
      commands.write(JSON.writeValueAsString(args) + "\n");
      commands.flush();
      CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
        try {
          return answers.readLine();
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      String answer;
      try {
        answer = line.get(60, TimeUnit.SECONDS);
      } catch (java.util.concurrent.TimeoutException e) {
        throw new AssertionError("peer.js " + String.join(" ", args) + " did not end within 60 s");
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IOException("peer.js serve failed on " + String.join(" ", args), e.getCause());
      }
      if (answer == null) {
        throw new IOException("peer.js serve ended (exit code " + process.waitFor() + ") on "
            + String.join(" ", args));
      }
      com.fasterxml.jackson.databind.JsonNode run = JSON.readTree(answer);
      return new Run(run.get("exitCode").asInt(), run.get("stdout").asText(), run.get("stderr").asText());
    }
  }

  /**
   * Runs {@code node peer.js args...}, a process of its own, in the peer's folder with an environment of the
   * test's, for at most a minute:
   * the process's environment is the test's, then edited by {@code environment} (put the variables a user of the
   * JavaScript client sets, such as an SDK's endpoint and credentials; remove those of the test's own that must
   * not reach it).
   */
  public Run run(Consumer<Map<String, String>> environment, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(node.toString(), "peer.js"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(folder.toFile());
    environment.accept(builder.environment());
    Process process = builder.start();
    process.getOutputStream().close();
    CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
    CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("peer.js " + String.join(" ", args) + " did not end within 60 s");
    }
    return new Run(process.exitValue(), out.join(), err.join());
  }

  private static String read(java.io.InputStream in) {
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
