package io.kavro.examples;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.RecordDeserializationException;

/**
 * Consumes Avro records as {@code GenericRecord}s with Kavro's deserializer, configured only through
 * consumer properties, and skips records that cannot be deserialized.
 *
 * <pre>ConsumerApp &lt;bootstrap servers&gt; &lt;schema registry url&gt; [topic] [count]</pre>
 */
public final class ConsumerApp {
  private ConsumerApp() {}

  public static void main(String[] args) {
    for (ConsumerRecord<String, GenericRecord> record : consume(new Endpoints(args[0], args[1]),
        args.length > 2 ? args[2] : "users", args.length > 3 ? Integer.parseInt(args[3]) : 10, Duration.ofSeconds(30))) {
      System.out.println(record.key() + " -> " + record.value());
    }
  }

  /** Reads {@code count} records from the start of {@code topic}, or fewer if {@code timeout} passes. */
  public static List<ConsumerRecord<String, GenericRecord>> consume(Endpoints endpoints, String topic, int count,
      Duration timeout) {
    Properties props = new Properties();
    props.put("bootstrap.servers", endpoints.bootstrapServers());
    props.put("group.id", "kavro-example-" + topic);
    props.put("auto.offset.reset", "earliest");
    props.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
    props.put("value.deserializer", "io.kavro.serde.KafkaAvroDeserializer");
    props.put("schema.registry.url", endpoints.registryUrl());

    List<ConsumerRecord<String, GenericRecord>> records = new ArrayList<>();
    try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (records.size() < count && System.nanoTime() < deadline) {
        try {
          consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        } catch (RecordDeserializationException e) {
          // A record Kavro cannot read (corrupt, unknown schema id): report it and move past it.
          System.err.println("skipping " + e.topicPartition() + "@" + e.offset() + ": " + e.getCause().getMessage());
          consumer.seek(e.topicPartition(), e.offset() + 1);
        }
      }
    }
    return records;
  }
}
