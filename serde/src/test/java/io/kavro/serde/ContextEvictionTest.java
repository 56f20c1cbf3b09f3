package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.Association;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.subject.SubjectNameStrategy;
import io.kavro.serde.subject.TickedAssociatedNameStrategy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;

/**
 * Issue 51, review: with a strategy that may name schema contexts (the default {@code AssociatedNameStrategy}
 * included), each eviction of a topic's context (more topics than {@code subject.name.strategy.cache.size}) was told
 * as a move, and every route of every topic was rebuilt, once per eviction: a CPU storm for a pattern subscription
 * or MirrorMaker. And a topic read steadily looked unused to the bound (its warm reads left no trace), so it went
 * first. Now a context learnt again, the same as before, rebuilds nothing; one that moved is read in its new context
 * and rebuilds its topic's routes only; a warm read counts as a use. Eviction is immediate and in a fixed order: each
 * test runs {@value #RUNS} times.
 */
class ContextEvictionTest {
  private static final int RUNS = 20;
  /** Topics of {@link #topics()}: the even ones in context {@code .a}, the odd ones in the default context. */
  private static final int TOPICS = 40;

  private final Serdes serdes = new Serdes();
  /** Writer schemas asked of the client (its contexts' clients too): one per route built. */
  private final AtomicInteger fetches = new AtomicInteger();
  private SchemaRegistryClient client;
  private DeserializerEngine engine;

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
    if (client != null) {
      client.close();
    }
    serdes.close();
  }

  /** Schema id {@code id} and the string "ada": a record of whichever one-string schema the id names. */
  private static byte[] ada(int id) {
    return new byte[] {0, 0, 0, 0, (byte) id, 6, 'a', 'd', 'a'};
  }

  private static Schema named(String name) {
    return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"" + name + "\",\"namespace\":\"com.acme\","
        + "\"fields\":[{\"name\":\"name\",\"type\":\"string\"}]}");
  }

  /**
   * {@link #TOPICS} topics {@code t<n>}, each writing a schema {@code T<n>} of its own: the even ones under
   * {@code :.a:t<n>-value}, with which they are associated, the odd ones under {@code t<n>-value}. Ids count per
   * context, so each id names one schema in {@code .a} and another in the default context: a topic read in the
   * wrong context gets another topic's schema. Answers the topics' ids.
   */
  private int[] topics() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime());
    MockRegistry registry = MockRegistries.scope(serdes.scope);
    int[] ids = new int[TOPICS];
    try (SchemaRegistryClient admin = serdes.registry()) {
      for (int t = 0; t < TOPICS; t++) {
        String subject = (t % 2 == 0 ? ":.a:" : "") + "t" + t + "-value";
        ids[t] = admin.register(subject, named("T" + t));
        if (t % 2 == 0) {
          registry.associate(new Association(subject, "t" + t, "-", "topic", "value"));
        }
      }
    }
    return ids;
  }

  /** A deserializer's engine, with {@code AssociatedNameStrategy} on the fake clock; contexts asked again at once. */
  private void engine(Object... keyValues) {
    client = counting(serdes.registry());
    engine = new DeserializerEngine(client, AssociationLookups.ticked(serdes, client, keyValues), new RuleMetrics(),
        TickedAssociatedNameStrategy.NANOS::get);
    engine.refreshContextsOn(Runnable::run);
  }

  /** {@code real}, counting its writer schema lookups ({@link #fetches}), and those of its contexts' clients. */
  private SchemaRegistryClient counting(SchemaRegistryClient real) {
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("schemaById")) {
            fetches.incrementAndGet();
          }
          Object answer;
          try {
            answer = method.invoke(real, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          return method.getName().equals("inContext") ? counting((SchemaRegistryClient) answer) : answer;
        });
  }

  /** The name of the schema {@code topic}'s record of schema {@code id} is read as. */
  private String read(String topic, int id) {
    return ((GenericRecord) engine.deserialize(topic, null, ada(id))).getSchema().getName();
  }

  /** A record of each topic, each read in its topic's context. */
  private void readAll(int[] ids) {
    for (int t = 0; t < TOPICS; t++) {
      assertThat(read("t" + t, ids[t])).as("topic t%s read in its context", t).isEqualTo("T" + t);
    }
  }

  /** Drops {@code topic}'s kept context and the strategy's answers, as evictions for room do. */
  private void evict(String topic) {
    ((TickedAssociatedNameStrategy) engine.topicIds().forget(topic)).forgetAnswers();
  }

  @RepeatedTest(RUNS)
  void moreTopicsThanTheBound_contextsLearntAgain_noRouteRebuilt() {
    steadyReads("subject.name.strategy.cache.size", 5);
  }

  /** As {@link #moreTopicsThanTheBound_contextsLearntAgain_noRouteRebuilt}, for the topics' own routes. */
  @RepeatedTest(RUNS)
  void moreTopicsThanTheBound_contextsLearntAgain_noOwnRouteRebuilt() {
    steadyReads("subject.name.strategy.cache.size", 5, "use.latest.version", true);
  }

  /**
   * 40 topics through a bound of 5, read in turn ten times: every context is evicted and learnt again each round
   * (hundreds of evictions), the same as before; after the first round, no route is built again.
   */
  private void steadyReads(Object... keyValues) {
    int[] ids = topics();
    engine(keyValues);
    readAll(ids);
    int warm = fetches.get();
    for (int round = 1; round < 10; round++) {
      readAll(ids);
    }
    assertThat(engine.topicIds().size()).as("topics whose context is kept").isEqualTo(5);
    assertThat(fetches.get()).as("routes built after the first round, through 9 x 40 evictions").isEqualTo(warm);
  }

  @RepeatedTest(RUNS)
  void contextMovedWhileEvicted_readInTheNewContext_noOtherRouteRebuilt() {
    movedWhileEvicted();
  }

  /** As {@link #contextMovedWhileEvicted_readInTheNewContext_noOtherRouteRebuilt}, for the topics' own routes. */
  @RepeatedTest(RUNS)
  void contextMovedWhileEvicted_readInTheNewContext_noOtherOwnRouteRebuilt() {
    movedWhileEvicted("use.latest.version", true);
  }

  /**
   * t2's context leaves and comes back the same: nothing is rebuilt. t0's leaves and its association moves meanwhile
   * to context {@code .b}, whose id 1 is another schema than {@code .a}'s: t0 is read there (the trust invariant),
   * with one route built, and no other topic's route is.
   */
  private void movedWhileEvicted(Object... keyValues) {
    int[] ids = topics();
    int moved = movedSchema(ids);
    engine(keyValues);
    readAll(ids);
    readAll(ids); // a second record per topic: each thread's last route, per topic, stands
    int warm = fetches.get();

    evict("t2");
    readAll(ids);
    assertThat(fetches.get()).as("routes built after t2's context was learnt again, the same").isEqualTo(warm);

    assertThat(read("t0", ids[0])).as("this thread's last topic, its context at hand").isEqualTo("T0");
    evict("t0");
    MockRegistries.scope(serdes.scope).associate(new Association(":.b:t0-value", "t0", "-", "topic", "value"));
    readMoved(ids, moved, warm);
  }

  /** {@code :.b:t0-value}'s schema, {@code Moved}, registered: its id, the same as t0's in {@code .a}. */
  private int movedSchema(int[] ids) {
    try (SchemaRegistryClient admin = serdes.registry()) {
      int moved = admin.register(":.b:t0-value", named("Moved"));
      assertThat(moved).as("the same id as t0's in .a").isEqualTo(ids[0]);
      return moved;
    }
  }

  /**
   * t0, whose association moved to {@code .b}, is read there, and every other topic where it was: one route built
   * since {@code warm}, t0's.
   */
  private void readMoved(int[] ids, int moved, int warm) {
    assertThat(read("t0", moved)).as("t0's id 1, read in .b where its association now is").isEqualTo("Moved");
    assertThat(read("t0", moved)).isEqualTo("Moved");
    for (int t = 1; t < TOPICS; t++) {
      assertThat(read("t" + t, ids[t])).as("topic t%s", t).isEqualTo("T" + t);
    }
    assertThat(fetches.get()).as("routes built after t0 moved: its own only").isEqualTo(warm + 1);
  }

  @RepeatedTest(RUNS)
  void contextMovedOnTheStrategysSchedule_readInTheNewContext_noOtherRouteRebuilt() {
    movedOnSchedule();
  }

  /** As {@link #contextMovedOnTheStrategysSchedule_readInTheNewContext_noOtherRouteRebuilt}, for own routes. */
  @RepeatedTest(RUNS)
  void contextMovedOnTheStrategysSchedule_readInTheNewContext_noOtherOwnRouteRebuilt() {
    movedOnSchedule("use.latest.version", true);
  }

  /**
   * Every topic's context is asked again once the strategy's answers are a minute old; t0's association moved to
   * {@code .b} meanwhile: t0 is read there, with one route built; the others are found where they were, and none of
   * their routes is rebuilt.
   */
  private void movedOnSchedule(Object... keyValues) {
    int[] ids = topics();
    int moved = movedSchema(ids);
    Object[] settings = java.util.Arrays.copyOf(keyValues, keyValues.length + 2);
    settings[keyValues.length] = "subject.name.strategy.cache.expiry.secs";
    settings[keyValues.length + 1] = 60;
    engine(settings);
    readAll(ids);
    assertThat(read("t0", ids[0])).as("this thread's last topic, its context at hand").isEqualTo("T0");
    int warm = fetches.get();

    MockRegistries.scope(serdes.scope).associate(new Association(":.b:t0-value", "t0", "-", "topic", "value"));
    TickedAssociatedNameStrategy.NANOS.addAndGet(java.time.Duration.ofSeconds(61).toNanos());
    readMoved(ids, moved, warm);
  }

  /**
   * A warm read in a context (the context checked per record, and a use of it counted) allocates nothing more than
   * one with the topic name strategy, which keeps no context: records of a topic in {@code .a} and of one in the
   * default context, in turn, two of each.
   */
  @RepeatedTest(RUNS)
  void warmReadsInContexts_allocateNothingMoreThanWithoutContexts() {
    int[] ids = topics();
    engine();
    long inContexts = allocatedPerRecord(engine, ids);
    try (SchemaRegistryClient registry = serdes.registry(); DeserializerEngine plain = new DeserializerEngine(registry,
        new AvroSerdeConfig(serdes.config("value.subject.name.strategy",
            io.kavro.serde.subject.TopicNameStrategy.class.getName()), false), new RuleMetrics())) {
      long withoutContexts = allocatedPerRecord(plain, ids);
      assertThat(inContexts).as("bytes a record, the datum's (%s without contexts)", withoutContexts)
          .isLessThanOrEqualTo(withoutContexts + 8);
    }
  }

  /** The bytes {@code engine} allocates a record, once warm, reading t0, t0, t1, t1 in turn. */
  private static long allocatedPerRecord(DeserializerEngine engine, int[] ids) {
    byte[] t0 = ada(ids[0]);
    byte[] t1 = ada(ids[1]);
    Runnable records = () -> {
      engine.deserialize("t0", null, t0);
      engine.deserialize("t0", null, t0);
      engine.deserialize("t1", null, t1);
      engine.deserialize("t1", null, t1);
    };
    for (int i = 0; i < 20_000; i++) {
      records.run();
    }
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
    for (int i = 0; i < 20_000; i++) {
      records.run();
    }
    return (threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before) / 80_000;
  }

  /**
   * A topic read steadily on its own thread has its context checked per record ({@link TopicIds#standsFor}), never
   * asked: those reads left no trace, so through a bound of 3 it was evicted before topics that other threads read a
   * few times each, and asked again. A warm read now counts as a use.
   */
  @RepeatedTest(RUNS)
  void topicReadSteadily_staysKept_whileOtherTopicsComeAndGo() {
    Map<String, AtomicInteger> asked = new ConcurrentHashMap<>();
    SubjectNameStrategy perTopic = (topic, isKey, schema) -> {
      asked.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet();
      return ":." + topic + ":" + topic + "-value";
    };
    client = serdes.registry();
    TopicIds ids = new TopicIds(client, perTopic, false, 3, System::nanoTime);
    TopicIds.TopicContext hot = ids.context("hot");
    for (int i = 0; i < 50; i++) {
      assertThat(ids.standsFor("hot", hot)).as("hot's context kept, %s other topics later", i).isTrue();
      for (int thread = 0; thread < 3; thread++) {
        assertThat(ids.context("t" + i).qualifier()).isEqualTo(":.t" + i + ":");
      }
    }
    assertThat(asked.get("hot")).as("hot's context asked").hasValue(1);
    assertThat(ids.size()).isEqualTo(3);
    ids.close();
  }
}
