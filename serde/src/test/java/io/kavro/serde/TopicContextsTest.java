package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.Association;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.internal.OutageBackoff;
import io.kavro.serde.subject.SubjectNameStrategy;
import io.kavro.serde.subject.TickedAssociatedNameStrategy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 51, after its first stop: each topic's schema context in the deserializer. With the default strategy it
 * comes from the topic's association: kept in {@code schema.cache.dir} for a consumer restarted while the registry
 * is down, followed when the association moves (on the strategy's schedule, as the serializer's routes), and kept
 * for a bounded number of topics.
 */
class TopicContextsTest {
  private static final Schema USER = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"com.acme","fields":[{"name":"name","type":"string"}]}""");
  private static final Schema PAGE = new Schema.Parser().parse("""
      {"type":"record","name":"Page","namespace":"com.acme","fields":[{"name":"title","type":"string"}]}""");
  /** Schema id {@code id} and the string "ada": a User or a Page, as the id's schema says. */
  private static byte[] ada(int id) {
    return new byte[] {0, 0, 0, 0, (byte) id, 6, 'a', 'd', 'a'};
  }

  @TempDir
  Path cacheDir;

  private final MockWebServer server = new MockWebServer();
  private final List<String> calls = new CopyOnWriteArrayList<>();
  private volatile boolean down;
  /** The engine's client's association lookups. */
  private final AtomicInteger associationLookups = new AtomicInteger();
  private final Serdes serdes = new Serdes();
  private DeserializerEngine engine;

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
    serdes.close();
    server.close();
  }

  /**
   * A registry where topic {@code orders} is associated with {@code :.a:orders-value}, and id 5 is USER in context
   * {@code .a} and PAGE in the default context; while {@link #down}, every call answers 503.
   */
  private void registry() throws Exception {
    String user = com.fasterxml.jackson.databind.node.TextNode.valueOf(USER.toString()).toString();
    String page = com.fasterxml.jackson.databind.node.TextNode.valueOf(PAGE.toString()).toString();
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        calls.add(request.getTarget());
        if (down) {
          return json(503, "{\"error_code\":50301,\"message\":\"down\"}");
        }
        String path = request.getUrl().encodedPath();
        if (path.equals("/associations/resources/-/orders")) {
          return json(200, "[{\"subject\":\":.a:orders-value\",\"resourceName\":\"orders\",\"resourceNamespace\":"
              + "\"-\",\"resourceType\":\"topic\",\"associationType\":\"value\"}]");
        }
        if (path.startsWith("/associations/")) {
          return json(200, "[]");
        }
        if (path.equals("/schemas/ids/5")) {
          return json(200, "{\"schema\":" + (":.a:".equals(request.getUrl().queryParameter("subject")) ? user : page)
              + "}");
        }
        return json(404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
      }
    });
    server.start();
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json").body(body).build();
  }

  /**
   * The first thing left open by issue 51's first stop: with the default strategy, a consumer restarted while the
   * registry is down asked the registry for its topic's association first, and failed (retriably) until it answered,
   * though {@code schema.cache.dir} held every id it needed. Now the association's last answer is kept there too.
   * Id 5 is two schemas (USER in {@code .a}, PAGE in the default context), both on disk: the record of {@code orders}
   * must be read in {@code .a}, never as the default context's id 5.
   */
  @Test
  void consumerRestartedDuringOutage_readsTheTopicsContextFromTheDiskCache() throws Exception {
    registry();
    Map<String, Object> config = Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0,
        "schema.cache.dir", cacheDir.toString());
    try (KafkaAvroDeserializer first = new KafkaAvroDeserializer()) {
      first.configure(config, false);
      assertThat(first.deserialize("orders", ada(5))).hasToString("{\"name\": \"ada\"}");
      assertThat(first.deserialize("plain", ada(5))).hasToString("{\"title\": \"ada\"}");
    }
    assertThat(calls).contains("/schemas/ids/5?subject=%3A.a%3A");

    down = true;
    try (KafkaAvroDeserializer restarted = new KafkaAvroDeserializer()) {
      restarted.configure(config, false);
      Object read = restarted.deserialize("orders", ada(5));
      assertThat(((GenericRecord) read).getSchema()).as("id 5 of context .a, not the default one's").isEqualTo(USER);
      assertThat(restarted.deserialize("plain", ada(5))).hasToString("{\"title\": \"ada\"}");
      // A topic whose association was never answered: the outage, retriable, as before.
      assertThatThrownBy(() -> restarted.deserialize("other", ada(5))).isInstanceOf(RetriableException.class);
    }

    try (KafkaAvroDeserializer withoutCache = new KafkaAvroDeserializer()) {
      withoutCache.configure(Map.of("schema.registry.url", server.url("/").toString(), "max.retries", 0), false);
      assertThatThrownBy(() -> withoutCache.deserialize("orders", ada(5))).as("no disk cache: the outage")
          .isInstanceOf(RetriableException.class);
    }
  }

  /** A deserializer's engine on the mock scope, its strategy and its topics' contexts on the fake clock. */
  private void engine(Object... keyValues) {
    SchemaRegistryClient mock = SchemaRegistryClients.create(serdes.base);
    SchemaRegistryClient client = AssociationLookups.intercepted(mock, () -> {
      associationLookups.incrementAndGet();
      if (hang != null) {
        entered.countDown();
        try {
          hang.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      if (down) {
        throw new io.kavro.registry.RegistryUnavailableException("down", 503, 50301, null, null);
      }
    });
    SchemaRegistryClient inner = client;
    client = (SchemaRegistryClient) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("storedAssociations") && onDisk != null) {
            return onDisk;
          }
          try {
            return method.invoke(inner, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
    AvroSerdeConfig config = AssociationLookups.ticked(serdes, client, keyValues);
    engine = new DeserializerEngine(client, config, new RuleMetrics(), TickedAssociatedNameStrategy.NANOS::get);
    if (!background) {
      engine.refreshContextsOn(Runnable::run); // a kept context asked again at once, on the record's thread
    }
  }

  /**
   * The mock registry, the clock set: id 1 is USER in context {@code .a}, PAGE in {@code .b}; topic {@code orders}
   * is associated with {@code :.a:orders-value}.
   */
  private MockRegistry ordersInA() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime());
    MockRegistry registry = io.kavro.registry.mock.MockRegistries.scope(serdes.scope);
    try (SchemaRegistryClient admin = serdes.registry()) {
      admin.register(":.a:orders-value", USER);
      admin.register(":.b:orders-value", PAGE);
    }
    registry.associate(new Association(":.a:orders-value", "orders", "-", "topic", "value"));
    return registry;
  }

  /** When set, the associations the client reads from its disk cache while the registry cannot be reached. */
  private volatile List<Association> onDisk;

  /** Whether {@link #engine} asks kept contexts again on its own thread (else at once, for tests of the schedule). */
  private boolean background;
  /** While set, an association lookup waits for it: a registry that hangs. */
  private volatile java.util.concurrent.CountDownLatch hang;
  private final java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);

  /**
   * Issue 51, review: a warm topic's context asked again on the record path waited on the registry with the whole
   * retry budget (minutes for a registry that hangs), per topic, overrunning max.poll.interval.ms. Now the kept
   * context serves at once while one refresh per topic asks in the background.
   */
  @Test
  void registryHangs_whenAKeptContextIsAskedAgain_theWarmReadDoesNotWait() throws Exception {
    MockRegistry registry = ordersInA();
    background = true;
    engine("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);

    java.util.concurrent.CountDownLatch hanging = new java.util.concurrent.CountDownLatch(1);
    hang = hanging;
    registry.associate(new Association(":.b:orders-value", "orders", "-", "topic", "value"));
    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(61).toNanos());
    try {
      org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
        assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema())
            .as("the kept context serves while the registry hangs").isEqualTo(USER);
        assertThat(entered.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
      });
      assertThat(associationLookups).as("one refresh at a time per topic").hasValue(2);
    } finally {
      hang = null;
      hanging.countDown();
    }
  }

  /** While the registry stays unreachable, a kept context is asked again after 30 s, then twice as long, to 5 min. */
  @Test
  void registryStaysUnreachable_keptContextAskedAgain_backingOffTo5Minutes() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime());
    MockRegistry registry = io.kavro.registry.mock.MockRegistries.scope(serdes.scope);
    try (SchemaRegistryClient admin = serdes.registry()) {
      admin.register(":.a:orders-value", USER);
    }
    registry.associate(new Association(":.a:orders-value", "orders", "-", "topic", "value"));
    engine("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    down = true;
    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(61).toNanos());
    engine.deserialize("orders", null, ada(1));
    assertThat(associationLookups).hasValue(2);
    int lookups = 2;
    for (long wait : new long[] {30, 60, 120, 240, 300, 300}) {
      TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(wait - 1).toNanos());
      assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
      assertThat(associationLookups).as("not before %s s", wait).hasValue(lookups);
      TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(2).toNanos());
      assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
      assertThat(associationLookups).as("asked again after %s s", wait).hasValue(++lookups);
      TickedAssociatedNameStrategy.NANOS.addAndGet(-Duration.ofSeconds(1).toNanos());
    }
  }

  /**
   * Issue 51, review: with more topics than subject.name.strategy.cache.size, a topic's evicted context whose
   * association moved meanwhile was asked again with nothing to compare, so no move was told: a thread's route table
   * of the old context went on reading the topic's ids there. Id 1 is USER in .a, PAGE in .b.
   */
  @Test
  void evictedContext_associationMovedMeanwhile_readInTheNewContext() throws Exception {
    evictedWhileMoved("subject.name.strategy.cache.size", 1);
  }

  /** As {@link #evictedContext_associationMovedMeanwhile_readInTheNewContext}, for the topic's own routes. */
  @Test
  void evictedContext_associationMovedMeanwhile_theTopicsOwnRoutesRebuilt() throws Exception {
    evictedWhileMoved("subject.name.strategy.cache.size", 1, "use.latest.version", true);
  }

  private void evictedWhileMoved(Object... keyValues) throws Exception {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime());
    MockRegistry registry = io.kavro.registry.mock.MockRegistries.scope(serdes.scope);
    int plainId;
    try (SchemaRegistryClient admin = serdes.registry()) {
      admin.register(":.a:orders-value", USER);
      admin.register(":.b:orders-value", PAGE);
      plainId = admin.register("plain-value", PAGE);
    }
    registry.associate(new Association(":.a:orders-value", "orders", "-", "topic", "value"));
    engine(keyValues);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    // Another thread reads another topic (bound 1). Which entry a size-bound cache evicts for room is its own choice
    // (Caffeine weighs how recently and how often each was read): the test drops orders' context and the
    // strategy's answer itself, as an eviction for room does.
    Thread other = new Thread(() -> engine.deserialize("plain", null, ada(plainId)));
    other.start();
    other.join();
    ((io.kavro.serde.subject.TickedAssociatedNameStrategy) engine.topicIds().forget("orders")).forgetAnswers();
    registry.associate(new Association(":.b:orders-value", "orders", "-", "topic", "value"));
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema())
        .as("id 1 of context .b, where the association now is").isEqualTo(PAGE);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(PAGE);
  }

  /**
   * Warm deserializer routes kept a topic's context for life: an association moved to another context was followed
   * by consumers only after a restart. Now the topic's context stands as long as the strategy's answer does
   * ({@code subject.name.strategy.cache.expiry.secs}), as the serializer's routes, and no registry call before.
   */
  @Test
  void associationMovedToAnotherContext_followedByAWarmDeserializer_afterTheExpiry_notBefore() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime()); // any start
    MockRegistry registry = io.kavro.registry.mock.MockRegistries.scope(serdes.scope);
    try (SchemaRegistryClient admin = serdes.registry()) {
      assertThat(admin.register(":.a:orders-value", USER)).isEqualTo(1);
      assertThat(admin.register(":.b:orders-value", PAGE)).as("context .b numbers its schemas apart").isEqualTo(1);
    }
    registry.associate(new Association(":.a:orders-value", "orders", "-", "topic", "value"));
    engine("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);

    registry.associate(new Association(":.b:orders-value", "orders", "-", "topic", "value"));
    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(59).toNanos());
    long before = serdes.registryRequests();
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema())
        .as("within the expiry: still .a").isEqualTo(USER);
    assertThat(serdes.registryRequests()).as("no registry call within the expiry").isEqualTo(before);

    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema())
        .as("the moved association: id 1 of context .b").isEqualTo(PAGE);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(PAGE);
  }

  /**
   * A running consumer whose topic's context is to be asked again while the registry cannot be reached keeps the
   * context it has (it read the topic's records a moment ago), asks again 30 seconds later, not per record, and
   * follows the registry's answer once it has one.
   */
  @Test
  void registryUnreachable_whenAContextIsAskedAgain_theKeptOneServes_askedAgain30SecondsLater() {
    MockRegistry registry = ordersInA();
    engine("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    assertThat(associationLookups).hasValue(1);

    down = true;
    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    assertThat(associationLookups).as("asked once, not per record").hasValue(2);

    down = false;
    registry.associate(new Association(":.b:orders-value", "orders", "-", "topic", "value"));
    TickedAssociatedNameStrategy.NANOS.addAndGet(OutageBackoff.FIRST_WAIT.minusSeconds(1).toNanos());
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    assertThat(associationLookups).hasValue(2);
    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(2).toNanos());
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(PAGE);
  }

  /**
   * Issue 51, review: a running consumer's context, learnt from the registry, was replaced by the disk cache's
   * answer when asked again during an outage; that answer may be older (another process's). Now only a live answer
   * replaces a kept context.
   */
  @Test
  void registryUnreachable_diskAnswerOfAnotherContext_neverReplacesTheKeptOne() {
    ordersInA();
    engine("subject.name.strategy.cache.expiry.secs", 60);
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    onDisk = List.of(new Association(":.b:orders-value", "orders", "-", "topic", "value"));
    down = true;
    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(61).toNanos());
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema())
        .as("the context learnt live, not the disk's").isEqualTo(USER);
    TickedAssociatedNameStrategy.NANOS.addAndGet(Duration.ofSeconds(31).toNanos());
    assertThat(((GenericRecord) engine.deserialize("orders", null, ada(1))).getSchema()).isEqualTo(USER);
    assertThat(associationLookups).as("asked again on the outage schedule").hasValue(3);
  }

  /** A strategy naming each topic's subject in a context of its own, counting its calls. */
  private static final class ContextPerTopic implements SubjectNameStrategy {
    final AtomicInteger asked = new AtomicInteger();

    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      asked.incrementAndGet();
      return ":." + topic + ":" + topic + "-value";
    }
  }

  /**
   * Issue 51, review: every eviction of a topic's context (more topics than subject.name.strategy.cache.size) was
   * told as a move, with every strategy: every route was rebuilt, and the rebuilds asked contexts again, evicting
   * more, so a route was built per record. 50 topics, each of its own schema (a Connect sink, MirrorMaker), through a
   * bound of 5: after a first round, no route is built again (no writer schema is fetched again).
   */
  @Test
  void moreTopicsThanTheBound_topicNameStrategy_routesNotRebuiltPerRecord() {
    routesStandAfterWarmUp(50, "value.subject.name.strategy",
        io.kavro.serde.subject.TopicNameStrategy.class.getName());
  }

  private void routesStandAfterWarmUp(int topics, Object... keyValues) {
    int[] ids = new int[topics];
    Schema[] schemas = new Schema[topics];
    try (SchemaRegistryClient admin = serdes.registry()) {
      for (int t = 0; t < topics; t++) {
        schemas[t] = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"User" + t + "\",\"namespace\":"
            + "\"com.acme\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}");
        ids[t] = admin.register("t" + t + "-value", schemas[t]);
      }
    }
    AtomicInteger fetches = new AtomicInteger();
    SchemaRegistryClient real = serdes.registry();
    SchemaRegistryClient counting = (SchemaRegistryClient) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("schemaById")) {
            fetches.incrementAndGet();
          }
          try {
            return method.invoke(real, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
    Map<String, Object> configs = new HashMap<>(serdes.config(keyValues));
    configs.put("subject.name.strategy.cache.size", 5);
    engine = new DeserializerEngine(counting, new AvroSerdeConfig(configs, false), new RuleMetrics());
    for (int t = 0; t < topics; t++) {
      assertThat(((GenericRecord) engine.deserialize("t" + t, null, ada(ids[t]))).getSchema()).isEqualTo(schemas[t]);
    }
    int warm = fetches.get();
    for (int round = 1; round < 10; round++) {
      for (int t = 0; t < topics; t++) {
        engine.deserialize("t" + t, null, ada(ids[t]));
      }
    }
    assertThat(fetches.get()).as("writer schema fetches (route builds) after the first round of %s topics", topics)
        .isEqualTo(warm);
    real.close();
  }

  /** The topics' contexts are kept for at most {@code subject.name.strategy.cache.size} topics. */
  @Test
  void topicsContexts_bounded_bySubjectNameStrategyCacheSize() {
    ContextPerTopic strategy = new ContextPerTopic();
    Map<String, Object> configs = new HashMap<>(serdes.config("subject.name.strategy.cache.size", 3));
    TopicIds ids = new TopicIds(serdes.registry(), strategy, false,
        io.kavro.serde.subject.AssociatedNameStrategy.cacheSize(configs), System::nanoTime);
    assertThat(ids.context("t0").qualifier()).isEqualTo(":.t0:");
    assertThat(ids.context("t0").qualifier()).isEqualTo(":.t0:");
    assertThat(strategy.asked.get()).as("a kept topic is not asked again").isEqualTo(1);
    for (int i = 1; i < 10; i++) {
      assertThat(ids.context("t" + i).qualifier()).isEqualTo(":.t" + i + ":");
    }
    assertThat(ids.size()).isEqualTo(3);
    ids.close();
  }
}
