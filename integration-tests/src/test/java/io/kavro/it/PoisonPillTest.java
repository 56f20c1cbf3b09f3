package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.MalformedPayloadException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A corrupt record in the middle of a partition: reported with partition and offset, skipped, none lost. */
@ExtendWith(SharedStack.class)
class PoisonPillTest {
  private final KafkaFixture kafka;

  PoisonPillTest(Stack stack) {
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
    List<RecordDeserializationException> failures = new ArrayList<>();
    try (KafkaConsumer<String, GenericRecord> consumer = new KafkaConsumer<>(
        kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class))) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
      while (names.size() < 10 && System.nanoTime() < deadline) {
        try {
          consumer.poll(Duration.ofMillis(200)).forEach(r -> names.add(r.value().get("name").toString()));
        } catch (RecordDeserializationException e) {
          failures.add(e);
          consumer.seek(e.topicPartition(), e.offset() + 1);
        }
      }
    }

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
}
