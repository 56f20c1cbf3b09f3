package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kavro.registry.Association;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.subject.RegistryAwareStrategy;
import io.kavro.serde.subject.TickedAssociatedNameStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
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
  /** Released when the registry answers again: while {@link #hung}, a lookup waits for it (a hung registry). */
  private final CountDownLatch answersAgain = new CountDownLatch(1);
  private volatile boolean hung;
  /** The calls of {@code associations}, and those made on the test's own thread (a record's). */
  private final AtomicInteger lookups = new AtomicInteger();
  private final AtomicInteger lookupsOnRecordThread = new AtomicInteger();
  private final Thread testThread = Thread.currentThread();
  /** The strategy's refreshes in the background, run when a test says so (the serde's shared thread otherwise). */
  private final List<Runnable> refreshes = new CopyOnWriteArrayList<>();
  private SerializerEngine engine;

  @BeforeEach
  void clock() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime()); // any start, even near an overflow
  }

  @AfterEach
  void close() {
    answersAgain.countDown();
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
      lookups.incrementAndGet();
      if (Thread.currentThread() == testThread) {
        lookupsOnRecordThread.incrementAndGet();
      }
      if (hung) {
        try {
          answersAgain.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (failure != null) {
        throw failure;
      }
    });
    AvroSerdeConfig config = AssociationLookups.ticked(serdes, client, keyValues);
    engine = new SerializerEngine(client, config, new RuleMetrics(), TickedAssociatedNameStrategy.NANOS::get);
    TickedAssociatedNameStrategy strategy = (TickedAssociatedNameStrategy) config.subjectNameStrategy();
    assertThat(strategy.refresher()).as("the serializer has its subjects asked again off the record path")
        .isSameAs(RegistryRefresher.executor());
    strategy.redirectRefreshes(refreshes::add); // here the test runs the refreshes itself
    return config;
  }

  /** Runs the strategy's refreshes queued so far on a thread of their own, as the serde's shared thread would. */
  private void refreshed() {
    List<Runnable> now = new ArrayList<>(refreshes);
    refreshes.clear();
    Thread background = new Thread(() -> now.forEach(Runnable::run), "test-refresher");
    background.start();
    try {
      background.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
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
    assertThat(registry.subjects()).as("asked again off the record's thread: served meanwhile")
        .containsExactly("orders-v1");
    refreshed();
    engine.serialize("orders", null, order(4));
    assertThat(registry.subjects()).as("moved once the registry answered it")
        .containsExactlyInAnyOrder("orders-v1", "orders-v2");
    assertThat(lookupsOnRecordThread).as("only the first, cold lookup on a record's thread").hasValue(1);
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
    refreshed();
    engine.serialize("orders", null, order(4));
    assertThat(registry.subjects()).containsExactlyInAnyOrder("orders-value", "orders-contract");
  }

  /**
   * Issue 51, item 2: the serializer's answer whose time is over during an outage (here a hung registry, where a
   * lookup on the record's thread would wait out the whole retry budget) does not hold up a record: it is served
   * while the registry is asked off the record path, backing off while it stays down; the association moved
   * meanwhile is followed by the first record after the registry answers it.
   */
  @Test
  void expiredAnswer_duringAnOutage_recordNeverWaits_movedAssociationFollowedWhenBack() {
    registry.associate(new Association("orders-v1", "orders", "lkc-1", "topic", "value"));
    engine("subject.name.strategy.cache.expiry.secs", 60);
    engine.serialize("orders", null, order(1));
    assertThat(lookups).hasValue(1);

    hung = true;
    advance(Duration.ofSeconds(61));
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (int i = 2; i < 12; i++) {
        engine.serialize("orders", null, order(i));
        advance(Duration.ofSeconds(1));
      }
    }, "a record waited on the hung registry");
    assertThat(lookups).as("no lookup on a record's thread").hasValue(1);
    assertThat(refreshes).as("one asking queued for the background").hasSize(1);

    hung = false; // down, answering 503 at once
    failure = new RegistryUnavailableException("HTTP 503", 503, 50301, "http://r", null);
    refreshed();
    assertThat(lookups).hasValue(2);
    advance(Duration.ofSeconds(31)); // the first wait, 30 s after the refresh that found the registry down
    engine.serialize("orders", null, order(20));
    refreshed();
    assertThat(lookups).as("asked again after the first wait").hasValue(3);
    advance(Duration.ofSeconds(59));
    engine.serialize("orders", null, order(21));
    refreshed();
    assertThat(lookups).as("backing off: the second wait is twice as long").hasValue(3);
    advance(Duration.ofSeconds(2));
    engine.serialize("orders", null, order(22));
    refreshed();
    assertThat(lookups).hasValue(4);
    assertThat(registry.subjects()).containsExactly("orders-v1");

    failure = null; // back, and the topic's association moved meanwhile
    registry.associate(new Association("orders-v2", "orders", "lkc-1", "topic", "value"));
    advance(Duration.ofSeconds(121));
    engine.serialize("orders", null, order(23));
    refreshed();
    engine.serialize("orders", null, order(24));
    assertThat(registry.subjects()).containsExactlyInAnyOrder("orders-v1", "orders-v2");
    assertThat(lookupsOnRecordThread).as("only the first, cold lookup on a record's thread").hasValue(1);
  }

  /**
   * Review of issue 51, item 2: while the refresh in the background is still queued past the answer's wait (the
   * shared thread busy), records keep the route: none asks its subject again, none makes a route.
   */
  @Test
  void expiredAnswer_askingStillQueuedPastItsWait_recordsKeepTheRoute() {
    registry.associate(new Association("orders-v1", "orders", "lkc-1", "topic", "value"));
    AvroSerdeConfig config = engine("subject.name.strategy.cache.expiry.secs", 60);
    TickedAssociatedNameStrategy strategy = (TickedAssociatedNameStrategy) config.subjectNameStrategy();
    engine.serialize("orders", null, order(1));
    advance(Duration.ofSeconds(61));
    engine.serialize("orders", null, order(2)); // queues the refresh; the answer stands its first wait
    assertThat(refreshes).hasSize(1);
    int asked = strategy.asked.get();

    advance(Duration.ofSeconds(31)); // past that wait, the refresh still queued
    for (int i = 3; i < 13; i++) {
      engine.serialize("orders", null, order(i));
    }
    assertThat(strategy.asked.get() - asked).as("the subject asked again by 10 records while the asking is queued")
        .isEqualTo(1);
    assertThat(refreshes).as("still the one asking").hasSize(1);
    assertThat(lookups).as("no registry call").hasValue(1);
  }

  /**
   * Review of issue 51, item 5: the serializer closed while its strategy's asking is queued on the shared thread:
   * the refresh runs later and asks the registry nothing.
   */
  @Test
  void closed_withAnAskingQueued_registryNotAsked() {
    registry.associate(new Association("orders-v1", "orders", "lkc-1", "topic", "value"));
    engine("subject.name.strategy.cache.expiry.secs", 60);
    engine.serialize("orders", null, order(1));
    advance(Duration.ofSeconds(61));
    engine.serialize("orders", null, order(2));
    assertThat(refreshes).hasSize(1);

    engine.close();
    engine = null;
    refreshed();
    assertThat(lookups).as("only the first lookup").hasValue(1);
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
