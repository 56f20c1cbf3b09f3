package io.kavro.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * The schema-repo server ({@code org.schemarepo:schema-repo-server:0.1.2}, the implementation of AVRO-1124) as a
 * child JVM bound to 127.0.0.1, with in-memory storage: Kavro's second registry protocol talks to it at
 * {@link #url()}.
 *
 * <p>The server runs on jars of its own ({@code SchemaRepoClassPath}: a pinned list, each jar checked against its
 * SHA-1, found in the local Maven repository or downloaded into it from Maven Central at the first start), never on
 * the test's class path. It knows one validator besides its built-in {@code repo.reject}: {@value #FULL_VALIDATOR},
 * Kavro's full-compatibility check ({@code io.kavro.testkit.schemarepo.FullCompatibilityValidator}); a subject
 * uses it when it is created with the form field {@code repo.validators=full}.
 *
 * <p>The server keeps nothing across a restart. To test an outage, {@link #close()} it, keep its {@link #port()},
 * and later {@link #start(int) start} an empty one on that port, which a client configured with {@link #url()}
 * reaches; {@link #restart()} does both at once.
 *
 * <p>The child is stopped by {@link #close()}, by a shutdown hook if this JVM exits without closing it, and by a
 * watchdog thread inside the child if this JVM is killed outright. It runs in a temporary working directory (the
 * server's logback configuration writes {@code logs/} there), deleted by {@link #close()}.
 */
public final class EmbeddedSchemaRepo implements AutoCloseable {
  /** The name the server knows Kavro's full-compatibility validator by: {@code repo.validators=full}. */
  public static final String FULL_VALIDATOR = "full";
  /** The validator's class, named, not loaded: its interface is on the server's class path only. */
  static final String FULL_VALIDATOR_CLASS = "io.kavro.testkit.schemarepo.FullCompatibilityValidator";
  /** The server's context path. */
  static final String CONTEXT_PATH = "/schema-repo";
  private static final String WHAT = "the schema-repo server";
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

  private final ChildJvm child;
  private final Path directory;
  private final int port;

  private EmbeddedSchemaRepo(ChildJvm child, Path directory, int port) {
    this.child = child;
    this.directory = directory;
    this.port = port;
  }

  /**
   * Starts the server on {@code port} (0 for any free port, with another try should the chosen one be taken before
   * the server binds it) and waits until it answers. The first start in a local Maven repository downloads the
   * server's jars (about 10 MB) into it.
   *
   * @throws IllegalStateException when a chosen port is taken, a jar cannot be downloaded, or the server does not
   *     answer within 60 s (the message ends with the tail of its log)
   */
  public static EmbeddedSchemaRepo start(int port) {
    List<Path> classPath = SchemaRepoClassPath.resolve();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return Ports.startOnFreePort(port, WHAT, p -> startOn(classPath, java, p));
  }

  private static EmbeddedSchemaRepo startOn(List<Path> classPath, Path java, int port) {
    Path directory = workingDirectory(port);
    ChildJvm child;
    try {
      // Guice 3.0's repackaged cglib defines classes through ClassLoader.defineClass by reflection.
      child = ChildJvm.start(WHAT, java, List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
          "--add-opens=java.base/java.lang=ALL-UNNAMED"), classPath, "org.schemarepo.server.RepositoryServer",
          List.of(directory.resolve("schema-repo.properties").toString()), Optional.of(directory));
    } catch (RuntimeException e) {
      Folders.deleteQuietly(directory);
      throw e;
    }
    EmbeddedSchemaRepo repo = new EmbeddedSchemaRepo(child, directory, port);
    try {
      repo.awaitReady();
    } catch (RuntimeException e) {
      repo.close();
      throw e;
    }
    return repo;
  }

  /** A temporary folder holding the server's configuration, for its working directory. */
  private static Path workingDirectory(int port) {
    Properties config = new Properties();
    config.setProperty("schema-repo.class", "org.schemarepo.InMemoryRepository");
    config.setProperty("schema-repo.cache", "org.schemarepo.InMemoryCache");
    config.setProperty("schema-repo.jetty.host", "127.0.0.1");
    config.setProperty("schema-repo.jetty.port", Integer.toString(port));
    config.setProperty("schema-repo.jetty.path", CONTEXT_PATH);
    // A restart on the same port should not wait out the default 3 s of graceful shutdown.
    config.setProperty("schema-repo.jetty.graceful-shutdown", "100");
    // Routing needs jul-to-slf4j's handler installed; the server's own logs go through logback anyway.
    config.setProperty("schema-repo.logging.route-jul-to-slf4j", "false");
    config.setProperty("schema-repo.validator." + FULL_VALIDATOR, FULL_VALIDATOR_CLASS);
    Path directory = null;
    try {
      directory = Files.createTempDirectory("kavro-schema-repo-");
      try (Writer out = Files.newBufferedWriter(directory.resolve("schema-repo.properties"),
          StandardCharsets.ISO_8859_1)) {
        config.store(out, "Kavro's EmbeddedSchemaRepo");
      }
      return directory;
    } catch (IOException e) {
      Folders.deleteQuietly(directory);
      throw new UncheckedIOException("cannot write the configuration of " + WHAT, e);
    }
  }

  /**
   * The server's base URL, {@code http://127.0.0.1:<port>/schema-repo}, without a trailing slash: a request goes to
   * {@code url() + "/" + segments}, e.g. {@code url() + "/t1/latest"}; the list of subjects is {@code url() + "/"}
   * (the bare {@code url()} answers with a redirect there).
   */
  public String url() {
    return "http://127.0.0.1:" + port + CONTEXT_PATH;
  }

  /** The server's port on 127.0.0.1. */
  public int port() {
    return port;
  }

  /**
   * Stops this server and starts an empty one on the same port, for a test of an outage: the subjects and schemas
   * are gone, {@link #url()} is the same. This instance is closed; use the one returned.
   *
   * @throws IllegalStateException when the port was taken meanwhile or the new server does not answer
   */
  public EmbeddedSchemaRepo restart() {
    close();
    return start(port);
  }

  private void awaitReady() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    // The list of subjects; without an Accept header the server fails on it with a 500.
    HttpRequest probe = HttpRequest.newBuilder(URI.create(url() + "/")).header("Accept", "text/plain")
        .timeout(Duration.ofSeconds(2)).build();
    child.await(() -> http.send(probe, HttpResponse.BodyHandlers.discarding()).statusCode() == 200
        ? Optional.of(Boolean.TRUE) : Optional.empty(), STARTUP_TIMEOUT);
  }

  /** Stops the child JVM, waits for it to exit and deletes its working directory. Idempotent. */
  @Override
  public void close() {
    child.close();
    Folders.deleteQuietly(directory);
  }
}
