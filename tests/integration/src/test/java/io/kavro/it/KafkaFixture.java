package io.kavro.it;

import io.kavro.testkit.TestStack;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Topics, producers and consumers on the shared stack, configured only through properties. */
final class KafkaFixture {
  static final Duration TIMEOUT = Duration.ofSeconds(60);

  final TestStack stack;

  KafkaFixture(TestStack stack) {
    this.stack = stack;
  }

  /** A new topic with a unique name. */
  String topic(String prefix, int partitions) {
    String name = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("cannot create topic " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return name;
  }

  String topic(String prefix) {
    return topic(prefix, 1);
  }

  /** Producer properties naming the given (de)serializer classes, plus the registry URL and extras. */
  Map<String, Object> producerConfig(Class<?> keySerializer, Class<?> valueSerializer, Object... extra) {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, keySerializer.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, valueSerializer.getName());
    config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    config.put("schema.registry.url", stack.registryUrl());
    put(config, extra);
    return config;
  }

  Map<String, Object> consumerConfig(Class<?> keyDeserializer, Class<?> valueDeserializer, Object... extra) {
    Map<String, Object> config = new HashMap<>();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, keyDeserializer.getName());
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, valueDeserializer.getName());
    config.put(ConsumerConfig.GROUP_ID_CONFIG, "it-" + UUID.randomUUID());
    config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    // A fetch of a partition with nothing new waits at most 100 ms at the broker, not the default 500: close()
    // waits for the fetch in flight, which made every consumer's close take half a second.
    config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
    config.put("schema.registry.url", stack.registryUrl());
    put(config, extra);
    return config;
  }

  private static void put(Map<String, Object> config, Object[] extra) {
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
  }

  /** Sends the records and waits until all are acknowledged. */
  <K, V> void produce(Map<String, Object> config, List<ProducerRecord<K, V>> records) {
    try (KafkaProducer<K, V> producer = new KafkaProducer<>(config)) {
      List<java.util.concurrent.Future<?>> acks = new ArrayList<>();
      for (ProducerRecord<K, V> record : records) {
        acks.add(producer.send(record));
      }
      for (java.util.concurrent.Future<?> ack : acks) {
        ack.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("produce failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Reads {@code count} records from the start of the topic, or fails after {@link #TIMEOUT}. */
  <K, V> List<ConsumerRecord<K, V>> consume(Map<String, Object> config, String topic, int count) {
    List<ConsumerRecord<K, V>> records = new ArrayList<>();
    try (KafkaConsumer<K, V> consumer = new KafkaConsumer<>(config)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (records.size() < count) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("read " + records.size() + " of " + count + " records from " + topic
              + " within " + TIMEOUT.toSeconds() + " s");
        }
        consumer.poll(Duration.ofMillis(200)).forEach(records::add);
      }
    }
    return records;
  }
}
