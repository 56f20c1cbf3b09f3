package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Four producer threads and four consumer threads move records of three schemas through the real broker,
 * then every record is accounted for: count, order per key, a checksum of every decoded record, no loss,
 * no duplicate (idempotent producers), no deserialization error.
 *
 * <p>CI runs a short version; the long one is
 * {@code mvn -B verify -pl tests/integration -am -Dtest=SoakTest -Dkavro.soak.records=1000000}.
 */
@ExtendWith(KavroStackExtension.class)
class SoakTest {
  private static final int PRODUCERS = 4;
  private static final int PARTITIONS = 4;
  private static final int KEYS_PER_PRODUCER = 64;
  private static final List<Schema> SCHEMAS = List.of(schema("Alpha", "string"), schema("Beta", "long"),
      schema("Gamma", "double"));

  private final KafkaFixture kafka;

  SoakTest(TestStack stack) {
    this.kafka = new KafkaFixture(stack);
  }

  private static Schema schema(String name, String valueType) {
    return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"" + name + "\",\"namespace\":\"io.kavro.it.soak\","
        + "\"fields\":[{\"name\":\"key\",\"type\":\"string\"},{\"name\":\"seq\",\"type\":\"long\"},"
        + "{\"name\":\"value\",\"type\":\"" + valueType + "\"},{\"name\":\"note\",\"type\":[\"null\",\"string\"]}]}");
  }

  private static GenericRecord record(String key, long seq) {
    Schema schema = SCHEMAS.get((int) (seq % SCHEMAS.size()));
    GenericRecord record = new GenericData.Record(schema);
    record.put("key", key);
    record.put("seq", seq);
    record.put("value", switch (schema.getName()) {
      case "Alpha" -> "v" + seq;
      case "Beta" -> seq * 31;
      default -> seq / 7.0;
    });
    record.put("note", seq % 5 == 0 ? null : key + "/" + seq);
    return record;
  }

  /** The same function of the decoded record as of the one sent. */
  private static long checksum(GenericRecord record) {
    CRC32 crc = new CRC32();
    crc.update((record.getSchema().getName() + "|" + record.get("key") + "|" + record.get("seq") + "|"
        + record.get("value") + "|" + record.get("note")).getBytes(StandardCharsets.UTF_8));
    return crc.getValue();
  }

  @Test
  void fourProducersFourConsumers_everyRecordOnceInOrderIntact() throws Exception {
    int total = Integer.getInteger("kavro.soak.records", 40_000);
    int perProducer = total / PRODUCERS;
    String topic = kafka.topic("soak", PARTITIONS);
    ExecutorService pool = Executors.newFixedThreadPool(PRODUCERS + PARTITIONS);
    AtomicLong sentChecksum = new AtomicLong();
    List<Future<?>> producers = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int producerId = p;
      producers.add(pool.submit(() -> {
        Map<String, Object> config = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
            "enable.idempotence", true, "acks", "all", "value.subject.name.strategy", "TopicRecordNameStrategy");
        long[] seq = new long[KEYS_PER_PRODUCER];
        try (KafkaProducer<String, Object> producer = new KafkaProducer<>(config)) {
          for (int i = 0; i < perProducer; i++) {
            int k = i % KEYS_PER_PRODUCER;
            String key = "p" + producerId + "-k" + k;
            GenericRecord record = record(key, seq[k]++);
            sentChecksum.addAndGet(checksum(record));
            producer.send(new ProducerRecord<>(topic, key, record));
          }
          producer.flush();
        }
        return null;
      }));
    }
    for (Future<?> producer : producers) {
      producer.get(10, TimeUnit.MINUTES);
    }

    // One consumer thread per partition, assigned (not subscribed), so no rebalance can replay anything.
    AtomicLong receivedChecksum = new AtomicLong();
    List<Future<Integer>> consumers = new ArrayList<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      TopicPartition tp = new TopicPartition(topic, partition);
      consumers.add(pool.submit(() -> {
        Map<String, Object> config = kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class,
            "max.poll.records", 2000);
        Map<String, Long> lastSeq = new HashMap<>();
        int count = 0;
        try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(config)) {
          consumer.assign(List.of(tp));
          consumer.seekToBeginning(List.of(tp));
          long end = consumer.endOffsets(List.of(tp)).get(tp);
          long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
          while (consumer.position(tp) < end && System.nanoTime() < deadline) {
            for (ConsumerRecord<String, GenericRecord> r : consumer.poll(Duration.ofMillis(200))) {
              long seq = (Long) r.value().get("seq");
              Long previous = lastSeq.put(r.key(), seq);
              assertThat(seq).as("order of key %s", r.key()).isEqualTo(previous == null ? 0 : previous + 1);
              assertThat(r.value().get("key")).hasToString(r.key());
              receivedChecksum.addAndGet(checksum(r.value()));
              count++;
            }
          }
        }
        return count;
      }));
    }
    int received = 0;
    for (Future<Integer> consumer : consumers) {
      received += consumer.get(10, TimeUnit.MINUTES);
    }
    pool.shutdown();

    assertThat(received).isEqualTo(perProducer * PRODUCERS);
    assertThat(receivedChecksum.get()).isEqualTo(sentChecksum.get());
  }
}
