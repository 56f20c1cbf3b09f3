package io.kavro.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Flink job (a local MiniCluster, two slots) reads a Kavro-written topic through {@link KafkaAvroDeserializer}
 * and writes every record to another topic through {@link KafkaAvroSerializer}, both named to Flink's Kafka
 * connector as plain Kafka (de)serializer classes with their configuration, on the testkit's broker and registry:
 * 10,000 records round-trip, none lost, none changed. Public API only, as in the recipe of
 * docs/registries-and-clusters.md.
 */
@ExtendWith(KavroStackExtension.class)
class FlinkRoundTripTest {
  private static final int COUNT = 10_000;
  private static final Schema READING = new Schema.Parser().parse("""
      {"type":"record","name":"Reading","namespace":"com.acme.flink","fields":[
        {"name":"id","type":"long"},
        {"name":"sensor","type":"string"},
        {"name":"value","type":"double"},
        {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}},
        {"name":"tags","type":{"type":"map","values":"string"}},
        {"name":"unit","type":["null",{"type":"enum","name":"Unit","symbols":["C","F"]}],"default":null}]}""");

  private final TestStack stack;

  FlinkRoundTripTest(TestStack stack) {
    this.stack = stack;
  }

  private static GenericRecord reading(int n) {
    GenericRecord reading = new GenericData.Record(READING);
    reading.put("id", (long) n);
    reading.put("sensor", "s-" + n % 97);
    reading.put("value", n / 8.0);
    reading.put("at", 1_700_000_000_000L + n);
    reading.put("tags", Map.of("site", "plant-" + n % 3));
    reading.put("unit", n % 5 == 0 ? null : new GenericData.EnumSymbol(READING.getField("unit").schema()
        .getTypes().get(1), n % 2 == 0 ? "C" : "F"));
    return reading;
  }

  @Test
  void flinkJob_readsAndWritesThroughKavro_10000Records() throws Exception {
    String in = "flink-in-" + UUID.randomUUID();
    String out = "flink-out-" + UUID.randomUUID();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      admin.createTopics(List.of(new NewTopic(in, 2, (short) 1), new NewTopic(out, 2, (short) 1))).all().get();
    }
    produce(in);

    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
    env.getConfig().enableObjectReuse();
    Map<String, String> serde = Map.of("schema.registry.url", stack.registryUrl());
    KafkaSource<Object> source = KafkaSource.<Object>builder()
        .setBootstrapServers(stack.bootstrapServers())
        .setTopics(in)
        .setGroupId("flink-" + UUID.randomUUID())
        .setStartingOffsets(OffsetsInitializer.earliest())
        .setBounded(OffsetsInitializer.latest())
        .setDeserializer(KafkaRecordDeserializationSchema.valueOnly(KafkaAvroDeserializer.class, serde))
        .build();
    KafkaSink<Object> sink = KafkaSink.<Object>builder()
        .setBootstrapServers(stack.bootstrapServers())
        .setRecordSerializer(KafkaRecordSerializationSchema.builder()
            .setTopic(out)
            .setKafkaValueSerializer(KafkaAvroSerializer.class, serde)
            .build())
        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
        .build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "kavro-in").sinkTo(sink);
    env.execute("kavro round trip");

    Map<Long, Object> read = consume(out);
    assertThat(read).hasSize(COUNT);
    for (int n = 0; n < COUNT; n++) {
      assertThat(read.get((long) n)).as("record %d", n).isEqualTo(reading(n));
    }
  }

  private void produce(String topic) {
    Properties config = new Properties();
    config.put("bootstrap.servers", stack.bootstrapServers());
    config.put("schema.registry.url", stack.registryUrl());
    config.put("linger.ms", 5);
    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(config, new StringSerializer(),
        serializer())) {
      for (int n = 0; n < COUNT; n++) {
        producer.send(new ProducerRecord<>(topic, "k" + n, reading(n)));
      }
      producer.flush();
    }
  }

  private KafkaAvroSerializer serializer() {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
    return serializer;
  }

  /** Every record of the topic, by id, read with Kavro's deserializer outside Flink; fails on a duplicate id. */
  private Map<Long, Object> consume(String topic) {
    Properties config = new Properties();
    config.put("bootstrap.servers", stack.bootstrapServers());
    config.put("group.id", "check-" + UUID.randomUUID());
    config.put("auto.offset.reset", "earliest");
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
    Map<Long, Object> byId = new HashMap<>();
    int records = 0;
    try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
        deserializer)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (byId.size() < COUNT && System.nanoTime() < deadline) {
        for (ConsumerRecord<String, Object> record : consumer.poll(Duration.ofMillis(200))) {
          records++;
          byId.put((Long) ((GenericRecord) record.value()).get("id"), record.value());
        }
      }
    }
    assertThat(records).as("records in " + topic + ", duplicates included").isEqualTo(byId.size());
    return byId;
  }
}
