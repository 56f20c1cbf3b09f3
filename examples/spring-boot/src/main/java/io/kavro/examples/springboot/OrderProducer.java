package io.kavro.examples.springboot;

import io.kavro.examples.springboot.avro.Order;
import java.util.concurrent.CompletableFuture;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Sends orders with Spring Boot's {@link KafkaTemplate}, whose value serializer is Kavro's
 * ({@code spring.kafka.producer.value-serializer}): the first order registers the schema.
 */
@Component
public class OrderProducer {
  private final KafkaTemplate<String, Order> template;

  /** With Spring Boot's template. */
  public OrderProducer(KafkaTemplate<String, Order> template) {
    this.template = template;
  }

  /**
   * Sends {@code order} to {@code topic}, keyed by its id. Kafka's producer serializes inside {@code send}, so an
   * order that cannot be serialized throws here and nothing is written: Kavro's
   * {@code SchemaRegistrationException} for a schema the registry refuses, Spring's {@code KafkaException} caused
   * by Kavro's {@code RetriableSerdeException} while the registry cannot be reached.
   */
  public CompletableFuture<SendResult<String, Order>> send(String topic, Order order) {
    return template.send(topic, order.getId(), order);
  }

  /** Sends {@code order} to {@value OrdersApplication#TOPIC}. */
  public CompletableFuture<SendResult<String, Order>> send(Order order) {
    return send(OrdersApplication.TOPIC, order);
  }
}
