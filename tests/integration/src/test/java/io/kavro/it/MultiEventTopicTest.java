package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.it.events.Carrier;
import io.kavro.it.events.OrderPlaced;
import io.kavro.it.events.OrderShipped;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 23, item 3: the multi-event topic recipe of docs/serialization.md, on the real broker and registry. Each
 * event type is registered under its own subject; the topic's schema is a union that references them; producers
 * write any member with {@code auto.register.schemas=false} and {@code use.latest.version=true}; consumers read
 * each record generic, as its generated class, or projected onto a reader schema.
 */
@ExtendWith(KavroStackExtension.class)
class MultiEventTopicTest {
  private static final Schema PLACED_V2 = new Schema.Parser().parse("""
      {"type":"record","name":"OrderPlaced","namespace":"io.kavro.it.events","fields":[
        {"name":"orderId","type":"string"},{"name":"amountCents","type":"long"},
        {"name":"currency","type":"string","default":"EUR"}]}""");

  private final TestStack stack;
  private final KafkaFixture kafka;

  MultiEventTopicTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void unionWithReferences_anyMemberWritten_readGenericSpecificAndProjected() throws Exception {
    String topic = kafka.topic("multi-event");
    String placedSubject = OrderPlaced.getClassSchema().getFullName() + "-" + topic;
    String shippedSubject = OrderShipped.getClassSchema().getFullName() + "-" + topic;
    int unionId;
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(
        Map.of("schema.registry.url", stack.registryUrl()))) {
      int placedVersion = version(registry, placedSubject, OrderPlaced.getClassSchema());
      int shippedVersion = version(registry, shippedSubject, OrderShipped.getClassSchema());
      unionId = registry.register(topic + "-value",
          Schema.createUnion(OrderPlaced.getClassSchema(), OrderShipped.getClassSchema()),
          List.of(new SchemaReference(OrderPlaced.getClassSchema().getFullName(), placedSubject, placedVersion),
              new SchemaReference(OrderShipped.getClassSchema().getFullName(), shippedSubject, shippedVersion)));
    }
    OrderPlaced placed = new OrderPlaced("o-1", 1250L);
    OrderShipped shipped = new OrderShipped("o-1", Carrier.COURIER);
    GenericRecord genericShipped = new GenericData.Record(OrderShipped.getClassSchema());
    genericShipped.put("orderId", "o-2");
    genericShipped.put("carrier", new GenericData.EnumSymbol(OrderShipped.getClassSchema().getField("carrier")
        .schema(), "POST"));
    GenericRecord stranger = new GenericData.Record(new Schema.Parser().parse("""
        {"type":"record","name":"OrderLost","namespace":"io.kavro.it.events","fields":[]}"""));

    Map<String, Object> producing = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "auto.register.schemas", false, "use.latest.version", true);
    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(producing)) {
      producer.send(new ProducerRecord<>(topic, "o-1", placed)).get();
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "o-x", stranger)))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining("OrderLost does not fit the latest schema of subject '" + topic + "-value'");
      producer.send(new ProducerRecord<>(topic, "o-1", shipped)).get();
      producer.send(new ProducerRecord<>(topic, "o-2", genericShipped)).get();
    }

    List<ConsumerRecord<String, Object>> generic = kafka.consume(
        kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class), topic, 3);
    assertThat(generic).extracting(r -> ((GenericRecord) r.value()).getSchema().getName())
        .containsExactly("OrderPlaced", "OrderShipped", "OrderShipped");
    assertThat(generic).allSatisfy(r -> assertThat(r.value()).isNotInstanceOf(OrderPlaced.class)
        .isNotInstanceOf(OrderShipped.class));

    List<ConsumerRecord<String, Object>> specific = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "specific.avro.reader", true), topic, 3);
    assertThat(specific).extracting(ConsumerRecord::value)
        .containsExactly(placed, shipped, new OrderShipped("o-2", Carrier.POST));

    Schema projection = Schema.createUnion(PLACED_V2, OrderShipped.getClassSchema());
    List<ConsumerRecord<String, Object>> projected = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "value.reader.schema", projection.toString()), topic, 3);
    GenericRecord placedV2 = (GenericRecord) projected.get(0).value();
    assertThat(placedV2.getSchema()).isEqualTo(PLACED_V2);
    assertThat(placedV2.get("currency")).hasToString("EUR");
    assertThat(placedV2.get("amountCents")).isEqualTo(1250L);
    assertThat(((GenericRecord) projected.get(1).value()).get("carrier")).hasToString("COURIER");

    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(producing, false);
      assertThat(ByteBuffer.wrap(serializer.serialize(topic, placed), 1, 4).getInt())
          .as("the union's id, not a member's").isEqualTo(unionId);
    }
  }

  private static int version(SchemaRegistryClient registry, String subject, Schema schema) {
    registry.register(subject, schema);
    return registry.lookup(subject, schema).version();
  }
}
