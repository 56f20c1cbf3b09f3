package io.kavro.examples;

import io.kavro.examples.avro.Order;
import io.kavro.examples.avro.OrderLine;
import io.kavro.examples.avro.OrderStatus;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Generated {@code SpecificRecord} classes: {@link Order} is generated from {@code src/main/avro/Order.avsc}
 * by avro-maven-plugin at build time. The consumer sets {@code specific.avro.reader=true} to get
 * {@code Order} objects back instead of {@code GenericRecord}s.
 */
public final class SpecificRecordExample {
  private SpecificRecordExample() {}

  /** Order number {@code i}. */
  public static Order order(int i) {
    return Order.newBuilder()
        .setId("order-" + i)
        .setCustomer("customer-" + (i % 3))
        .setAmount(new BigDecimal(10 + i + ".50"))
        .setCreated(Instant.parse("2026-11-29T12:00:00Z").plusSeconds(i))
        .setStatus(i % 2 == 0 ? OrderStatus.PAID : OrderStatus.NEW)
        .setLines(List.of(new OrderLine("sku-" + i, 1 + i % 4)))
        .build();
  }

  /** Produces {@code count} orders, then reads them back as {@link Order}s. */
  public static List<Order> run(Endpoints endpoints, String topic, int count) {
    Properties producerProps = new Properties();
    producerProps.put("bootstrap.servers", endpoints.bootstrapServers());
    producerProps.put("key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
    producerProps.put("value.serializer", "io.kavro.serde.KafkaAvroSerializer");
    producerProps.put("schema.registry.url", endpoints.registryUrl());
    try (KafkaProducer<String, Order> producer = new KafkaProducer<>(producerProps)) {
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(topic, "order-" + i, order(i)));
      }
    }

    Properties consumerProps = new Properties();
    consumerProps.put("bootstrap.servers", endpoints.bootstrapServers());
    consumerProps.put("group.id", "kavro-example-" + topic);
    consumerProps.put("auto.offset.reset", "earliest");
    consumerProps.put("key.deserializer", "org.apache.kafka.common.serialization.StringDeserializer");
    consumerProps.put("value.deserializer", "io.kavro.serde.KafkaAvroDeserializer");
    consumerProps.put("schema.registry.url", endpoints.registryUrl());
    consumerProps.put("specific.avro.reader", "true");
    List<Order> orders = new ArrayList<>();
    try (KafkaConsumer<String, Order> consumer = new KafkaConsumer<>(consumerProps)) {
      consumer.subscribe(Set.of(topic));
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (orders.size() < count && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(record -> orders.add(record.value()));
      }
    }
    return orders;
  }
}
