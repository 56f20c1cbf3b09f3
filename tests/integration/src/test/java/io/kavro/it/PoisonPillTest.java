package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.MalformedPayloadException;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A corrupt record in the middle of a partition: reported with partition and offset, skipped, none lost. */
@ExtendWith(KavroStackExtension.class)
class PoisonPillTest {
  private final KafkaFixture kafka;

  PoisonPillTest(TestStack stack) {
    this.kafka = new KafkaFixture(stack);
  }

  private List<ProducerRecord<String, Object>> users(String topic, int from, int count) {
    List<ProducerRecord<String, Object>> records = new ArrayList<>();
    for (int i = from; i < from + count; i++) {
      records.add(new ProducerRecord<>(topic, "k" + i, EndToEndTest.user(EndToEndTest.USER_V1, "user-" + i)));
    }
    return records;
  }

  @Test
  void corruptRecord_reportedWithOffset_skipped_noGoodRecordLost() {
    String topic = kafka.topic("poison");
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), users(topic, 0, 5));
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class),
        List.of(new ProducerRecord<>(topic, "bad", "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8))));
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), users(topic, 5, 5));

    List<String> names = new ArrayList<>();
    List<RecordDeserializationException> failures = consumeSkipping(topic, 10,
        r -> names.add(((GenericRecord) r.value()).get("name").toString()));

    assertThat(names).hasSize(10).containsExactly("user-0", "user-1", "user-2", "user-3", "user-4",
        "user-5", "user-6", "user-7", "user-8", "user-9");
    assertThat(failures).hasSize(1);
    RecordDeserializationException failure = failures.get(0);
    assertThat(failure.topicPartition().topic()).isEqualTo(topic);
    assertThat(failure.topicPartition().partition()).isZero();
    assertThat(failure.offset()).isEqualTo(5);
    assertThat(failure.origin()).isEqualTo(RecordDeserializationException.DeserializationExceptionOrigin.VALUE);
    assertThat(failure.getCause()).isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("value of topic '" + topic + "'")
        .hasMessageContaining("unknown magic byte 0x7b");
  }

  /**
   * Issue 13: a legal 1 MB payload nesting 500,000 levels (a recursive schema), and a zero-width array that
   * claims 10^9 items: each is a {@link RecordDeserializationException} for its offset, never an Error that
   * leaves the partition stuck; the consumer seeks past both and reads every good record around them.
   */
  @Test
  void deepAndZeroWidthPayloads_reportedWithOffset_skipped_noGoodRecordLost() {
    String topic = kafka.topic("hostile");
    Schema node = new Schema.Parser().parse("""
        {"type":"record","name":"Node","namespace":"com.acme","fields":[
          {"name":"v","type":"int"},{"name":"next","type":["null","Node"]}]}""");
    Schema nulls = new Schema.Parser().parse("""
        {"type":"record","name":"Nulls","namespace":"com.acme","fields":[
          {"name":"items","type":{"type":"array","items":"null"}}]}""");
    int nodeId;
    int nullsId;
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
        kafka.stack.registryUrl()))) {
      nodeId = registry.register(topic + "-value", node);
      nullsId = registry.register(topic + "-nulls", nulls);
    }
    GenericRecord shallow = new GenericData.Record(node);
    shallow.put("v", 1);
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class),
        List.of(new ProducerRecord<>(topic, "good-0", shallow)));
    byte[] deep = framed(nodeId, 500_000);
    assertThat(deep.length).isGreaterThan(1_000_000);
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class, "max.request.size", 2_000_000),
        List.of(new ProducerRecord<>(topic, "deep", deep),
            new ProducerRecord<>(topic, "zero-width", zeroWidth(nullsId, 1_000_000_000L))));
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class),
        List.of(new ProducerRecord<>(topic, "good-1", shallow)));

    List<String> keys = new ArrayList<>();
    List<RecordDeserializationException> failures = consumeSkipping(topic, 2, r -> keys.add(r.key()));

    assertThat(keys).containsExactly("good-0", "good-1");
    assertThat(failures).extracting(RecordDeserializationException::offset).containsExactly(1L, 2L);
    assertThat(failures.get(0).getCause()).isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("nests deeper");
    assertThat(failures.get(1).getCause()).isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("1000000000 item(s)");
  }

  /**
   * Consumes {@code topic} with Kavro's deserializer until {@code good} records were handed to {@code each},
   * seeking past every record that fails to deserialize, as an application that skips poison pills does.
   */
  private List<RecordDeserializationException> consumeSkipping(String topic, int good,
      Consumer<ConsumerRecord<String, Object>> each) {
    List<RecordDeserializationException> failures = new ArrayList<>();
    int[] seen = {0};
    try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(
        kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class))) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
      while (seen[0] < good && System.nanoTime() < deadline) {
        try {
          consumer.poll(Duration.ofMillis(200)).forEach(r -> {
            seen[0]++;
            each.accept(r);
          });
        } catch (RecordDeserializationException e) {
          failures.add(e);
          consumer.seek(e.topicPartition(), e.offset() + 1);
        }
      }
    }
    return failures;
  }

  /** A framed Node list {@code depth} levels deep: v=0 and union branch 1 per level, then v=0 and null. */
  private static byte[] framed(int id, int depth) {
    ByteBuffer out = ByteBuffer.allocate(5 + 2 * depth + 2).put((byte) 0).putInt(id);
    for (int i = 0; i < depth; i++) {
      out.put((byte) 0).put((byte) 2);
    }
    return out.put((byte) 0).put((byte) 0).array();
  }

  /** A framed Nulls record whose one array block claims {@code count} items and holds no bytes for them. */
  private static byte[] zeroWidth(int id, long count) {
    ByteBuffer out = ByteBuffer.allocate(20).put((byte) 0).putInt(id);
    long n = count << 1; // zig-zag of a positive count
    while ((n & ~0x7fL) != 0) {
      out.put((byte) ((n & 0x7f) | 0x80));
      n >>>= 7;
    }
    out.put((byte) n).put((byte) 0);
    return java.util.Arrays.copyOf(out.array(), out.position());
  }
}
