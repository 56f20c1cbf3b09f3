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
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 51, review: with a strategy that may name schema contexts (the default {@code AssociatedNameStrategy}
 * included), each eviction of a topic's context (more topics than {@code subject.name.strategy.cache.size}) was told
 * as a move, and every route of every topic was rebuilt, once per eviction: a CPU storm for a pattern subscription
 * or MirrorMaker. And a topic read steadily looked unused to the bound (its warm reads left no trace), so it went
 * first. Now a context learnt again, the same as before, rebuilds nothing; one that moved is read in its new context
 * and rebuilds its topic's routes only; a warm read counts as a use. The tests drop a topic's context themselves (as an
 * eviction for room does) where they need a given one gone: which one a size-bound cache evicts is its own choice.
 */
class ContextEvictionTest {
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

  @Test
  void moreTopicsThanTheBound_contextsLearntAgain_noRouteRebuilt() {
    steadyReads("subject.name.strategy.cache.size", 5);
  }

  /** As {@link #moreTopicsThanTheBound_contextsLearntAgain_noRouteRebuilt}, for the topics' own routes. */
  @Test
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

  @Test
  void contextMovedWhileEvicted_readInTheNewContext_noOtherRouteRebuilt() {
    movedWhileEvicted();
  }

  /** As {@link #contextMovedWhileEvicted_readInTheNewContext_noOtherRouteRebuilt}, for the topics' own routes. */
  @Test
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

  @Test
  void contextMovedOnTheStrategysSchedule_readInTheNewContext_noOtherRouteRebuilt() {
    movedOnSchedule();
  }

  /** As {@link #contextMovedOnTheStrategysSchedule_readInTheNewContext_noOtherRouteRebuilt}, for own routes. */
  @Test
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
  @Test
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

  /** The bytes {@code engine} allocates a record, once warm (the least batch), reading t0, t0, t1, t1 in turn. */
  private static long allocatedPerRecord(DeserializerEngine engine, int[] ids) {
    byte[] t0 = ada(ids[0]);
    byte[] t1 = ada(ids[1]);
    Runnable records = () -> {
      engine.deserialize("t0", null, t0);
      engine.deserialize("t0", null, t0);
      engine.deserialize("t1", null, t1);
      engine.deserialize("t1", null, t1);
    };
    return Allocations.leastPerCall(records, 20_000, 20, 1_000) / 4;
  }

  /**
   * A topic read steadily on its own thread has its context checked per record ({@link TopicIds#standsFor}), never
   * asked: those reads left no trace (read quietly), so to the bound's policy it looked unused, and went before
   * topics that other threads read a few times each. A warm read now counts as a use: the cache records each as a hit.
   * On the record path, only the reads the thread's sampler picks count ({@link TopicIds.UseSampler}): a read that
   * does not count records nothing, and still tells whether the context is the one kept.
   */
  @Test
  void warmReadsOfAKeptContext_countAsUses_whenCounted() {
    SubjectNameStrategy perTopic = (topic, isKey, schema) -> ":." + topic + ":" + topic + "-value";
    client = serdes.registry();
    com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter stats =
        new com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter();
    TopicIds ids = new TopicIds(client, perTopic, false, TopicIds.SAMPLED_ABOVE + 1, System::nanoTime, stats);
    TopicIds.TopicContext hot = ids.context("hot");
    long before = stats.snapshot().hitCount();
    for (int i = 0; i < 50; i++) {
      assertThat(ids.standsFor("hot", hot)).as("hot's context kept").isTrue();
    }
    assertThat(stats.snapshot().hitCount() - before).as("warm reads recorded as uses of hot's context")
        .isEqualTo(50);
    for (int i = 0; i < 50; i++) {
      assertThat(ids.standsFor("hot", hot, false)).as("hot's context kept").isTrue();
      assertThat(ids.context("hot", false)).isSameAs(hot);
    }
    assertThat(stats.snapshot().hitCount() - before).as("uncounted reads recorded").isEqualTo(50);
    ids.forget("hot");
    assertThat(ids.standsFor("hot", hot, false)).as("a context no longer kept").isFalse();
    ids.close();
  }

  /**
   * The record path counts its warm reads of a topic's context as uses: every one under a bound of
   * {@link TopicIds#SAMPLED_ABOVE} topics or fewer (the default's), about one in {@link TopicIds#USE_EVERY} above.
   * Were none counted, a topic read steadily would look unused to the bound's policy.
   */
  @ParameterizedTest
  @CsvSource({"5, 1600, 1600", "2000, 40, 180"})
  void recordPath_countsWarmReadsAsUses_allOrASample(int bound, int least, int most) {
    int[] ids = topics();
    com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter stats =
        new com.github.benmanes.caffeine.cache.stats.ConcurrentStatsCounter();
    client = counting(serdes.registry());
    engine = new DeserializerEngine(client, AssociationLookups.ticked(serdes, client,
        "subject.name.strategy.cache.size", bound), new RuleMetrics(), TickedAssociatedNameStrategy.NANOS::get, stats);
    read("t0", ids[0]);
    long before = stats.snapshot().hitCount();
    for (int i = 0; i < 1600; i++) {
      read("t0", ids[0]);
    }
    assertThat(stats.snapshot().hitCount() - before).as("warm reads of t0's context counted as uses")
        .isBetween((long) least, (long) most);
  }

