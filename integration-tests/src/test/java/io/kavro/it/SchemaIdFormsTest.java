package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RetriableSerdeException;
import io.kavro.serde.WireFormat;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One topic holding every form of schema id that Confluent's serializers write (prefix with an id, id only in
 * a header, prefix with a GUID, GUID in a header), read back in one poll loop by a consumer with default
 * settings, on a real broker.
 */
@ExtendWith(KavroStackExtension.class)
class SchemaIdFormsTest {
  private final TestStack stack;
  private final KafkaFixture kafka;

  SchemaIdFormsTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void mixedTopic_inMemoryRegistryWithGuids_oneConsumerWithDefaults() {
    String registry = "mock://id-forms-" + UUID.randomUUID();
    String topic = kafka.topic("id-forms");
    GenericRecord first = RegistryOutageTest.event(1);

    // 1: prefix with the id (the default); 2: GUID only in the header (HeaderSchemaIdSerializer).
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "schema.registry.url", registry), List.of(new ProducerRecord<>(topic, "prefix", first)));
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "schema.registry.url", registry, "value.schema.id.serializer", "HeaderSchemaIdSerializer"),
        List.of(new ProducerRecord<>(topic, "guid-header", RegistryOutageTest.event(2))));

    // 3: prefix with the GUID, and 4: the id only in the header, as other producers write them.
    byte[] framed = serialize(registry, RegistryOutageTest.event(3));
    int id = WireFormat.schemaId(ByteBuffer.wrap(framed));
    UUID guid = MockRegistries.scope(registry.substring("mock://".length())).guidOf(id);
    byte[] body = java.util.Arrays.copyOfRange(framed, WireFormat.HEADER_SIZE, framed.length);
    byte[] guidFramed = ByteBuffer.allocate(WireFormat.GUID_HEADER_SIZE + body.length)
        .put(WireFormat.guidPrefix(guid)).put(body).array();
    byte[] framed4 = serialize(registry, RegistryOutageTest.event(4));
    byte[] body4 = java.util.Arrays.copyOfRange(framed4, WireFormat.HEADER_SIZE, framed4.length);
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class), List.of(
        new ProducerRecord<>(topic, null, "guid-prefix", guidFramed),
        new ProducerRecord<>(topic, null, "id-header", body4,
            new RecordHeaders().add(WireFormat.VALUE_SCHEMA_ID_HEADER, WireFormat.idPrefix(id)))));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "schema.registry.url", registry), topic, 4);

    assertThat(read).extracting(ConsumerRecord::key)
        .containsExactly("prefix", "guid-header", "guid-prefix", "id-header");
    assertThat(read).extracting(record -> record.value().toString()).containsExactly(
        first.toString(), RegistryOutageTest.event(2).toString(), RegistryOutageTest.event(3).toString(),
        RegistryOutageTest.event(4).toString());
    assertThat(read.get(1).headers().lastHeader("__value_schema_id").value()).isEqualTo(WireFormat.guidPrefix(guid));
  }

  @Test
  void apicurio_hasNoGuids_headerCarriesTheId_andAGuidRecordFailsClearly() {
    String topic = kafka.topic("id-forms-apicurio");
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "value.schema.id.serializer", "HeaderSchemaIdSerializer"),
        List.of(new ProducerRecord<>(topic, "id-header", RegistryOutageTest.event(5))));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class), topic, 1);

    byte[] header = read.get(0).headers().lastHeader("__value_schema_id").value();
    assertThat(header).hasSize(WireFormat.HEADER_SIZE).startsWith(WireFormat.MAGIC_BYTE);
    assertThat(read.get(0).value()).hasToString(RegistryOutageTest.event(5).toString());

    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(Map.of("schema.registry.url", stack.registryUrl(), "max.retries", 0), false);
      byte[] guidFramed = ByteBuffer.allocate(WireFormat.GUID_HEADER_SIZE + 1).put(WireFormat.guidPrefix(
          UUID.randomUUID())).put((byte) 0).array();
      assertThatThrownBy(() -> deserializer.deserialize(topic, guidFramed))
          .isInstanceOf(RetriableSerdeException.class)
          .hasCauseInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("GUID API");
    }
  }

  private static byte[] serialize(String registry, GenericRecord record) {
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", registry), false);
      return serializer.serialize("id-forms", record);
    }
  }
}
