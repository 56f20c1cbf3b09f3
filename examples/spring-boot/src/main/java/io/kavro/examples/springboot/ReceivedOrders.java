package io.kavro.examples.springboot;

import io.kavro.examples.springboot.avro.Order;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.stereotype.Component;

/** The orders received so far, in order of arrival; what the application would store or act on. */
@Component
public class ReceivedOrders {
  private final List<Order> orders = new CopyOnWriteArrayList<>();

  void add(Order order) {
    orders.add(order);
  }

  /** A snapshot. */
  public List<Order> all() {
    return List.copyOf(orders);
  }
}
