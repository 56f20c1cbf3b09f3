package io.kavro.testkit;

import java.io.File;
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
    Path runner = runnerJar(ApicurioDistribution.home(), HOME_PROPERTY);
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return Ports.startOnFreePort(port, "the schema registry", p -> startOn(runner, java, p));
  }

  /**
   * Starts Apicurio Registry 3 on {@code port} (0 for any free port) and waits until it answers. It needs
   * Java 21 or later: this JVM if it is one, else the JDK that {@code -Dkavro.java21.home},
   * {@code JAVA21_HOME} or {@code JAVA25_HOME} names, else one under {@code /usr/lib/jvm}. The distribution
   * is the one {@code -Dkavro.apicurio3.home} names, else the local Maven repository's (downloaded there
   * from Maven Central when missing), unpacked once into {@code ~/.cache/kavro}.
   *
   * @throws IllegalStateException when no Java 21 or later is found; the message says what to set
   */
  public static EmbeddedRegistry startApicurio3(int port) {
    Path java = Jdks.javaOfAtLeast(21).orElseThrow(() -> new IllegalStateException("Apicurio Registry 3 needs "
        + "Java 21 or later, and none was found: set -D" + Jdks.JAVA21_HOME_PROPERTY + " to a JDK 21+ folder"));
    Path runner = runnerJar(ApicurioDistribution.home3(), ApicurioDistribution.HOME3_PROPERTY);
    return Ports.startOnFreePort(port, "the schema registry", p -> startOn(runner, java, p));
  }

  private static EmbeddedRegistry startOn(Path runner, Path java, int httpPort) {
    Path watchdog = codeLocation();
    Path log;
    Process process;
    try {
      log = Files.createTempFile("kavro-registry-", ".log");
      String mainClass;
      try (JarFile jar = new JarFile(runner.toFile())) {
        mainClass = jar.getManifest().getMainAttributes().getValue("Main-Class");
      }
      // Apicurio 3's management interface gets a port of its own (any free one) on loopback too; its runner
      // jar asks for opens and native access in its manifest, which only -jar reads.
      List<String> command = List.of(java.toString(), "-Xmx320m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + httpPort,
          "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=0", "-Dquarkus.log.level=WARN",
          "-cp", runner + File.pathSeparator + watchdog,
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

  private static Path runnerJar(Path home, String property) {
    return ApicurioDistribution.runner(home).orElseThrow(() -> new IllegalStateException("no Apicurio Registry "
        + "distribution (a *-runner.jar or quarkus-run.jar) at " + home + ": set -D" + property
        + " to an unpacked distribution"));
  }

  private static Path codeLocation() {
    try {
      return Path.of(ParentWatchdog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
