package io.kavro.examples.springboot;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.kavro.examples.springboot.avro.Order;
import io.kavro.serde.MalformedPayloadException;
import io.kavro.serde.UnknownSchemaIdException;
import io.kavro.testkit.TestStack;
import io.kavro.testkit.TestStacks;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.listener.MessageListenerContainer;
import org.springframework.kafka.support.serializer.DeserializationException;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The application as configured in {@code application.yml}, on the testkit's stack (a KRaft broker and a
 * registry; with kafka-clients 3.9 here the broker runs in a child JVM): orders round-trip as generated records, a
 * record Kavro can never read goes to the dead-letter topic named by Kavro's exception, and one it cannot read
 * during a registry outage is read again until the registry answers.
 */
@SpringBootTest(properties = "kavro-orders.retry-interval=20ms")
@DirtiesContext // the context, and with it the stack (a bean below), stops after these tests
class OrdersApplicationTest {
  static final String OUTAGE_TOPIC = "orders-outage";
  static final String DENIED_TOPIC = "orders-denied";
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static TestStack stack;
  private static RegistryProxy proxy;
  private static RegistryProxy denying;

  @DynamicPropertySource
  static void onTheTestkitsStack(DynamicPropertyRegistry registry) {
    stack = TestStacks.start();
    proxy = RegistryProxy.to(stack.registryUrl());
    denying = RegistryProxy.to(stack.registryUrl());
    denying.deny();
    registry.add("spring.kafka.bootstrap-servers", stack::bootstrapServers);
    registry.add("spring.kafka.properties.schema.registry.url", stack::registryUrl);
    registry.add("outage.registry-url", proxy::url);
    registry.add("denied.registry-url", denying::url);
  }

  /** The stack and the proxy close with the context, once its listeners have stopped. */
  @TestConfiguration(proxyBeanMethods = false)
  static class OnTheStack {
    @Bean(destroyMethod = "close")
    TestStack testStack() {
      return stack;
    }

    @Bean(destroyMethod = "close")
    RegistryProxy registryProxy() {
      return proxy;
    }

    @Bean(destroyMethod = "close")
    RegistryProxy denyingProxy() {
      return denying;
    }

    @Bean
    NewTopic deniedTopic() {
      return TopicBuilder.name(DENIED_TOPIC).partitions(1).replicas(1).build();
    }

    @Bean
    DeniedListener deniedListener() {
      return new DeniedListener();
    }

    @Bean
    NewTopic outageTopic() {
      return TopicBuilder.name(OUTAGE_TOPIC).partitions(1).replicas(1).build();
    }

    @Bean
    OutageListener outageListener() {
      return new OutageListener();
    }
  }

  /** The application's consumer settings, but its registry behind {@link RegistryProxy}. */
  static class OutageListener {
    final List<Order> received = new CopyOnWriteArrayList<>();

    @KafkaListener(id = "orders-outage", topics = OUTAGE_TOPIC,
        properties = {"schema.registry.url=${outage.registry-url}", "max.retries=0"})
    void on(Order order) {
      received.add(order);
    }
  }

  /** The application's consumer settings, but a registry that refuses its credentials (401). */
  static class DeniedListener {
    final List<Order> received = new CopyOnWriteArrayList<>();

    @KafkaListener(id = "orders-denied", topics = DENIED_TOPIC,
        properties = {"schema.registry.url=${denied.registry-url}", "max.retries=0"})
    void on(Order order) {
      received.add(order);
    }
  }

  @Autowired
  OrderProducer producer;
  @Autowired
  DeniedListener denied;
  @Autowired
  KafkaListenerEndpointRegistry listeners;
  @Autowired
  ReceivedOrders received;
  @Autowired
  DeadLetterListener deadLetters;
  @Autowired
  OutageListener outage;

  @Test
  void orders_roundTripAsGeneratedRecords() throws Exception {
    List<Order> sent = List.of(order("round-trip-1"), order("round-trip-2"), order("round-trip-3"));
    for (Order order : sent) {
      producer.send(order).get(30, TimeUnit.SECONDS);
    }

    await().atMost(WAIT).until(() -> received.all().containsAll(sent));
    assertThat(received.all()).filteredOn(order -> order.getId().startsWith("round-trip-"))
        .containsExactlyElementsOf(sent)
        .allSatisfy(order -> assertThat(order).isInstanceOf(Order.class));
  }

