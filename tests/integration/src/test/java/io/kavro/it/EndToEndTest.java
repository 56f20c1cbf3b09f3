package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.it.avro.Payment;
import io.kavro.it.avro.Status;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.SchemaRegistrationException;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Users' scenarios, on the real broker and registry, configured through plain properties. */
@ExtendWith(KavroStackExtension.class)
class EndToEndTest {
  static final Schema USER_V1 = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"io.kavro.it","fields":[
        {"name":"name","type":"string"}]}""");
  static final Schema USER_V2 = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"io.kavro.it","fields":[
        {"name":"name","type":"string"},
        {"name":"country","type":"string","default":"unknown"}]}""");
  static final Schema USER_V3_INCOMPATIBLE = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"io.kavro.it","fields":[
        {"name":"name","type":"string"},
        {"name":"country","type":"string","default":"unknown"},
        {"name":"age","type":"int"}]}""");
  /** A second record type, with a name field, for tests that mix two schemas. */
  static final Schema ORDER_LIKE = new Schema.Parser().parse("""
      {"type":"record","name":"Customer","namespace":"io.kavro.it","fields":[
        {"name":"name","type":"string"},{"name":"vip","type":"boolean","default":false}]}""");
  static final Schema USER_ID = new Schema.Parser().parse("""
      {"type":"record","name":"UserId","namespace":"io.kavro.it","fields":[{"name":"id","type":"long"}]}""");

  private final KafkaFixture kafka;
  private final SchemaRegistryClient registry;

  EndToEndTest(TestStack stack) {
    this.kafka = new KafkaFixture(stack);
    this.registry = SchemaRegistryClients.create(Map.of("schema.registry.url", stack.registryUrl()));
  }

  @AfterEach
  void close() {
    registry.close();
  }

  static GenericRecord user(Schema schema, String name) {
    GenericRecord user = new GenericData.Record(schema);
    user.put("name", name);
    if (schema.getField("country") != null) {
      user.put("country", "NL");
    }
    if (schema.getField("vip") != null) {
      user.put("vip", true);
    }
    return user;
  }

  static GenericRecord userId(long id) {
    GenericRecord key = new GenericData.Record(USER_ID);
    key.put("id", id);
    return key;
  }

  @Test
  void genericRecords_asKeyAndValue() {
    String topic = kafka.topic("generic");
    List<ProducerRecord<Object, Object>> sent = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      sent.add(new ProducerRecord<>(topic, userId(i), user(USER_V1, "user-" + i)));
    }
    kafka.produce(kafka.producerConfig(KafkaAvroSerializer.class, KafkaAvroSerializer.class), sent);

    List<ConsumerRecord<GenericRecord, GenericRecord>> read = kafka.consume(
        kafka.consumerConfig(KafkaAvroDeserializer.class, KafkaAvroDeserializer.class), topic, 20);

    for (int i = 0; i < 20; i++) {
      assertThat(read.get(i).key().get("id")).isEqualTo((long) i);
      assertThat(read.get(i).value().get("name")).hasToString("user-" + i);
    }
    assertThat(registry.subjects()).contains(topic + "-key", topic + "-value");
  }

  @Test
  void specificRecords_withLogicalTypes() {
    String topic = kafka.topic("specific");
    Payment payment = Payment.newBuilder().setId("p-1").setAmount(new BigDecimal("19.99"))
        .setAt(Instant.ofEpochMilli(1_750_000_000_000L)).setStatus(Status.PAID).setNote(null).build();
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class),
        List.of(new ProducerRecord<>(topic, "p-1", payment)));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "specific.avro.reader", true), topic, 1);

    assertThat(read.get(0).value()).isInstanceOf(Payment.class).isEqualTo(payment);
  }

  /** A Java record, serialized by reflection. */
  public record Sensor(String id, double reading, long at) {}

  @Test
  void javaRecords_byReflection() {
    String topic = kafka.topic("reflect");
    Sensor sensor = new Sensor("s-1", 21.5, 1_750_000_000_000L);
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "schema.reflection", true), List.of(new ProducerRecord<>(topic, "s-1", sensor)));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "schema.reflection", true), topic, 1);

    assertThat(read.get(0).value()).isEqualTo(sensor);
  }

  @Test
  void primitiveKeys_stringAndLong() {
    String strings = kafka.topic("string-keys");
    String longs = kafka.topic("long-keys");
    kafka.produce(kafka.producerConfig(KafkaAvroSerializer.class, KafkaAvroSerializer.class),
        List.of(new ProducerRecord<>(strings, "k1", user(USER_V1, "a")), new ProducerRecord<>(longs, 42L, user(USER_V1, "b"))));

    ConsumerRecord<Object, GenericRecord> s = kafka.<Object, GenericRecord>consume(
        kafka.consumerConfig(KafkaAvroDeserializer.class, KafkaAvroDeserializer.class), strings, 1).get(0);
    ConsumerRecord<Object, GenericRecord> l = kafka.<Object, GenericRecord>consume(
        kafka.consumerConfig(KafkaAvroDeserializer.class, KafkaAvroDeserializer.class), longs, 1).get(0);

    assertThat(s.key()).hasToString("k1");
    assertThat(l.key()).isEqualTo(42L);
    assertThat(registry.latestVersion(strings + "-key").schema().getType()).isEqualTo(Schema.Type.STRING);
    assertThat(registry.latestVersion(longs + "-key").schema().getType()).isEqualTo(Schema.Type.LONG);
  }

  @Test
  void tombstones_nullValueWithoutRegistryEntry() {
    String topic = kafka.topic("tombstones");
    List<ProducerRecord<String, Object>> sent = new ArrayList<>();
    sent.add(new ProducerRecord<>(topic, "a", user(USER_V1, "a")));
    sent.add(new ProducerRecord<>(topic, "a", null));
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), sent);

    List<ConsumerRecord<String, Object>> read = kafka.consume(
        kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class), topic, 2);

    assertThat(read.get(0).value()).isNotNull();
    assertThat(read.get(1).value()).isNull();
    List<ConsumerRecord<String, byte[]>> raw = kafka.consume(
        kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class), topic, 2);
    assertThat(raw.get(1).value()).isNull();
  }

  @Test
  void evolution_v1ThenV2_readWithV2AndWithV1ReaderSchemas() {
    String topic = kafka.topic("evolution");
    Map<String, Object> producer = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class);
    kafka.produce(producer, List.of(new ProducerRecord<>(topic, "1", user(USER_V1, "old"))));
    registry.setCompatibility(topic + "-value", CompatibilityLevel.BACKWARD);
    kafka.produce(producer, List.of(new ProducerRecord<>(topic, "2", user(USER_V2, "new"))));

    List<ConsumerRecord<String, GenericRecord>> asV2 = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "value.reader.schema", USER_V2.toString()), topic, 2);
    List<ConsumerRecord<String, GenericRecord>> asV1 = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "value.reader.schema", USER_V1.toString()), topic, 2);

    assertThat(asV2).extracting(r -> r.value().get("country").toString()).containsExactly("unknown", "NL");
    assertThat(asV2).allSatisfy(r -> assertThat(r.value().getSchema()).isEqualTo(USER_V2));
    assertThat(asV1).extracting(r -> r.value().get("name").toString()).containsExactly("old", "new");
    assertThat(asV1).allSatisfy(r -> assertThat(r.value().getSchema()).isEqualTo(USER_V1));
    assertThat(registry.versions(topic + "-value")).containsExactly(1, 2);
  }

  @Test
  void incompatibleSchema_rejectedUnderBackward_nothingWritten() {
    String topic = kafka.topic("incompatible");
    Map<String, Object> config = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class);
    kafka.produce(config, List.of(new ProducerRecord<>(topic, "1", user(USER_V2, "ok"))));
    registry.setCompatibility(topic + "-value", CompatibilityLevel.BACKWARD);

    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(config)) {
      GenericRecord v3 = user(USER_V3_INCOMPATIBLE, "bad");
      v3.put("age", 3);
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "2", v3)))
          .isInstanceOf(SchemaRegistrationException.class)
          .hasMessageContaining("subject '" + topic + "-value'")
          .hasMessageContaining("incompatible");
    }

    List<ConsumerRecord<String, byte[]>> raw = kafka.consume(
        kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class), topic, 1);
    assertThat(raw).hasSize(1);
    assertThat(registry.versions(topic + "-value")).containsExactly(1);
  }

  @Test
  void recordNameStrategy_twoRecordTypesInOneTopic() {
    String topic = kafka.topic("mixed");
    Schema order = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"io.kavro.it.mixed","fields":[{"name":"sku","type":"string"}]}""");
    GenericRecord anOrder = new GenericData.Record(order);
    anOrder.put("sku", "A-1");
    Map<String, Object> config = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "value.subject.name.strategy", "io.confluent.kafka.serializers.subject.RecordNameStrategy");
    kafka.produce(config, List.<ProducerRecord<String, Object>>of(new ProducerRecord<>(topic, "u", user(USER_V1, "x")),
        new ProducerRecord<>(topic, "o", anOrder)));

    List<ConsumerRecord<String, GenericRecord>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "value.subject.name.strategy", "io.kavro.serde.subject.RecordNameStrategy"),
        topic, 2);

    assertThat(read).extracting(r -> r.value().getSchema().getFullName())
        .containsExactly("io.kavro.it.User", "io.kavro.it.mixed.Order");
    assertThat(registry.subjects()).contains("io.kavro.it.mixed.Order", "io.kavro.it.User");
  }

  @Test
  void autoRegisterOff_preRegisteredSchema() {
    String topic = kafka.topic("preregistered");
    int id = registry.register(topic + "-value", USER_V1);
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "auto.register.schemas", false), List.of(new ProducerRecord<>(topic, "1", user(USER_V1, "x"))));

    List<ConsumerRecord<String, byte[]>> raw = kafka.consume(
        kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class), topic, 1);

    assertThat(java.nio.ByteBuffer.wrap(raw.get(0).value()).getInt(1)).isEqualTo(id);
    assertThat(registry.versions(topic + "-value")).containsExactly(1);
  }

  @Test
  void autoRegisterOff_absentSchema_clearErrorAtSend() {
    String topic = kafka.topic("unregistered");
    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(kafka.producerConfig(StringSerializer.class,
        KafkaAvroSerializer.class, "auto.register.schemas", false))) {
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "1", user(USER_V1, "x"))))
          .isInstanceOf(SchemaRegistrationException.class)
          .hasMessageContaining("auto.register.schemas=false");
    }
  }

  @Test
  void useLatestVersion_producerAndConsumer() {
    String topic = kafka.topic("latest");
    registry.register(topic + "-value", USER_V1);
    registry.setCompatibility(topic + "-value", CompatibilityLevel.BACKWARD);
    int latest = registry.register(topic + "-value", USER_V2);
    // The producer still has V1 data; it is written with the latest schema, V2.
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "use.latest.version", true, "auto.register.schemas", false),
        List.of(new ProducerRecord<>(topic, "1", user(USER_V1, "x"))));

    List<ConsumerRecord<String, byte[]>> raw = kafka.consume(
        kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class), topic, 1);
    List<ConsumerRecord<String, GenericRecord>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "use.latest.version", true), topic, 1);

    assertThat(java.nio.ByteBuffer.wrap(raw.get(0).value()).getInt(1)).isEqualTo(latest);
    assertThat(read.get(0).value().getSchema()).isEqualTo(USER_V2);
    assertThat(read.get(0).value().get("country")).hasToString("unknown");
  }

  @Test
  void subjects_useLongDeserializerForPlainKeys_interoperate() {
    String topic = kafka.topic("plain-keys");
    kafka.produce(kafka.producerConfig(LongSerializer.class, KafkaAvroSerializer.class),
        List.of(new ProducerRecord<>(topic, 5L, user(USER_V1, "x"))));

    ConsumerRecord<Long, GenericRecord> read = kafka.<Long, GenericRecord>consume(
        kafka.consumerConfig(LongDeserializer.class, KafkaAvroDeserializer.class), topic, 1).get(0);

    assertThat(read.key()).isEqualTo(5L);
    assertThat(registry.subjects()).doesNotContain(topic + "-key");
  }
}
