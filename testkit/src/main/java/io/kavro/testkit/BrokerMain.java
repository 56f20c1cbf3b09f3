package io.kavro.testkit;

import java.util.concurrent.CountDownLatch;

/**
 * The entry point of the broker's child JVM ({@link BrokerProcess}): {@code <port>} (0 for any free one). Starts
 * {@link EmbeddedKafka}, prints {@value #READY} and its address, and runs until the JVM is stopped, which stops
 * the broker and deletes its data. Runs on the broker's class path, not the test's.
 */
final class BrokerMain {
  /** The line that tells the parent the broker is up, followed by its address. */
  static final String READY = "kavro-broker-ready ";

  private BrokerMain() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedKafka kafka;
    try {
      kafka = EmbeddedKafka.start(Integer.parseInt(args[0]));
    } catch (RuntimeException | LinkageError e) {
      e.printStackTrace();
      System.exit(1); // Kafka's threads that did start would keep this JVM up
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(kafka::close, "kavro-broker-stop"));
    System.out.println(READY + kafka.bootstrapServers());
    System.out.flush();
    new CountDownLatch(1).await();
  }
}
