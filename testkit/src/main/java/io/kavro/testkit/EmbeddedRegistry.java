package io.kavro.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Apicurio Registry, from its Maven distribution, as a child JVM bound to 127.0.0.1, with in-memory
 * storage. Kavro reaches it through its Confluent-compatible API at {@link #url()}.
 *
 * <p>The child is stopped by {@link #close()}, by a shutdown hook if this JVM exits without closing it, and
 * by a watchdog thread inside the child if this JVM is killed outright.
 */
public final class EmbeddedRegistry implements AutoCloseable {
  /** System property that names an unpacked Apicurio Registry distribution to run. */
  public static final String HOME_PROPERTY = ApicurioDistribution.HOME_PROPERTY;
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

  private final Process process;
  private final int port;
  private final Path log;
  private final Thread hook;

  private EmbeddedRegistry(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.hook = new Thread(process::destroyForcibly, "kavro-registry-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /**
   * Starts the registry on {@code port} (0 for any free port, with another try should the chosen one be taken
   * before the registry binds it) and waits until it answers.
   */
  public static EmbeddedRegistry start(int port) {
    return Ports.startOnFreePort(port, "the schema registry", EmbeddedRegistry::startOn);
  }

  private static EmbeddedRegistry startOn(int httpPort) {
    Path runner = runnerJar();
    Path watchdog = codeLocation();
    Path log;
    Process process;
    try {
      log = Files.createTempFile("kavro-registry-", ".log");
      String mainClass;
      try (JarFile jar = new JarFile(runner.toFile())) {
        mainClass = jar.getManifest().getMainAttributes().getValue("Main-Class");
      }
      String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
      List<String> command = List.of(javaBin, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
          "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + httpPort,
          "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.log.level=WARN",
          "-cp", runner + java.io.File.pathSeparator + watchdog,
          ParentWatchdog.class.getName(), Long.toString(ProcessHandle.current().pid()), mainClass);
      process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the schema registry from " + runner, e);
    }
    EmbeddedRegistry registry = new EmbeddedRegistry(process, httpPort, log);
    try {
      registry.awaitReady();
    } catch (RuntimeException e) {
      registry.close();
      throw e;
    }
    return registry;
  }

  /** Kavro's {@code schema.registry.url} for this registry. */
  public String url() {
    return "http://127.0.0.1:" + port + "/apis/ccompat/v7";
  }

  public int port() {
    return port;
  }

  private void awaitReady() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpRequest probe = HttpRequest.newBuilder(URI.create(url() + "/subjects")).timeout(Duration.ofSeconds(2))
        .build();
    long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        String tail = tail();
        IllegalStateException exited = new IllegalStateException("the schema registry exited with status "
            + process.exitValue() + " during startup; its log: " + tail);
        // Quarkus: "Port N seems to be in use by another process."
        if (tail.contains("seems to be in use") || tail.contains("Address already in use")) {
          exited.initCause(new BindException("port " + port + " on 127.0.0.1 is already in use"));
        }
        throw exited;
      }
      try {
        if (http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the schema registry", e);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for the schema registry", e);
      }
    }
    throw new IllegalStateException("the schema registry did not answer on " + url() + " within "
        + STARTUP_TIMEOUT.toSeconds() + " s; its log: " + tail());
  }

  private String tail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  /** Stops the child JVM and waits for it to exit. Idempotent. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is already shutting down; the hook runs anyway
    }
    try {
      Files.deleteIfExists(log);
    } catch (IOException e) {
      // leftover temp file
    }
  }

  private static Path runnerJar() {
    Path home = home();
    try (Stream<Path> files = Files.list(home)) {
      return files.filter(p -> p.getFileName().toString().endsWith("-runner.jar")).findFirst()
          .orElseThrow(() -> new IllegalStateException("no *-runner.jar in " + home));
    } catch (IOException e) {
      throw new IllegalStateException("the Apicurio Registry distribution is missing at " + home
          + ": set -D" + HOME_PROPERTY + " to an unpacked distribution", e);
    }
  }

  private static Path home() {
    return ApicurioDistribution.home();
  }

  private static Path codeLocation() {
    try {
      return Path.of(ParentWatchdog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
