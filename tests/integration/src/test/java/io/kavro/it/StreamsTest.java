package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.it.avro.Payment;
import io.kavro.it.avro.Status;
import io.kavro.serde.AvroSerde;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A Kafka Streams topology reading specific records and writing generic ones, on the real broker. */
@ExtendWith(KavroStackExtension.class)
class StreamsTest {
  static final Schema SUMMARY = new Schema.Parser().parse("""
      {"type":"record","name":"PaymentSummary","namespace":"io.kavro.it","fields":[
        {"name":"id","type":"string"},{"name":"cents","type":"long"}]}""");

  private final TestStack stack;
  private final KafkaFixture kafka;

  @TempDir
  Path stateDir;

  StreamsTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void topology_avroSerdes_specificInGenericOut() throws Exception {
    String input = kafka.topic("payments");
    String output = kafka.topic("summaries");
    Map<String, Object> serdeConfig = Map.of("schema.registry.url", stack.registryUrl());
    AvroSerde<Payment> payments = new AvroSerde<>();
    payments.configure(Map.of("schema.registry.url", stack.registryUrl(), "specific.avro.reader", true), false);
    AvroSerde<GenericRecord> summaries = new AvroSerde<>();
    summaries.configure(serdeConfig, false);

    StreamsBuilder builder = new StreamsBuilder();
    builder.stream(input, Consumed.with(Serdes.String(), payments))
        .filter((key, payment) -> payment.getStatus() == Status.PAID)
        .mapValues(payment -> {
          GenericRecord summary = new GenericData.Record(SUMMARY);
          summary.put("id", payment.getId());
          summary.put("cents", payment.getAmount().movePointRight(2).longValueExact());
          return summary;
        })
        .to(output, Produced.with(Serdes.String(), summaries));
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "kavro-it-" + input);
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, stack.bootstrapServers());
    props.put(StreamsConfig.STATE_DIR_CONFIG, Files.createDirectories(stateDir.resolve("state")).toString());
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);

    List<ProducerRecord<String, Object>> sent = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      sent.add(new ProducerRecord<>(input, "p" + i, Payment.newBuilder().setId("p" + i)
          .setAmount(new BigDecimal(i + ".25")).setAt(Instant.ofEpochMilli(1_750_000_000_000L + i))
          .setStatus(i % 2 == 0 ? Status.PAID : Status.NEW).build()));
    }
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), sent);

    try (KafkaStreams streams = new KafkaStreams(builder.build(), props)) {
      streams.start();
      List<ConsumerRecord<String, GenericRecord>> read = kafka.consume(
          kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class), output, 5);

      assertThat(read).extracting(r -> r.value().get("id").toString()).containsExactly("p0", "p2", "p4", "p6", "p8");
      assertThat(read).extracting(r -> r.value().get("cents")).containsExactly(25L, 225L, 425L, 625L, 825L);
      streams.close(Duration.ofSeconds(10));
    }
  }
}
