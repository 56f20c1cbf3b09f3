package io.kavro.examples.springboot;

import io.kavro.examples.springboot.avro.Order;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.stereotype.Component;

/**
 * Receives orders as the generated {@link Order} ({@code specific.avro.reader: true}). A record that Kavro cannot
 * read never reaches it: {@link KafkaErrorHandling} dead-letters it or, in a registry outage, reads it again.
 */
@Component
public class OrderListener {
  private static final Logger log = LoggerFactory.getLogger(OrderListener.class);

  private final ReceivedOrders received;

  /** Hands what it receives to {@code received}. */
  public OrderListener(ReceivedOrders received) {
    this.received = received;
  }

  /** One order. */
  @KafkaListener(topics = OrdersApplication.TOPIC)
  public void on(Order order) {
    log.info("order {} of {}: {}", order.getId(), order.getCustomer(), order.getAmount());
    received.add(order);
  }
}
