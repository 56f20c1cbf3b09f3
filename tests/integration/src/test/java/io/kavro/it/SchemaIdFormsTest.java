package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.WireFormat;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
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

  }

  /**
   * A record framed with a GUID (magic byte 1), or garbage that starts with 1, against a registry without
   * Confluent 8's GUID API: a non-retriable SerializationException at once, with the default retries, and
   * the next such record sends no request at all.
   */
  @Test
  void apicurio_guidFramedRecord_nonRetriableAtOnce_andNotAskedAgain() throws Exception {
    try (CountingRegistryProxy proxy = new CountingRegistryProxy(stack.registryUrl());
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      List<String> paths = new CopyOnWriteArrayList<>();
      proxy.rewriteAnswers((path, body) -> {
        paths.add(path);
        return body;
      });
      deserializer.configure(Map.of("schema.registry.url", proxy.url()), false);
      byte[] guidFramed = ByteBuffer.allocate(WireFormat.GUID_HEADER_SIZE + 1).put(WireFormat.guidPrefix(
          UUID.randomUUID())).put((byte) 0).array();

      long started = System.nanoTime();
      assertThatThrownBy(() -> deserializer.deserialize("guids", guidFramed))
          .isInstanceOf(SerializationException.class)
          .isNotInstanceOf(RetriableException.class)
          .hasCauseInstanceOf(UnsupportedRegistryApiException.class)
          .hasMessageContaining("GUID API");
      long tookMillis = (System.nanoTime() - started) / 1_000_000;
      // The GUID call, one look at the core API, and the topic's association (the default strategy's: Apicurio
      // has no such API, which is remembered); with retries it took 4.6 s.
      assertThat(proxy.requests()).isEqualTo(3);
      assertThat(paths).as("paths asked").anyMatch(p -> p.contains("/schemas/guids/"))
          .anyMatch(p -> p.contains("/associations"));
      // the three requests above are the check: a retry would add requests; the time only rules out a pause
      assertThat(tookMillis).as("no retry pause").isLessThan(4000);

      byte[] otherGuid = ByteBuffer.allocate(WireFormat.GUID_HEADER_SIZE + 1).put(WireFormat.guidPrefix(
          UUID.randomUUID())).put((byte) 0).array();
      assertThatThrownBy(() -> deserializer.deserialize("guids", otherGuid))
          .isInstanceOf(SerializationException.class).isNotInstanceOf(RetriableException.class);
      assertThat(proxy.requests()).as("remembered: no request for the next record").isEqualTo(3);
    }
  }

  private static byte[] serialize(String registry, GenericRecord record) {
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", registry), false);
      return serializer.serialize("id-forms", record);
    }
  }
}
