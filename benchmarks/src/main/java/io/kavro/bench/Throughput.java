package io.kavro.bench;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.EmbeddedKafka;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * End-to-end throughput through the in-JVM broker: produce then consume N records of S3, once with Kavro's
 * serializer and deserializer, once with byte-array (de)serializers over pre-serialized bytes. The
 * difference is the serde's share of the pipeline.
 */
public final class Throughput {
  private Throughput() {}

  /**
   * One run.
   *
   * @param variant "Kavro" or "byte[] (pre-serialized)"
   * @param records records moved
   * @param produceMillis time to produce all, acknowledged
   * @param consumeMillis time to consume all
   */
  public record Result(String variant, int records, long produceMillis, long consumeMillis) {
    public double produceRate() {
      return records * 1000.0 / produceMillis;
    }

    public double consumeRate() {
      return records * 1000.0 / consumeMillis;
    }
  }

  public static List<Result> measure(int count) throws Exception {
    List<GenericRecord> data = BenchData.records(Shape.S3);
    String scope = "throughput-" + UUID.randomUUID();
    List<Result> results = new ArrayList<>();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(0)) {
      Map<String, Object> common = Map.of("bootstrap.servers", kafka.bootstrapServers(),
          "schema.registry.url", "mock://" + scope, "avro.use.logical.type.converters", false);
      List<byte[]> bytes = new ArrayList<>();
      try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
        serializer.configure(common, false);
        data.forEach(record -> bytes.add(serializer.serialize("pre", record)));
      }
      for (int round = 0; round < 2; round++) {
        // The first round warms the JVM up; only the second is reported.
        Result kavro = run(kafka, common, "Kavro", count, i -> data.get(i & 1023),
            KafkaAvroSerializer.class, KafkaAvroDeserializer.class);
        Result raw = run(kafka, common, "byte[] (pre-serialized)", count, i -> bytes.get(i & 1023),
            ByteArraySerializer.class, ByteArrayDeserializer.class);
        if (round == 1) {
          results.add(kavro);
          results.add(raw);
        }
      }
    } finally {
      MockRegistries.drop(scope);
    }
    return results;
  }

  private static Result run(EmbeddedKafka kafka, Map<String, Object> common, String variant, int count,
      java.util.function.IntFunction<Object> value, Class<?> serializer, Class<?> deserializer) throws Exception {
    String topic = "throughput-" + UUID.randomUUID();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
    }
    Map<String, Object> producerConfig = new java.util.HashMap<>(common);
    producerConfig.put("key.serializer", ByteArraySerializer.class.getName());
    producerConfig.put("value.serializer", serializer.getName());
    producerConfig.put("linger.ms", 10);
    producerConfig.put("batch.size", 512 * 1024);
    producerConfig.put("acks", "1");
    long start = System.nanoTime();
    try (KafkaProducer<byte[], Object> producer = new KafkaProducer<>(producerConfig)) {
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(topic, value.apply(i)));
      }
      producer.flush();
    }
    long produceMillis = Math.max(1, (System.nanoTime() - start) / 1_000_000);

    Map<String, Object> consumerConfig = new java.util.HashMap<>(common);
    consumerConfig.put("key.deserializer", ByteArrayDeserializer.class.getName());
    consumerConfig.put("value.deserializer", deserializer.getName());
    consumerConfig.put("group.id", topic);
    consumerConfig.put("auto.offset.reset", "earliest");
    consumerConfig.put("max.poll.records", 10_000);
    consumerConfig.put("fetch.max.bytes", 64 * 1024 * 1024);
    consumerConfig.put("max.partition.fetch.bytes", 16 * 1024 * 1024);
    int read = 0;
    start = System.nanoTime();
    try (KafkaConsumer<byte[], Object> consumer = new KafkaConsumer<>(consumerConfig)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (read < count && System.nanoTime() < deadline) {
        read += consumer.poll(Duration.ofMillis(200)).count();
      }
    }
    long consumeMillis = Math.max(1, (System.nanoTime() - start) / 1_000_000);
    if (read < count) {
      throw new IllegalStateException(variant + ": consumed " + read + " of " + count);
    }
    return new Result(variant, count, produceMillis, consumeMillis);
  }

  public static void main(String[] args) throws Exception {
    for (Result result : measure(args.length > 0 ? Integer.parseInt(args[0]) : 100_000)) {
      System.out.println(result);
    }
  }
}
