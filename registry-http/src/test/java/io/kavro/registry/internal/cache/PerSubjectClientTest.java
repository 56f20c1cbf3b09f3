package io.kavro.registry.internal.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaRegistryClient;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The client of a registry whose ids count per subject tells its listeners of a change in any subject's cache:
 * listeners added before a subject's cache is made, after it, or while it is made, until they are removed.
 */
class PerSubjectClientTest {
  /** Each subject's cache, a stub that keeps the listener it was given so that a test can fire it. */
  private final Map<String, Runnable> fire = new ConcurrentHashMap<>();

  private PerSubjectClient client() {
    SchemaRegistryClient registry = stub(null);
    return new PerSubjectClient(registry, subject -> stub(subject), Executors.newSingleThreadExecutor(), 1000);
  }

  private SchemaRegistryClient stub(String subject) {
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> switch (method.getName()) {
          case "onChange" -> {
            fire.put(subject, (Runnable) args[0]);
            yield (AutoCloseable) () -> fire.remove(subject);
          }
          case "close" -> null;
          case "stats" -> RegistryStats.EMPTY;
          default -> throw new UnsupportedOperationException(method.getName());
        });
  }

  @Test
  void listenersAddedBeforeAndAfterASubjectsCache_areBothTold_untilRemoved() throws Exception {
    try (PerSubjectClient client = client()) {
      AtomicInteger before = new AtomicInteger();
      AtomicInteger after = new AtomicInteger();
      AutoCloseable removeBefore = client.onChange(before::incrementAndGet);
      client.forSubject("orders-value");
      AutoCloseable removeAfter = client.onChange(after::incrementAndGet);

      fire.get("orders-value").run();
      client.forSubject("audits-value");
      fire.get("audits-value").run();
      removeBefore.close();
      fire.get("orders-value").run();
      removeAfter.close();
      fire.get("orders-value").run();

      assertThat(before).hasValue(2);
      assertThat(after).hasValue(3);
    }
  }

  @Test
  void aListenerThatThrows_doesNotKeepTheOthersFromBeingTold() {
    try (PerSubjectClient client = client()) {
      AtomicInteger told = new AtomicInteger();
      client.onChange(() -> {
        throw new IllegalStateException("boom");
      });
      client.onChange(told::incrementAndGet);
      client.forSubject("orders-value");

      fire.get("orders-value").run();

      assertThat(told).hasValue(1);
    }
  }

  /** Listeners added on other threads while subjects' caches are made: each one hears of every subject. */
  @Test
  void listenersAddedWhileCachesAreMade_missNoSubject() throws Exception {
    for (int round = 0; round < 50; round++) {
      try (PerSubjectClient client = client()) {
        AtomicInteger told = new AtomicInteger();
        Thread adding = new Thread(() -> client.onChange(told::incrementAndGet));
        adding.start();
        List.of("a", "b", "c", "d").forEach(client::forSubject);
        adding.join();
        fire.values().forEach(Runnable::run);
        assertThat(told).as("round " + round).hasValue(4);
      }
      fire.clear();
    }
  }

  /** A subject's cache, once made, is found with no message built and no character scanned, however long the name. */
  @Test
  void aKnownSubjectsCache_isFoundWithoutBuildingAMessage() {
    String subject = "orders-".repeat(1_000) + "value";
    try (PerSubjectClient client = client()) {
      SchemaRegistryClient first = client.forSubject(subject);
      int calls = 5_000;
      long perCall = 0;
      for (int round = 0; round < 3; round++) { // the last round runs compiled
        long before = allocatedByThisThread();
        for (int i = 0; i < calls; i++) {
          if (client.forSubject(subject) != first) {
            throw new AssertionError("another cache for the same subject");
          }
        }
        perCall = (allocatedByThisThread() - before) / calls;
      }
      assertThat(perCall).as("bytes allocated per call, subject of %d chars", subject.length()).isLessThan(1_000);
    }
  }

  /** The background thread every subject's cache shares, as {@code SchemaRegistryClients} makes them. */
  private final java.util.concurrent.ExecutorService shared = Executors.newSingleThreadExecutor();

  @org.junit.jupiter.api.AfterEach
  void stopShared() {
    shared.shutdownNow();
  }

  /** Each subject's cache over a stub whose schema of an id is that subject's, counting the fetches. */
  private java.util.function.Function<String, SchemaRegistryClient> cachesCounting(
      Map<String, AtomicInteger> fetches) {
    return subject -> new CachingSchemaRegistryClient(
        (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> switch (method.getName()) {
              case "schemaById" -> {
                fetches.computeIfAbsent(subject, s -> new AtomicInteger()).incrementAndGet();
                yield schemaOf(subject, (Integer) args[0]);
              }
              case "close" -> null;
              case "stats" -> RegistryStats.EMPTY;
              default -> throw new UnsupportedOperationException(method.getName());
            }), CachePolicy.of(10, java.time.Duration.ofMinutes(1)), null,
        com.github.benmanes.caffeine.cache.Ticker.systemTicker(), shared);
  }

  /**
   * Issue 54: at most {@code maxSubjects} subjects' caches are kept; a subject whose cache was evicted gets a new
   * one, which asks the registry again and answers that subject's schema of the id, never another's.
   */
  @Test
  void subjectCaches_boundedByMaxSubjects_evictedSubjectAsksTheRegistryAgain() {
    Map<String, AtomicInteger> fetches = new ConcurrentHashMap<>();
    List<String> subjects = java.util.stream.IntStream.range(0, 12).mapToObj(i -> "s" + i).toList();
    try (PerSubjectClient client = new PerSubjectClient(stub(null), cachesCounting(fetches), shared, 3)) {
      subjects.forEach(subject -> assertThat(client.forSubject(subject).schemaById(0)).isEqualTo(schemaOf(subject, 0)));

      java.util.Set<String> kept = client.cachedSubjects();
      assertThat(kept).hasSize(3);
      String evicted = subjects.stream().filter(s -> !kept.contains(s)).findFirst().orElseThrow();
      assertThat(client.forSubject(evicted).schemaById(0)).isEqualTo(schemaOf(evicted, 0));
      assertThat(fetches.get(evicted)).as("the evicted subject's id, asked again").hasValue(2);
      assertThat(client.cachedSubjects()).hasSize(3).contains(evicted);
      for (String subject : subjects) {
        assertThat(client.forSubject(subject).schemaById(0)).as(subject).isEqualTo(schemaOf(subject, 0));
      }
    }
  }

  /** Issue 54: the caches' counters only grow, though the caches that counted them are evicted. */
  @Test
  void stats_keepTheCountsOfEvictedSubjectsCaches() {
    try (PerSubjectClient client = new PerSubjectClient(stub(null), cachesCounting(new ConcurrentHashMap<>()),
        shared, 2)) {
      long seen = 0;
      for (int i = 0; i < 12; i++) {
        for (int read = 0; read < 2; read++) {
          client.forSubject("s" + i).schemaById(0);
          RegistryStats.CacheStats byId = client.stats().caches().get("schemas-by-id");
          long counted = byId.hits() + byId.misses();
          assertThat(counted).as("reads counted after subject s%d, read %d", i, read).isGreaterThan(seen);
          seen = counted;
        }
      }
      assertThat(client.cachedSubjects()).hasSize(2);
      assertThat(seen).as("every read counted, by a cache kept or evicted").isEqualTo(24);
    }
  }

  /**
   * Issue 54: {@code schema.registry.subjects.cache.size} bounds the subjects' caches of a client made from a
   * configuration, and {@code latest.cache.size} does not (it bounds the latest versions, as in Confluent).
   */
  @Test
  void subjectsCacheSize_fromTheConfiguration_boundsTheSubjectsCaches() {
    Map<String, Object> config = Map.of("schema.registry.url", "http://127.0.0.1:9/schema-repo",
        "schema.registry.api", "schema-repo", "latest.cache.size", 2, "schema.registry.subjects.cache.size", 5);
    try (PerSubjectClient client = (PerSubjectClient) io.kavro.registry.factory.SchemaRegistryClients.create(config)) {
      for (int i = 0; i < 9; i++) {
        client.forSubject("s" + i);
      }
      assertThat(client.cachedSubjects()).hasSize(5);
    }
  }

  /** Issue 54: without the setting, a client keeps the caches of its documented default, 1000 subjects. */
  @Test
  void subjectsCacheSize_byDefault_keeps1000Subjects() {
    Map<String, Object> config = Map.of("schema.registry.url", "http://127.0.0.1:9/schema-repo",
        "schema.registry.api", "schema-repo", "latest.cache.size", 10);
    try (PerSubjectClient client = (PerSubjectClient) io.kavro.registry.factory.SchemaRegistryClients.create(config)) {
      for (int i = 0; i < 1_100; i++) {
        client.forSubject("s" + i);
      }
      assertThat(client.cachedSubjects()).hasSize(1_000);
    }
  }

  private static org.apache.avro.Schema schemaOf(String subject, int id) {
    return org.apache.avro.SchemaBuilder.record(subject + "_" + id).fields().requiredInt("f").endRecord();
  }

  private static long allocatedByThisThread() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
