package io.kavro.examples.springboot;

import io.kavro.examples.springboot.avro.Order;
import io.kavro.testkit.TestStack;
import io.kavro.testkit.TestStacks;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The Spring Boot part of the demo ({@code mvn -B -q -Pdemo -DskipTests -pl examples/spring-boot,examples -am verify},
 * or {@code -pl examples/spring-boot} for this part alone):
 * starts the testkit's stack, runs {@link OrdersApplication} against it as {@code application.yml} configures it,
 * sends orders and one poison record, and prints what the listener and the dead-letter topic got. It ends Maven's
 * JVM only when it fails (status 1), so that the demo of {@code examples} can run after it.
 */
public final class SpringBootDemo {
  private static final int ORDERS = 5;
  private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

  private SpringBootDemo() {}

  /** Runs the demo; exits with status 1 if it fails. */
  public static void main(String[] args) {
    int status = run(System.out);
    if (status != 0) {
      System.exit(status);
    }
  }

  static int run(PrintStream out) {
    out.println("== Spring Boot: application.yml, a @KafkaListener, a dead-letter topic (examples/spring-boot)");
    long begin = System.nanoTime();
    try (TestStack stack = TestStacks.start();
        // As command-line arguments, which win over application.yml (SpringApplicationBuilder.properties
        // would not: those are defaults, below it).
        ConfigurableApplicationContext app = new SpringApplicationBuilder(OrdersApplication.class)
            .run("--spring.kafka.bootstrap-servers=" + stack.bootstrapServers(),
                "--spring.kafka.properties.schema.registry.url=" + stack.registryUrl(),
                "--spring.main.banner-mode=off", "--logging.level.root=WARN",
                "--logging.level.org.apache.kafka=ERROR", "--logging.level.org.springframework.kafka=ERROR",
                "--logging.level.io.kavro.examples.springboot=ERROR")) {
      out.println("  the testkit's stack: Kafka at " + stack.bootstrapServers() + ", schema registry at "
          + stack.registryUrl());
      OrderProducer producer = app.getBean(OrderProducer.class);
      for (int i = 0; i < ORDERS; i++) {
        producer.send(Order.newBuilder().setId("order-" + i).setCustomer("customer-" + i % 2)
            .setAmount(new BigDecimal(10 + i + ".50")).setCreated(Instant.parse("2026-12-06T10:00:00Z").plusSeconds(i))
            .build()).get(30, TimeUnit.SECONDS);
      }
      try (KafkaProducer<String, byte[]> raw = new KafkaProducer<>(Map.of("bootstrap.servers",
          stack.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
        raw.send(new ProducerRecord<>(OrdersApplication.TOPIC, "poison", "not avro".getBytes(StandardCharsets.UTF_8)))
            .get(30, TimeUnit.SECONDS);
      }
      ReceivedOrders received = app.getBean(ReceivedOrders.class);
      DeadLetterListener deadLetters = app.getBean(DeadLetterListener.class);
      long deadline = System.nanoTime() + WAIT_NANOS;
      while ((received.all().size() < ORDERS || deadLetters.all().isEmpty()) && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      out.println("  sent " + ORDERS + " orders with KafkaTemplate (value-serializer: io.kavro.serde.KafkaAvroSerializer)"
          + " and one record of bytes that are not Avro");
      out.println("  the @KafkaListener received " + received.all().size() + " orders as "
          + Order.class.getName() + ":");
      received.all().forEach(order -> out.println("    " + order));
      deadLetters.all().forEach(letter -> out.println("  dead letter '" + letter.key() + "' in "
          + OrdersApplication.DEAD_LETTER_TOPIC + " (from " + letter.originalTopic() + "@" + letter.originalOffset()
          + "): " + letter.cause() + ": " + letter.message()));
      if (received.all().size() != ORDERS || deadLetters.all().size() != 1) {
        out.println("  Spring Boot demo FAILED: expected " + ORDERS + " orders and 1 dead letter");
        return 1;
      }
      out.printf("  Spring Boot demo finished in %.1f s (the stack's start included): every order read, the poison "
          + "record dead-lettered.%n", (System.nanoTime() - begin) / 1e9);
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      out.println("  Spring Boot demo interrupted");
      return 1;
    } catch (Exception e) {
      out.println("  Spring Boot demo FAILED: " + e);
      return 1;
    }
  }
}
