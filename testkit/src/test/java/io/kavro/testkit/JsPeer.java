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
 * answers each as a process of its own would have, from a new process's state (see tests/js-peer/README.md); when
 * the serve harness itself fails on a command (its reset, an unhandled rejection or an uncaught exception a command
 * left, an answer it could not write), {@link #run(String...)} throws {@link IllegalStateException} naming the
 * command, and the next command gets a new serve.
 *
 * <p>Shared with other modules' tests through the testkit's test-jar ({@code <type>test-jar</type>}); the peer's
 * folder is the system property {@code kavro.jsPeer}, else {@code ../tests/js-peer} (relative to the module).
 */
public final class JsPeer {
  /**
   * What peer.js did: its exit code and its output.
   *
   * @param exitCode 0 on success, 1 when the client failed (stderr holds "error: &lt;class&gt;: &lt;message&gt;"),
   *     2 on a usage error; a failure of peer.js serve's own harness is thrown, never returned
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

  /** The folders whose npm packages this JVM installed or found current. */
  private static final java.util.Set<Path> installed = new java.util.HashSet<>();

  /** Runs {@code npm ci} in the folder unless node_modules is as new as package-lock.json. */
  private static synchronized void install(Path folder) {
    if (installed.contains(folder)) {
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
        CompletableFuture<String> output = readAside(process.getInputStream(), "js-peer-npm-output");
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
      installed.add(folder);
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
      Server server = SERVERS.get(folder);
      if (server == null || !server.process.isAlive()) {
        if (!stopHookAdded) {
          Runtime.getRuntime().addShutdownHook(new Thread(JsPeer::stopServers, "js-peer-stop"));
          stopHookAdded = true;
        }
        server = Server.start(node, folder);
        SERVERS.put(folder, server);
      }
      try {
        return server.ask(args);
      } catch (IOException | InterruptedException | RuntimeException | Error e) {
        server.close();
        SERVERS.remove(folder);
        throw e;
      }
    }
  }

  /**
   * The peers serving this JVM's commands without an environment of their own, by the peer's folder (a test JVM
   * normally has one); changed under {@code JsPeer.class}. One shutdown hook, added with the first, stops them
   * (without that lock, which a command waiting for its answer may hold).
   */
  private static final Map<Path, Server> SERVERS = new java.util.concurrent.ConcurrentHashMap<>();

  /** Whether the shutdown hook that stops the serves was added; guarded by {@code JsPeer.class}. */
  private static boolean stopHookAdded;

  private static void stopServers() {
    SERVERS.values().forEach(Server::close);
  }

  /** The exit code of a serve answer when the harness, not the client, failed (peer.js SERVE_FAILED). */
  static final int SERVE_FAILED = 70;

  /**
   * How long a serve whose stdout ended may take to exit, while {@link JsPeer#run} holds {@code JsPeer.class}: 5 s; a
   * test of the bound shortens it.
   */
  static volatile long exitWaitMillis = 5000;

  /**
   * A {@code node peer.js serve}: a command a line on its stdin, its answer a line on its stdout, read by a daemon
   * thread of its own (a blocking read must not hold a thread of a shared pool) that ends when the process does.
   */
  private static final class Server {
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
        new com.fasterxml.jackson.databind.ObjectMapper();
    /** What the reader queues when the process's stdout ends or cannot be read. */
    private static final String END = new String("end of peer.js serve's stdout");

    final Process process;
    private final java.io.Writer commands;
    private final java.util.concurrent.BlockingQueue<String> answers = new java.util.concurrent.LinkedBlockingQueue<>();
    private long sent;

    private Server(Process process) {
      this.process = process;
      this.commands = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
      java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(
          process.getInputStream(), StandardCharsets.UTF_8));
      Thread reader = new Thread(() -> {
        try (lines) {
          for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            answers.add(line);
          }
        } catch (IOException e) {
          // the process ended or was stopped: END below tells ask
        } finally {
          answers.add(END);
        }
      }, "js-peer-serve-reader-" + process.pid());
      reader.setDaemon(true);
      reader.start();
    }

    static Server start(Path node, Path folder) throws IOException {
      Process process = new ProcessBuilder(node.toString(), "peer.js", "serve").directory(folder.toFile())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      return new Server(process);
    }

    /** Stops the process; its reader thread ends with its stdout. */
    void close() {
      process.destroyForcibly();
    }

    /**
     * How the process ended, once its stdout did: its exit code, or, when it lives on for longer than
     * {@link JsPeer#exitWaitMillis} (it closed its stdout, say), that it was stopped: never an unbounded wait under the
     * lock every command of the JVM takes.
     */
    private String ended() throws InterruptedException {
      long wait = exitWaitMillis;
      if (process.waitFor(wait, TimeUnit.MILLISECONDS)) {
        return "exit code " + process.exitValue();
      }
      process.destroyForcibly();
      return "its stdout ended but it did not exit within " + wait + " ms: stopped";
    }

    Run ask(String... args) throws IOException, InterruptedException {
      String command = String.join(" ", args);
      long seq = ++sent;
      commands.write(JSON.writeValueAsString(args) + "\n");
      commands.flush();
      String answer = answers.poll(60, TimeUnit.SECONDS);
      if (answer == null) {
        throw new AssertionError("peer.js " + command + " did not end within 60 s");
      }
      if (answer == END) {
        throw new IOException("peer.js serve ended (" + ended() + ") on " + command);
      }
      com.fasterxml.jackson.databind.JsonNode run;
      try {
        run = JSON.readTree(answer);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("peer.js serve answered command #" + seq + " (" + command
            + ") with a line that is not an answer: " + answer, e);
      }
      if (!run.path("seq").canConvertToLong() || run.path("seq").asLong() != seq) {
        throw new IllegalStateException("peer.js serve answered " + answer + " to command #" + seq + " (" + command
            + "): not that command's answer");
      }
      int exitCode = run.get("exitCode").asInt();
      String stderr = run.get("stderr").asText();
      if (exitCode == SERVE_FAILED) {
        throw new IllegalStateException("peer.js serve failed, not the client, on command #" + seq + " (" + command
            + "): " + stderr);
      }
      return new Run(exitCode, run.get("stdout").asText(), stderr);
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
    CompletableFuture<String> out = readAside(process.getInputStream(), "js-peer-stdout");
    CompletableFuture<String> err = readAside(process.getErrorStream(), "js-peer-stderr");
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("peer.js " + String.join(" ", args) + " did not end within 60 s");
    }
    return new Run(process.exitValue(), out.join(), err.join());
  }

  /**
   * Reads the stream to its end on a daemon thread of its own: a blocking read must not hold a worker of the shared
   * common pool (Caffeine's and the tests') for as long as a process runs.
   */
  private static CompletableFuture<String> readAside(java.io.InputStream in, String name) {
    CompletableFuture<String> text = new CompletableFuture<>();
    Thread thread = new Thread(() -> text.complete(read(in)), name);
    thread.setDaemon(true);
    thread.start();
    return text;
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
