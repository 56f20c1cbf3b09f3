package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
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
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Schema references (a schema naming a type registered under another subject), registered as Confluent's
 * tools do, against the real registry: Kavro reads records written with them, and writes with them under
 * {@code use.latest.version}.
 */
@ExtendWith(KavroStackExtension.class)
class SchemaReferencesTest {
  private static final String ADDRESS = "{\"type\":\"record\",\"name\":\"Address\",\"namespace\":\"io.kavro.it.ref\","
      + "\"fields\":[{\"name\":\"street\",\"type\":\"string\"}]}";
  private static final String CUSTOMER = "{\"type\":\"record\",\"name\":\"Customer\",\"namespace\":\"io.kavro.it.ref\","
      + "\"fields\":[{\"name\":\"name\",\"type\":\"string\"},{\"name\":\"home\",\"type\":\"io.kavro.it.ref.Address\"}]}";

  private final TestStack stack;
  private final KafkaFixture kafka;

  SchemaReferencesTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void recordsWrittenWithReferences_readByKavro_andWrittenAlikeWithUseLatestVersion() throws Exception {
    String topic = kafka.topic("references");
    RawRegistry raw = new RawRegistry(stack.registryUrl());
    String addressSubject = "io.kavro.it.ref.Address-" + UUID.randomUUID();
    raw.register(addressSubject, ADDRESS);
    int id = raw.registerReferencing(topic + "-value", CUSTOMER, "io.kavro.it.ref.Address", addressSubject);
    // What the writing application holds: the whole schema, its referenced types parsed first.
    Schema.Parser parser = new Schema.Parser();
    parser.parse(ADDRESS);
    Schema customerSchema = parser.parse(CUSTOMER);
    GenericRecord customer = customer(customerSchema, "Ada", "Main St 1");
    byte[] framed = frame(id, customer);
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class),
        List.of(new ProducerRecord<>(topic, "ada", framed)));

    List<org.apache.kafka.clients.consumer.ConsumerRecord<String, Object>> read = kafka.consume(
        kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class), topic, 1);

    GenericRecord value = (GenericRecord) read.get(0).value();
    assertThat(value).isEqualTo(customer);
    assertThat(((GenericRecord) value.get("home")).get("street")).hasToString("Main St 1");

    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", stack.registryUrl(), "auto.register.schemas", false,
          "use.latest.version", true), false);
      byte[] written = serializer.serialize(topic, customer);
      assertThat(ByteBuffer.wrap(written, 1, 4).getInt()).isEqualTo(id);
      assertThat(written).isEqualTo(framed);
    }
  }

  private static GenericRecord customer(Schema schema, String name, String street) {
    GenericRecord address = new GenericData.Record(schema.getField("home").schema());
    address.put("street", street);
    GenericRecord customer = new GenericData.Record(schema);
    customer.put("name", name);
    customer.put("home", address);
    return customer;
  }

  /** Confluent's framing, written by hand: magic byte, big-endian id, Avro binary. */
  private static byte[] frame(int id, GenericRecord record) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(id).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }
}
