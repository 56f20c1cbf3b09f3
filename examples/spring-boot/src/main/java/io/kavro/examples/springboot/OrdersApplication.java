package io.kavro.examples.springboot;

import org.apache.kafka.clients.admin.NewTopic;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.config.TopicBuilder;

/**
 * A Spring Boot application that writes and reads {@link io.kavro.examples.springboot.avro.Order}s through Kavro,
 * configured in {@code application.yml} alone: {@link OrderProducer} sends them, {@link OrderListener} receives
 * them, and {@link KafkaErrorHandling} sends what cannot be read to {@value #DEAD_LETTER_TOPIC}.
 */
@SpringBootApplication
public class OrdersApplication {
  /** The orders. */
  public static final String TOPIC = "orders";
  /** Where records of {@value #TOPIC} that can never be read go. */
  public static final String DEAD_LETTER_TOPIC = TOPIC + KafkaErrorHandling.DEAD_LETTER_SUFFIX;

  /** Runs the application. */
  public static void main(String[] args) {
    SpringApplication.run(OrdersApplication.class, args);
  }

  /** Spring's KafkaAdmin creates it at startup, if missing. */
  @Bean
  NewTopic ordersTopic() {
    return TopicBuilder.name(TOPIC).partitions(1).replicas(1).build();
  }

  /** As many partitions as {@value #TOPIC}: the recoverer keeps a record's partition. */
  @Bean
  NewTopic ordersDeadLetterTopic() {
    return TopicBuilder.name(DEAD_LETTER_TOPIC).partitions(1).replicas(1).build();
  }
}
