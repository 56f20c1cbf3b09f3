package io.kavro.cli;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Asks the broker once, before a command reads or writes, so that an unreachable broker or a missing topic is an
 * error within seconds, with Kafka's reason, and never looks like an empty topic.
 */
final class BrokerCheck {
  private BrokerCheck() {}

  /**
   * Fails unless the broker answers within {@code timeout}; for {@code mustExist}, unless the topic exists too.
   *
   * @throws CliException exit 1, naming the broker or the topic
   */
  static void check(Map<String, Object> config, String topic, boolean mustExist, Duration timeout) {
    try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(withoutGroup(config), new ByteArrayDeserializer(),
        new ByteArrayDeserializer())) {
      check(consumer, config.get("bootstrap.servers"), topic, mustExist, timeout);
    }
  }

  static void check(Consumer<?, ?> consumer, Object bootstrap, String topic, boolean mustExist, Duration timeout) {
    List<PartitionInfo> partitions;
    try {
      partitions = consumer.partitionsFor(topic, timeout);
    } catch (TimeoutException e) {
      throw new CliException("cannot reach the Kafka broker at " + bootstrap + " within " + timeout.toMillis()
          + " ms: " + e.getMessage());
    }
    if (mustExist && (partitions == null || partitions.isEmpty())) {
      throw new CliException("topic '" + topic + "' does not exist on " + bootstrap);
    }
  }

  private static Map<String, Object> withoutGroup(Map<String, Object> config) {
    Map<String, Object> copy = new java.util.HashMap<>(config);
    copy.remove("group.id");
    copy.put("allow.auto.create.topics", false);
    return copy;
  }
}