  /**
   * A context that stands for good (a strategy whose answers never expire) is checked per record without reading
   * the clock: the check read {@code System.nanoTime()} on every record before it looked at the deadline, which
   * doubled the time of a small record's read (S1: 34 to 62 ns in {@code DeserializeBenchmark}).
   */
  @Test
  void contextStandingForGood_checkedPerRecord_withoutReadingTheClock() {
    SubjectNameStrategy perTopic = (topic, isKey, schema) -> ":." + topic + ":" + topic + "-value";
    client = serdes.registry();
    java.util.concurrent.atomic.AtomicLong clockReads = new java.util.concurrent.atomic.AtomicLong();
    TopicIds ids = new TopicIds(client, perTopic, false, 3, () -> {
      clockReads.incrementAndGet();
      return System.nanoTime();
    });
    TopicIds.TopicContext hot = ids.context("hot");
    assertThat(hot.standsUntil()).as("stands for good").isEqualTo(Long.MAX_VALUE);
    long before = clockReads.get();
    for (int i = 0; i < 100; i++) {
      assertThat(ids.standsFor("hot", hot, false)).isTrue();
      assertThat(ids.context("hot", false)).isSameAs(hot);
    }
    assertThat(clockReads.get() - before).as("clock reads for 200 warm checks").isZero();
    ids.close();
  }

  /**
   * The sampler counts about one read in {@link TopicIds#USE_EVERY}, and every topic of a steady rotation gets
   * counted: a fixed stride would never count fifteen of every sixteen topics of a rotation through 10,000 topics,
   * whose contexts would then look unused to the cache's policy however often they are read.
   */
  @Test
  void useSampler_countsAboutOneReadInSixteen_andEveryTopicOfARotation() {
    TopicIds.UseSampler sampler = new TopicIds.UseSampler(0x9E3779B9);
    int topics = 10_000;
    int rounds = 64;
    java.util.BitSet counted = new java.util.BitSet(topics);
    int counts = 0;
    for (int round = 0; round < rounds; round++) {
      for (int topic = 0; topic < topics; topic++) {
        if (sampler.counts()) {
          counted.set(topic);
          counts++;
        }
      }
    }
    int expected = topics * rounds / TopicIds.USE_EVERY;
    assertThat(counts).as("reads counted").isBetween(expected * 9 / 10, expected * 11 / 10);
    assertThat(counted.cardinality()).as("topics of the rotation ever counted").isGreaterThan(topics * 95 / 100);
  }

  /** Registers {@code schema} under {@code subject}: its id (ids count per context). */
  private int register(String subject, Schema schema) {
    try (SchemaRegistryClient admin = serdes.registry()) {
      return admin.register(subject, schema);
    }
  }

  private static void associate(Serdes serdes, String subject, String topic) {
    MockRegistries.scope(serdes.scope).associate(new Association(subject, topic, "-", "topic", "value"));
  }

  /** The field names of the schema {@code topic}'s record of schema {@code id} is read as. */
  private java.util.List<String> fields(String topic, int id) {
    return ((GenericRecord) engine.deserialize(topic, null, ada(id))).getSchema().getFields().stream()
        .map(Schema.Field::name).toList();
  }

