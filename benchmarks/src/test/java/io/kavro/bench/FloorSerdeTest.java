package io.kavro.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link KafkaClientBenchmark.FloorSerde} measures the floor of the records the loop moves, in their order: what it
 * returns for record {@code i} is Kavro's graph of record {@code i} (its classes, lengths, counts, numbers) or a
 * copy of its bytes after reading every value of the record, and a loop out of step fails.
 */
class FloorSerdeTest {
  private static final String TOPIC = KavroSerdes.TOPIC;

  private final List<GenericRecord> records = BenchData.records(Shape.S3);
  private final KavroSerdes kavro = new KavroSerdes(Shape.S3);
  private final byte[][] bytes = new byte[records.size()][];
  private KafkaClientBenchmark.FloorSerde floor;

  @BeforeEach
  void serializeAndPlan() {
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = kavro.serializer().serialize(TOPIC, records.get(i));
    }
    floor = new KafkaClientBenchmark.FloorSerde(records, bytes, kavro.deserializer());
  }

  @AfterEach
  void close() {
    kavro.close();
  }

  @Test
  void deserialize_allocatesKavrosGraphOfEachRecordInTurn_andSerialize_copiesItsBytes() {
    ReferenceReaders reference = new ReferenceReaders(Shape.S3);

    for (int i = 0; i < bytes.length + 3; i++) {
      byte[] payload = bytes[i & 1023];
      GenericRecord read = (GenericRecord) kavro.deserializer().deserialize(TOPIC, payload);
      GenericRecord allocated = (GenericRecord) floor.deserialize(TOPIC, null, ByteBuffer.wrap(payload));

      assertThat(reference.plan(allocated).sizes()).isEqualTo(reference.plan(read).sizes());
      assertThat(reference.plan(allocated).numbers()).isEqualTo(reference.plan(read).numbers());
      assertThat(allocated.getSchema()).isEqualTo(read.getSchema());
    }
    floor.restart();
    for (int i = 0; i < 3; i++) {
      byte[] copy = floor.serialize(TOPIC, records.get(i));

      assertThat(copy).isEqualTo(bytes[i]).isNotSameAs(bytes[i]);
    }
  }

  /** Serializing, the floor reads the record it is given: a value it cannot read fails it (a copy alone would not). */
  @Test
  void serialize_readsEveryValueOfTheRecord() {
    GenericRecord first = records.get(0);
    @SuppressWarnings("unchecked")
    List<Object> lines = (List<Object>) first.get("lines");
    lines.set(lines.size() - 1, "not a line"); // the last line of the record, read last but one of its values

    assertThatThrownBy(() -> floor.serialize(TOPIC, first)).isInstanceOf(ClassCastException.class);
  }

  @Test
  void aLoopOutOfStep_fails() {
    int other = 1;
    while (bytes[other].length == bytes[0].length) {
      other++;
    }
    byte[] wrong = bytes[other];

    assertThatThrownBy(() -> floor.deserialize(TOPIC, null, ByteBuffer.wrap(wrong)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("record 0 is not the one planned");
    floor.restart();
    assertThatThrownBy(() -> floor.serialize(TOPIC, records.get(1))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("record 0 is not the one planned");
  }
}
