package io.kavro.testkit;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@link EmbeddedKafka} in a child JVM whose class path is the broker's alone ({@link BrokerClassPath}): Kafka's
 * broker with the kafka-clients it is built with, and none of the test's jars. The test's clients, on whatever
 * kafka-clients the application has, reach it over the loopback interface.
 */
final class BrokerProcess implements KafkaBroker {
  private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(90);

  private final ChildJvm child;
  private final String bootstrapServers;

  private BrokerProcess(ChildJvm child, String bootstrapServers) {
    this.child = child;
    this.bootstrapServers = bootstrapServers;
  }

  /**
   * Starts the child on {@code port} (0: the child picks a free one, and tries another should it be taken before
   * the broker binds it) and waits until the broker is up.
   *
   * @throws IllegalStateException when a jar of the broker is missing from the local Maven repository, or the
   *     broker does not start; the message says which, with the end of the child's log
   */
  static BrokerProcess start(int port) {
    List<Path> classPath = BrokerClassPath.resolve();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    ChildJvm child = ChildJvm.start("the Kafka broker", java,
        List.of("-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"), classPath,
        BrokerMain.class.getName(), List.of(Integer.toString(port)));
    try {
      String address = child.await(() -> child.output().stream().filter(line -> line.startsWith(BrokerMain.READY))
          .map(line -> line.substring(BrokerMain.READY.length()).strip()).findFirst(), STARTUP_TIMEOUT);
      return new BrokerProcess(child, address);
    } catch (RuntimeException e) {
      child.close();
      throw e;
    }
  }

  @Override
  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** Stops the child JVM, whose shutdown stops the broker and deletes its data. Idempotent. */
  @Override
  public void close() {
    child.close();
  }
}
