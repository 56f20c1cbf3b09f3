package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.Association;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.subject.RegistryAwareStrategy;
import io.kavro.serde.subject.TickedAssociatedNameStrategy;
import java.time.Duration;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51: a running serializer follows the association of its topics as Confluent's does, which asks its strategy
 * per record: a warm route asks its subject again when the strategy's answer is up
 * ({@code subject.name.strategy.cache.expiry.secs}, the time a missing API is remembered) or the Kafka cluster id
 * changes; and makes no registry call before.
 */
class AssociatedRoutesTest {
  private static final Schema ORDER = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Order\","
      + "\"namespace\":\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}");

  private final Serdes serdes = new Serdes();
  private final MockRegistry registry = MockRegistries.scope(serdes.scope);
  /** What the client's {@code associations} throws, when set. */
  private RuntimeException failure;
  private SerializerEngine engine;

  @BeforeEach
  void clock() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime()); // any start, even near an overflow
  }

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
    serdes.close();
  }

  private static GenericRecord order(long id) {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", id);
    return order;
  }

  private static void advance(Duration by) {
    TickedAssociatedNameStrategy.NANOS.addAndGet(by.toNanos());
  }

  /** A serializer's engine on the scope, its strategy and its routes on the fake clock. */
  private AvroSerdeConfig engine(Object... keyValues) {
    SchemaRegistryClient mock = SchemaRegistryClients.create(serdes.base);
    SchemaRegistryClient client = AssociationLookups.intercepted(mock, () -> {
      if (failure != null) {
        throw failure;
      }
    });
    AvroSerdeConfig config = AssociationLookups.ticked(serdes, client, keyValues);
    engine = new SerializerEngine(client, config, new RuleMetrics(), TickedAssociatedNameStrategy.NANOS::get);
    return config;
  }

  @Test
  void cacheExpiry_warmRoute_movesToTheNewSubject_afterIt() {
    registry.associate(new Association("orders-v1", "orders", "lkc-1", "topic", "value"));
    engine("subject.name.strategy.cache.expiry.secs", 60);
    engine.serialize("orders", null, order(1));
    assertThat(registry.subjects()).containsExactly("orders-v1");

    registry.associate(new Association("orders-v2", "orders", "lkc-1", "topic", "value"));
    advance(Duration.ofSeconds(59));
    long before = serdes.registryRequests();
    engine.serialize("orders", null, order(2));
    assertThat(serdes.registryRequests()).as("no registry call within the expiry").isEqualTo(before);
    assertThat(registry.subjects()).containsExactly("orders-v1");

    advance(Duration.ofSeconds(2));
    engine.serialize("orders", null, order(3));
    assertThat(registry.subjects()).as("moved within the expiry, as Confluent's serializer does")
        .containsExactlyInAnyOrder("orders-v1", "orders-v2");
  }

  @Test
  void missingApi_warmRoute_askedAgainAfterTheTimeItIsRemembered() {
    failure = new UnsupportedRegistryApiException("no associations API", 404, 404, null, null);
    engine();
    engine.serialize("orders", null, order(1));
    assertThat(registry.subjects()).containsExactly("orders-value");

    failure = null; // the registry was upgraded, and the topic associated
    registry.associate(new Association("orders-contract", "orders", "lkc-1", "topic", "value"));
    advance(UnsupportedRegistryApiException.REMEMBERED_FOR.minusSeconds(1));
    engine.serialize("orders", null, order(2));
    assertThat(registry.subjects()).containsExactly("orders-value");
    advance(Duration.ofSeconds(2));
    engine.serialize("orders", null, order(3));
    assertThat(registry.subjects()).containsExactlyInAnyOrder("orders-value", "orders-contract");
  }

  @Test
  void clusterIdChange_warmRoute_movesToTheNewNamespacesSubject() {
    registry.associate(new Association("a", "orders", "lkc-1", "topic", "value"));
    registry.associate(new Association("b", "orders", "lkc-2", "topic", "value"));
    RegistryAwareStrategy strategy = (RegistryAwareStrategy) engine().subjectNameStrategy();
    strategy.useKafkaClusterId("lkc-1");
    engine.serialize("orders", null, order(1));
    engine.serialize("orders", null, order(2));
    assertThat(registry.subjects()).containsExactly("a");

    strategy.useKafkaClusterId("lkc-2");
    engine.serialize("orders", null, order(3));
    assertThat(registry.subjects()).containsExactlyInAnyOrder("a", "b");
  }
}
