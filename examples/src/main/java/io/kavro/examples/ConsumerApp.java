package io.kavro.examples;

import io.kavro.serde.RegistryFaults;
import io.kavro.serde.RegistryUrlException;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.RuleDeploymentException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.RetriableException;

/**
 * Consumes Avro records as {@code GenericRecord}s with Kavro's deserializer, configured only through
 * consumer properties. A record that can never be read (corrupt, unknown schema id) is reported and skipped; a
 * record that cannot be read now (the schema registry or a KMS is unreachable) is read again after a pause, so an
 * outage delays records and loses none; a failure that says Kavro is configured wrong, not the record, stops the
 * consumer on that record ({@link #configurationError}), as every record would fail alike.
 *
 * <pre>ConsumerApp &lt;bootstrap servers&gt; &lt;schema registry url&gt; [topic] [count]</pre>
 */
public final class ConsumerApp {
  /** How long the consumer waits before it reads again a record that failed with a retriable cause. */
  static final Duration RETRY_PAUSE = Duration.ofSeconds(1);

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
    return consume(endpoints, topic, count, timeout, Map.of(), RETRY_PAUSE);
  }

  /**
   * As {@link #consume(Endpoints, String, int, Duration)}, with {@code overrides} added to the consumer's settings,
   * waiting {@code retryPause} before reading again a record that failed with a retriable cause.
   */
  static List<ConsumerRecord<String, GenericRecord>> consume(Endpoints endpoints, String topic, int count,
      Duration timeout, Map<String, String> overrides, Duration retryPause) {
    Properties props = new Properties();
    props.put("bootstrap.servers", endpoints.bootstrapServers());
    props.put("group.id", "kavro-example-" + topic);
    props.put("auto.offset.reset", "earliest");
    props.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
    props.put("value.deserializer", "io.kavro.serde.KafkaAvroDeserializer");
    props.put("schema.registry.url", endpoints.registryUrl());
    props.putAll(overrides);

    List<ConsumerRecord<String, GenericRecord>> records = new ArrayList<>();
    try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(props)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + timeout.toNanos();
      while (records.size() < count && System.nanoTime() < deadline) {
        try {
          consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        } catch (RecordDeserializationException e) {
          if (e.getCause() instanceof RetriableException) {
            // The record is fine but cannot be read now (registry or KMS unreachable): never skip it. Stay on its
            // offset, wait, and read it again.
            System.err.println("cannot read " + e.topicPartition() + "@" + e.offset() + " yet, retrying in "
                + retryPause.toMillis() + " ms: " + e.getCause().getMessage());
            consumer.seek(e.topicPartition(), e.offset());
            if (!pause(retryPause)) {
              break;
            }
          } else if (configurationError(e)) {
            // Kavro is configured wrong, not the record: every record would fail alike, and skipping would pass over
            // the whole topic. Stop on it (the consumer's position stays on this record), fix, start again.
            throw e;
          } else {
            // A record no retry can read (corrupt, unknown schema id): report it and move past it, or send
            // e.valueBuffer() to a dead-letter topic.
            System.err.println("skipping " + e.topicPartition() + "@" + e.offset() + ": " + e.getCause().getMessage());
            consumer.seek(e.topicPartition(), e.offset() + 1);
          }
        }
      }
    }
    return records;
  }

  /**
   * Whether {@code failure} says Kavro is configured wrong rather than the record (docs/errors.md): a
   * {@code schema.registry.url} that leads to no registry, credentials the registry (or the HTTP proxy in front of
   * it, or an OAuth issuer) refuses, or a data contract rule this deployment cannot run. A registry's own 403 is not:
   * it may refuse what this record names only.
   */
  static boolean configurationError(Throwable failure) {
    return Causes.find(failure, RegistryUrlException.class).isPresent() || RegistryFaults.credentialsRefused(failure)
        || Causes.find(failure, RuleDeploymentException.class).isPresent();
  }

  /** Waits {@code pause}; false when the thread was interrupted (the flag is kept). */
  private static boolean pause(Duration pause) {
    try {
      Thread.sleep(pause.toMillis());
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