  @Test
  void recordsKavroCannotRead_goToTheDeadLetterTopic_namedByKavrosException() throws Exception {
    byte[] notAvro = "not avro".getBytes(UTF_8);
    // Confluent's framing (magic byte 0) with schema id 2130706433 (0x7f000001), which the registry never gave.
    byte[] unknownId = {0, 0x7f, 0, 0, 1, 2, 4, 6};
    try (KafkaProducer<String, byte[]> raw = new KafkaProducer<>(
        Map.of("bootstrap.servers", stack.bootstrapServers()), new StringSerializer(), new ByteArraySerializer())) {
      raw.send(new ProducerRecord<>(OrdersApplication.TOPIC, "not-avro", notAvro)).get(30, TimeUnit.SECONDS);
      raw.send(new ProducerRecord<>(OrdersApplication.TOPIC, "unknown-id", unknownId)).get(30, TimeUnit.SECONDS);
    }
    Order behind = order("behind-the-poison");
    producer.send(behind).get(30, TimeUnit.SECONDS);

    await().atMost(WAIT).until(() -> received.all().contains(behind));
    await().atMost(WAIT).untilAsserted(() -> assertThat(deadLetters.all()).hasSizeGreaterThanOrEqualTo(2));
    assertThat(deadLetters.all()).hasSize(2);
    DeadLetter garbage = letter("not-avro");
    assertThat(garbage.value()).isEqualTo(notAvro);
    assertThat(garbage.originalTopic()).isEqualTo(OrdersApplication.TOPIC);
    assertThat(garbage.exception()).isEqualTo(DeserializationException.class.getName());
    assertThat(garbage.cause()).isEqualTo(MalformedPayloadException.class.getName());
    DeadLetter unknown = letter("unknown-id");
    assertThat(unknown.value()).isEqualTo(unknownId);
    assertThat(unknown.cause()).isEqualTo(UnknownSchemaIdException.class.getName());
    assertThat(unknown.message()).contains("2130706433");
  }

  @Test
  void aRecordUnreadableDuringARegistryOutage_isReadOnceItAnswers_neverDeadLettered() throws Exception {
    proxy.down();
    Order order = order("during-the-outage");
    producer.send(OUTAGE_TOPIC, order).get(30, TimeUnit.SECONDS); // registered through the registry itself

    // Spring's DefaultErrorHandler gives up after 10 attempts by default, and on a DeserializationException at once.
    await().atMost(WAIT).untilAsserted(() -> assertThat(proxy.refused())
        .as("requests the proxy refused: each a new attempt at the record").isGreaterThanOrEqualTo(15));
    assertThat(outage.received).isEmpty();
    proxy.up();

    await().atMost(WAIT).until(() -> outage.received.contains(order));
    assertThat(outage.received).containsExactly(order);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain(OUTAGE_TOPIC + ".DLT");
    }
  }

  @Test
  void refusedCredentials_stopTheListener_deadLetterNothing() throws Exception {
    MessageListenerContainer container = listeners.getListenerContainer("orders-denied");
    producer.send(DENIED_TOPIC, order("denied")).get(30, TimeUnit.SECONDS); // through the registry itself

    // Kavro is configured wrong, not the record: the container stops, the record uncommitted for the next start.
    await().atMost(WAIT).until(() -> !container.isRunning());
    assertThat(denied.received).isEmpty();
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", stack.bootstrapServers()))) {
      assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).doesNotContain(DENIED_TOPIC + ".DLT");
    }
  }

  private DeadLetter letter(String key) {
    return deadLetters.all().stream().filter(letter -> key.equals(letter.key())).findFirst()
        .orElseThrow(() -> new AssertionError("no dead letter with key " + key + " in " + deadLetters.all()));
  }

  static Order order(String id) {
    return Order.newBuilder().setId(id).setCustomer("customer-" + id.length()).setAmount(new BigDecimal("12.50"))
        .setCreated(Instant.parse("2026-12-06T10:00:00Z")).build();
  }
}
