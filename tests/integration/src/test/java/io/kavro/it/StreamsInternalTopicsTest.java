package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.AvroSerde;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23, item 5: the subjects a Streams topology registers for its internal topics with {@link AvroSerde} as the
 * default serde, on the real broker and registry. By default, as Confluent's serde: one subject per changelog and
 * per repartition topic. With {@code streams.internal.topics.subject=record}: none of those, one subject per
 * record type, and the changelog carries the very schema id that the source topic's records carry.
 */
@ExtendWith(KavroStackExtension.class)
class StreamsInternalTopicsTest {
  private final TestStack stack;
  private final KafkaFixture kafka;

  @TempDir
  Path stateDir;

  StreamsInternalTopicsTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  /** What one run of the topology left behind. */
  private record Run(String applicationId, List<String> subjects, int sourceId, List<Integer> changelogIds) {
    List<String> applicationSubjects() {
      return subjects.stream().filter(s -> s.startsWith(applicationId)).sorted().toList();
    }
  }

  @Test
  void byDefault_oneSubjectPerChangelogAndRepartitionTopic() throws Exception {
    Run run = run(Map.of());

    assertThat(run.applicationSubjects()).containsExactly(
        run.applicationId() + "-latest-order-changelog-value", run.applicationId() + "-latest-order-repartition-value");
    assertThat(run.changelogIds()).as("one schema, one id, in every subject").containsOnly(run.sourceId());
  }

  @Test
  void recordSubjects_noSubjectPerInternalTopic_andTheSourceIdInTheChangelog() throws Exception {
    Run run = run(Map.of("streams.internal.topics.subject", "record"));

    assertThat(run.applicationSubjects()).isEmpty();
    assertThat(run.subjects()).contains(order(run.applicationId()).getFullName());
    assertThat(run.changelogIds()).isNotEmpty().containsOnly(run.sourceId());
  }

  private static Schema order(String applicationId) {
    return new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"io.kavro.it.%s","fields":[
          {"name":"customer","type":"string"},{"name":"cents","type":"long"}]}"""
        .formatted(applicationId.replace("-", "_")));
  }

  private Run run(Map<String, Object> serdeSettings) throws Exception {
    String source = kafka.topic("orders");
    String output = kafka.topic("latest-orders");
    String applicationId = "kavro-it-" + UUID.randomUUID().toString().substring(0, 8);
    Schema schema = order(applicationId);
    List<ProducerRecord<String, Object>> sent = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      GenericRecord order = new GenericData.Record(schema);
      order.put("customer", "c" + i % 2);
      order.put("cents", 100L + i);
      sent.add(new ProducerRecord<>(source, "o" + i, order));
    }
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), sent);

    StreamsBuilder builder = new StreamsBuilder();
    builder.<String, GenericRecord>stream(source)
        .selectKey((key, order) -> order.get("customer").toString())
        .groupByKey()
        .reduce((older, newer) -> newer, Materialized.as("latest-order"))
        .toStream()
        .to(output);
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createDirectories(stateDir.resolve(applicationId)).toString());
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    props.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
    props.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, AvroSerde.class);
    props.put("schema.registry.url", stack.registryUrl());
    props.putAll(serdeSettings);

    List<ConsumerRecord<String, byte[]>> changelog;
    int sourceId;
    try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
      streams.start();
      kafka.consume(kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class), output, 6);
      sourceId = ByteBuffer.wrap(kafka.<String, byte[]>consume(kafka.consumerConfig(StringDeserializer.class,
          ByteArrayDeserializer.class), source, 1).get(0).value(), 1, 4).getInt();
      changelog = kafka.consume(kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class),
          applicationId + "-latest-order-changelog", 2);
      streams.close(Duration.ofSeconds(10));
    }
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
        stack.registryUrl()))) {
      return new Run(applicationId, registry.subjects(), sourceId,
          changelog.stream().map(r -> ByteBuffer.wrap(r.value(), 1, 4).getInt()).toList());
    }
  }
}
