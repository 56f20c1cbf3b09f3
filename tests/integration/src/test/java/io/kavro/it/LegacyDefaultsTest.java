package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.SchemaRegistrationException;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 23, item 1: schemas registered before Avro 1.9 often carry defaults that do not match their types
 * ({@code "default": "x"} on an int, {@code null} on a long). Such a schema in the registry, and records that
 * Avro's own writer wrote with it, read through Kavro as through Confluent's deserializer; Kavro registers no new
 * schema with such a default, and says which field.
 */
@ExtendWith(KavroStackExtension.class)
class LegacyDefaultsTest {
  private static final String LEGACY = "{\"type\":\"record\",\"name\":\"Legacy\",\"namespace\":\"com.acme\","
      + "\"fields\":[{\"name\":\"n\",\"type\":\"int\",\"default\":\"x\"},"
      + "{\"name\":\"at\",\"type\":\"long\",\"default\":null},{\"name\":\"label\",\"type\":\"string\"}]}";

  private final TestStack stack;
  private final KafkaFixture kafka;

  LegacyDefaultsTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void schemaWithInvalidDefaultsInTheRegistry_recordsRead_newRegistrationRefused() throws Exception {
    String topic = kafka.topic("legacy-" + UUID.randomUUID());
    // Apicurio's Confluent-compatible API refuses such a schema today; its own API stores it, as registries
    // stored them before Avro 1.9.
    int id = new RawRegistry(stack.registryUrl()).storeInApicurio(topic + "-value", LEGACY);
    Schema legacy = new Schema.Parser().setValidateDefaults(false).parse(LEGACY);
    GenericRecord record = new GenericData.Record(legacy);
    record.put("n", 7);
    record.put("at", 1_764_584_130_123L);
    record.put("label", "seven");
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class),
        List.of(new ProducerRecord<>(topic, "k", framed(id, legacy, record))));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class), topic, 1);

    assertThat(read.get(0).value()).hasToString(record.toString());
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", stack.registryUrl()), false);
      assertThatThrownBy(() -> serializer.serialize(kafka.topic("legacy-new-" + UUID.randomUUID()), record))
          .isInstanceOf(SchemaRegistrationException.class)
          .hasMessageContaining("Invalid default for field n");
    }
  }

  /** The record as Avro's own writer writes it, behind Confluent's 5-byte prefix. */
  private static byte[] framed(int id, Schema schema, GenericRecord record) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(ByteBuffer.allocate(5).put((byte) 0).putInt(id).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
