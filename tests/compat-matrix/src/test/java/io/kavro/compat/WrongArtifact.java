package io.kavro.compat;

import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * Run in its own JVM by {@link CompatibilityMatrixTest}: builds a producer with {@code kavro-serde}'s serializer,
 * as an application on the wrong Kafka line would, and prints what that throws, each cause on a line.
 */
public final class WrongArtifact {
  /** The first line printed when the producer could not be built. */
  static final String THREW = "new KafkaProducer threw:";

  private WrongArtifact() {}

  /** Prints what {@code new KafkaProducer} threw, or that it threw nothing. */
  public static void main(String[] args) {
    Properties props = new Properties();
    props.put("bootstrap.servers", "127.0.0.1:9");
    props.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
    props.put("value.serializer", "io.kavro.serde.KafkaAvroSerializer");
    props.put("schema.registry.url", "mock://wrong-artifact");
    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(props)) {
      System.out.println("new KafkaProducer threw nothing");
    } catch (Throwable e) {
      System.out.println(THREW);
      for (Throwable t = e; t != null; t = t.getCause()) {
        System.out.println(t);
      }
    }
  }
}
