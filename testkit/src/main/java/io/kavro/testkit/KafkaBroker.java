package io.kavro.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.slf4j.LoggerFactory;

/**
 * The local stack's Kafka broker: {@link EmbeddedKafka} in this JVM when the kafka-clients on its class path is
 * the one the broker is built with, else {@link BrokerProcess}, the same broker in a child JVM of its own, so that
 * the test's clients keep the application's kafka-clients (3.0 to 4.4).
 */
interface KafkaBroker extends AutoCloseable {

  /** {@code 127.0.0.1:<port>}. */
  String bootstrapServers();

  /** Stops the broker and deletes its data. */
  @Override
  void close();

  /** Starts a broker on {@code port} (0 for any free port), where it can run. */
  static KafkaBroker start(int port) {
    String broker = StackBuild.property("kafka.version");
    String clients = clientsVersion();
    if (broker.equals(clients)) {
      return EmbeddedKafka.start(port);
    }
    LoggerFactory.getLogger(KafkaBroker.class).info("kafka-clients {} is on the class path and the broker needs {}: "
        + "the broker runs in a child JVM", clients, broker);
    return BrokerProcess.start(port);
  }

  /**
   * The version of the kafka-clients whose classes this JVM loads, from that jar's own
   * {@code kafka/kafka-version.properties} (Kafka's server jars have one too, and its class moved in 4.0), or
   * {@code unknown}.
   */
  private static String clientsVersion() {
    String entry = KafkaProducer.class.getName().replace('.', '/') + ".class";
    String location = String.valueOf(KafkaProducer.class.getClassLoader().getResource(entry));
    if (!location.endsWith(entry)) {
      return "unknown";
    }
    String root = location.substring(0, location.length() - entry.length());
    try (InputStream in = URI.create(root + "kafka/kafka-version.properties").toURL().openStream()) {
      Properties version = new Properties();
      version.load(in);
      return version.getProperty("version", "unknown");
    } catch (IOException | IllegalArgumentException e) {
      return "unknown";
    }
  }
}
