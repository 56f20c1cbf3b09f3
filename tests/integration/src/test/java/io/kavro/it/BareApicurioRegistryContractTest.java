package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.RegistryContractTest;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RetriableSerdeException;
import io.kavro.testkit.EmbeddedRegistry;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registry client contract against Apicurio Registry 2 alone, through its Confluent-compatible API, without the
 * contract layer that the testkit's stack puts in front of it ({@link ApicurioRegistryContractTest} runs through
 * the layer): what a user pointing Kavro at Apicurio 2 gets. Its own registry, as the stack's layer is chosen once
 * per JVM ({@code -Dkavro.stack.contracts}).
 */
class BareApicurioRegistryContractTest extends RegistryContractTest {
  private static EmbeddedRegistry registry;
  private SchemaRegistryClient client;

  @BeforeAll
  static void start() {
    registry = EmbeddedRegistry.start(0);
  }

  @AfterAll
  static void stop() {
    registry.close();
  }

  @BeforeEach
  void connect() {
    client = SchemaRegistryClients.create(Map.of("schema.registry.url", registry.url()));
  }

  @Override
  protected SchemaRegistryClient client() {
    return client;
  }

  @AfterEach
  void close() {
    client.close();
  }

  /**
   * Apicurio has no metadata API (the testkit's contract layer does: hence this registry of its own): a serializer
   * with {@code use.latest.with.metadata} fails, not retriably, naming the missing API.
   */
  @Test
  void useLatestWithMetadata_failsNamingTheMissingApi() {
    Map<String, Object> config = Map.of("schema.registry.url", registry.url(),
        "auto.register.schemas", false, "use.latest.with.metadata", "app=billing");
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config, false);
      assertThatThrownBy(() -> serializer.serialize("metadata-" + System.nanoTime(), RegistryOutageTest.event(1)))
          .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
          .isNotInstanceOf(RetriableSerdeException.class)
          .hasMessageContaining("metadata API");
    }
  }

  /**
   * Issue 51, item 1: Apicurio 2 has no associations API. Its own answer for the path says so (not an outage), and
   * the default subject name strategy (Confluent 8.3's, {@code AssociatedNameStrategy}) writes under
   * {@code <topic>-value}, as before.
   */
  @Test
  void noAssociationsApi_learned_defaultStrategyWritesTheTopicSubject() {
    String topic = "associations-" + System.nanoTime();
    assertThatThrownBy(() -> client.associations("-", topic, "topic", "value"))
        .isInstanceOf(io.kavro.registry.UnsupportedRegistryApiException.class)
        .hasMessageContaining("associations API");

    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", registry.url()), false);
      serializer.serialize(topic, RegistryOutageTest.event(1));
      serializer.serialize(topic, RegistryOutageTest.event(2));
    }
    org.assertj.core.api.Assertions.assertThat(client.subjects()).contains(topic + "-value")
        .noneMatch(subject -> subject.startsWith(topic) && !subject.equals(topic + "-value"));
  }
}