  /**
   * Review of ctxevict, 1: a topic's own routes were kept while its context's qualifier stayed the same. An
   * association moved to another subject of the same context ({@code :.a:orders-value} to {@code :.a:orders2-value})
   * kept the old subject's latest version (and its rules, its DEK subject) until a restart, with
   * {@code latest.cache.ttl.sec=-1}. The routes follow the new subject from the first record after the answer.
   */
  @Test
  void associationMovedToAnotherSubjectOfTheSameContext_latestOfTheNewSubjectRead() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime());
    Schema old = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"name","type":"string"}]}""");
    Schema latest2 = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"name","type":"string"},
          {"name":"region","type":"string","default":"eu"}]}""");
    int id = register(":.a:orders-value", old);
    register(":.a:orders2-value", latest2);
    associate(serdes, ":.a:orders-value", "orders");
    engine("use.latest.version", true, "subject.name.strategy.cache.expiry.secs", 60);
    assertThat(fields("orders", id)).containsExactly("name");
    assertThat(fields("orders", id)).as("this thread's last route").containsExactly("name");

    associate(serdes, ":.a:orders2-value", "orders");
    TickedAssociatedNameStrategy.NANOS.addAndGet(java.time.Duration.ofSeconds(61).toNanos());
    assertThat(fields("orders", id)).as("the latest version of :.a:orders2-value, where the association now is")
        .containsExactly("name", "region");
    assertThat(fields("orders", id)).containsExactly("name", "region");
  }

  /**
   * Review of ctxevict, 2: a thread keeps the context it read a topic in, and checks per record that it is the very
   * one kept ({@link TopicIds#standsFor}), not merely that one is kept. Thread A reads {@code orders} in {@code .a};
   * its context is evicted and its association moves to {@code .b}; thread B reads {@code orders} and learns
   * {@code .b}; thread A's next record is read in {@code .b}, though the context it holds still stands on the clock.
   */
  @Test
  void contextReplacedByAnotherThread_thisThreadsNextRecordReadInTheNewContext() throws Exception {
    int[] ids = contextsAandB();
    engine();
    java.util.concurrent.ExecutorService a = java.util.concurrent.Executors.newSingleThreadExecutor();
    java.util.concurrent.ExecutorService b = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      assertThat(a.submit(() -> read("orders", ids[0])).get()).isEqualTo("InA");
      assertThat(a.submit(() -> read("orders", ids[0])).get()).as("thread A's context at hand").isEqualTo("InA");
      evict("orders");
      associate(serdes, ":.b:orders-value", "orders");
      assertThat(b.submit(() -> read("orders", ids[1])).get()).as("thread B learns .b").isEqualTo("InB");
      assertThat(a.submit(() -> read("orders", ids[0])).get()).as("thread A's next record, in .b")
          .isEqualTo("InB");
    } finally {
      a.shutdownNow();
      b.shutdownNow();
    }
  }

  /**
   * As {@link #contextReplacedByAnotherThread_thisThreadsNextRecordReadInTheNewContext}, the context asked again
   * by the background refresher (an executor thread of its own) once the strategy's answer is a minute old, on a
   * record of thread B: thread A's next record after that refresh is read in {@code .b}.
   */
  @Test
  void contextRefreshedInTheBackground_otherThreadsNextRecordReadInTheNewContext() throws Exception {
    int[] ids = contextsAandB();
    engine("subject.name.strategy.cache.expiry.secs", 60);
    java.util.concurrent.ExecutorService refresher = java.util.concurrent.Executors.newSingleThreadExecutor();
    engine.refreshContextsOn(refresher);
    java.util.concurrent.ExecutorService a = java.util.concurrent.Executors.newSingleThreadExecutor();
    java.util.concurrent.ExecutorService b = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      assertThat(a.submit(() -> read("orders", ids[0])).get()).isEqualTo("InA");
      associate(serdes, ":.b:orders-value", "orders");
      TickedAssociatedNameStrategy.NANOS.addAndGet(java.time.Duration.ofSeconds(61).toNanos());
      b.submit(() -> engine.deserialize("orders", null, ada(ids[1]))).get(); // asks again, in the background
      refresher.submit(() -> { }).get(); // the refresh asked before it has ended
      assertThat(a.submit(() -> read("orders", ids[0])).get()).as("thread A's next record, in .b")
          .isEqualTo("InB");
      assertThat(b.submit(() -> read("orders", ids[1])).get()).isEqualTo("InB");
    } finally {
      a.shutdownNow();
      b.shutdownNow();
      refresher.shutdownNow();
    }
  }

  /**
   * {@code orders} associated with {@code :.a:orders-value} (schema {@code InA}); {@code :.b:orders-value} holds
   * {@code InB} under the same id (ids count per context). Answers both ids.
   */
  private int[] contextsAandB() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime());
    int inA = register(":.a:orders-value", named("InA"));
    int inB = register(":.b:orders-value", named("InB"));
    assertThat(inB).as("the same id in .b as in .a").isEqualTo(inA);
    associate(serdes, ":.a:orders-value", "orders");
    return new int[] {inA, inB};
  }

  /**
   * Review of ctxevict, 5: an id that a prefix seemed to hold and the registry did not know was remembered for a
   * minute for every topic, whatever its context: a record of a topic in {@code .b}, whose id 2 is known there,
   * framed by its prefix with a header left over from another record, was read under the header's schema (one its
   * producer did not use) after a record of a topic in {@code .a}, where id 2 is unknown.
   */
  @Test
  void unknownPrefixIdInOneContext_stillKnownInAnother() {
    TickedAssociatedNameStrategy.NANOS.set(System.nanoTime());
    int x = register(":.a:x-value", named("X"));
    int y1 = register(":.b:y-value", named("Y1"));
    int y2 = register(":.b:z-value", named("Y2"));
    assertThat(x).isEqualTo(y1);
    associate(serdes, ":.a:x-value", "x");
    associate(serdes, ":.b:y-value", "y");
    engine("avro.fail.on.trailing.data", false);
    org.apache.kafka.common.header.Headers header = new org.apache.kafka.common.header.internals.RecordHeaders()
        .add("__value_schema_id", WireFormat.idPrefix(x));
    // x: its header names X in .a; its payload's "prefix" names id 2, unknown in .a: the header's framing
    assertThat(((GenericRecord) engine.deserialize("x", header, ada(y2))).getSchema().getName()).isEqualTo("X");
    // y: prefix-framed (id 2 of .b, Y2), with a header left over (id 1 of .b, Y1, under which it does not read whole)
    GenericRecord read = (GenericRecord) engine.deserialize("y", header, ada(y2));
    assertThat(read.getSchema().getName()).as("the prefix's schema, known in .b").isEqualTo("Y2");
    assertThat(read.get("name")).hasToString("ada");
  }
}
