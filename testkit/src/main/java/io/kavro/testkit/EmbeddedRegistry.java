package io.kavro.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
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

  private final ChildJvm child;
  private final int port;

  private EmbeddedRegistry(ChildJvm child, int port) {
    this.child = child;
    this.port = port;
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
    String mainClass;
    try (JarFile jar = new JarFile(runner.toFile())) {
      mainClass = jar.getManifest().getMainAttributes().getValue("Main-Class");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the main class of " + runner, e);
    }
    // Apicurio 3's management interface gets a port of its own (any free one) on loopback too; its runner
    // jar asks for opens and native access in its manifest, which only -jar reads.
    ChildJvm child = ChildJvm.start("the schema registry", java, List.of("-Xmx320m", "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1", "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + httpPort,
        "-Dquarkus.management.host=127.0.0.1", "-Dquarkus.management.port=0", "-Dquarkus.log.level=WARN"),
        List.of(runner), mainClass, List.of());
    EmbeddedRegistry registry = new EmbeddedRegistry(child, httpPort);
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
    child.await(() -> http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200
        ? Optional.of(Boolean.TRUE) : Optional.empty(), STARTUP_TIMEOUT);
  }

  /** Stops the child JVM and waits for it to exit. Idempotent. */
  @Override
  public void close() {
    child.close();
  }

  private static Path runnerJar(Path home, String property) {
    return ApicurioDistribution.runner(home).orElseThrow(() -> new IllegalStateException("no Apicurio Registry "
        + "distribution (a *-runner.jar or quarkus-run.jar) at " + home + ": set -D" + property
        + " to an unpacked distribution"));
  }
}
