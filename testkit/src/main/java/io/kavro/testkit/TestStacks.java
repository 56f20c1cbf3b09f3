package io.kavro.testkit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts a {@link TestStack}: Testcontainers (Kafka and Apicurio images) when a Docker engine answers,
 * otherwise {@link LocalStack} (a KRaft broker, in this JVM when its kafka-clients is the broker's, and Apicurio
 * in a child JVM). The system property {@code kavro.stack} forces a choice: {@code containers}, {@code local},
 * {@code external} (a broker and a registry already running, at {@code -Dkavro.bootstrap.servers} and
 * {@code -Dkavro.registry.url}, or {@code KAVRO_BOOTSTRAP_SERVERS} and {@code KAVRO_SCHEMA_REGISTRY_URL}), or
 * {@code auto} (the default).
 */
public final class TestStacks {
  /** The system property that chooses the stack. */
  public static final String STACK_PROPERTY = "kavro.stack";

  private static final Logger log = LoggerFactory.getLogger(TestStacks.class);

  private TestStacks() {}

  /**
   * A stack, as {@code kavro.stack} says.
   *
   * @throws IllegalArgumentException for a {@code kavro.stack} that is not auto, local, containers or external
   * @throws IllegalStateException with {@code external}, when an address is missing or does not answer
   */
  public static TestStack start() {
    String choice = System.getProperty(STACK_PROPERTY, "auto").trim();
    String kind = switch (choice) {
      case "containers", "local", "external" -> choice;
      case "auto", "" -> dockerAvailable() ? "containers" : "local";
      default -> throw new IllegalArgumentException("-D" + STACK_PROPERTY + " must be auto, local, containers or "
          + "external, was '" + choice + "'");
    };
    log.info("Test stack: {} ({}={})", switch (kind) {
      case "containers" -> "Testcontainers (Docker)";
      case "external" -> "external (a broker and a registry already running)";
      default -> "local (KRaft broker, Apicurio child JVM)";
    }, STACK_PROPERTY, choice);
    return switch (kind) {
      case "containers" -> new ContainersStack();
      case "external" -> ExternalStack.connect(System::getProperty, System::getenv);
      default -> LocalStack.start();
    };
  }

  /**
   * Whether a Docker engine answers. Without a socket or {@code DOCKER_HOST} (or Testcontainers' own settings),
   * Testcontainers is not asked at all: it logs an ERROR for every strategy that finds nothing, on what is the
   * normal path of a machine without Docker.
   */
  private static boolean dockerAvailable() {
    String home = System.getProperty("user.home", "");
    boolean hint = System.getenv("DOCKER_HOST") != null
        || java.nio.file.Files.exists(java.nio.file.Path.of("/var/run/docker.sock"))
        || java.nio.file.Files.exists(java.nio.file.Path.of(home, ".docker", "run", "docker.sock"))
        || java.nio.file.Files.exists(java.nio.file.Path.of(home, ".testcontainers.properties"));
    if (!hint) {
      return false;
    }
    try {
      return org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }
}
