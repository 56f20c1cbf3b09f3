package io.kavro.registry.internal.cache;

import static io.kavro.registry.TestSchemas.USER_V1;
import static io.kavro.registry.TestSchemas.USER_V2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.TestSchemas;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.internal.dialect.HttpSchemaRegistryClient;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

public class CachingSchemaRegistryClientTest {
  private static final String SCHEMA = "{\"schema\":" + quoted(USER_V1.toString()) + "}";

  @StartStop
  final MockWebServer server = new MockWebServer();

  /** A ticker the test moves by hand. */
  public static final class FakeTicker implements Ticker {
    private final AtomicLong nanos = new AtomicLong();

    @Override
    public long read() {
      return nanos.get();
    }

    public void advance(Duration duration) {
      nanos.addAndGet(duration.toNanos());
    }
  }

  private HttpSchemaRegistryClient http() {
    return new HttpSchemaRegistryClient(RegistryConfig.from(Map.of(
        "schema.registry.url", server.url("/").toString(), "max.retries", 0)));
  }

  @Test
  void schemaById_sixteenConcurrentMisses_oneHttpRequest() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) throws InterruptedException {
        release.await(10, TimeUnit.SECONDS);
        return new MockResponse.Builder().body(SCHEMA).build();
      }
    });
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(http(), 100, Duration.ofMinutes(1));
    ExecutorService pool = Executors.newFixedThreadPool(16);
    CountDownLatch ready = new CountDownLatch(16);
    List<Future<Schema>> results = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      results.add(pool.submit(() -> {
        ready.countDown();
        return client.schemaById(42);
      }));
    }
    ready.await();
    Thread.sleep(100); // let all 16 threads reach the cache before the answer comes; not a correctness wait
    release.countDown();

    for (Future<Schema> result : results) {
      assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo(USER_V1);
    }
    pool.shutdown();
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(client.stats().requests()).isEqualTo(1);
  }

  @Test
  void warmCache_millionLookups_noRequest() {
    MockRegistry registry = MockRegistries.inMemory();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, 100, Duration.ofMinutes(1));
    int id = client.register("s-value", USER_V1);
    client.latestVersion("s-value");
    long before = registry.stats().requests();

    for (int i = 0; i < 1_000_000; i++) {
      client.schemaById(id);
      client.register("s-value", USER_V1);
      if (i % 1000 == 0) {
        client.latestVersion("s-value");
      }
    }

    assertThat(registry.stats().requests()).isEqualTo(before);
    assertThat(client.stats().cacheHits()).isGreaterThanOrEqualTo(2_000_000);
  }

  @Test
  void register_equalSchemaOtherInstance_servedFromTextCache() {
    MockRegistry registry = MockRegistries.inMemory();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, 100, Duration.ofMinutes(1));
    int id = client.register("s", USER_V1);
    long before = registry.stats().requests();

    assertThat(client.register("s", TestSchemas.parse(USER_V1.toString()))).isEqualTo(id);
    assertThat(registry.stats().requests()).isEqualTo(before);
  }

  @Test
  void register_populatesIdCache() {
    MockRegistry registry = MockRegistries.inMemory();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, 100, Duration.ofMinutes(1));
    int id = client.register("s", USER_V1);
    long before = registry.stats().requests();

    assertThat(client.schemaById(id)).isSameAs(USER_V1);
    assertThat(registry.stats().requests()).isEqualTo(before);
  }

  @Test
  void schemaById_unknownId_notCachedAsNull() {
    MockRegistry registry = MockRegistries.inMemory();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, 100, Duration.ofMinutes(1));

    assertThatThrownBy(() -> client.schemaById(5)).isInstanceOf(SchemaNotFoundException.class);
    registry.register("s", USER_V1);
    assertThat(client.schemaById(1)).isEqualTo(USER_V1);
  }

  @Test
  void schemaById_missingIdTtl_unknownIdRememberedThenAskedAgainAfterTtl() {
    MockRegistry registry = MockRegistries.inMemory();
    FakeTicker ticker = new FakeTicker();
    CachePolicy policy = new CachePolicy(100, Duration.ofMinutes(1), Duration.ofSeconds(30), 10);
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, policy, null, ticker, Runnable::run);

    assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaNotFoundException.class);
    long afterFirst = registry.stats().requests();
    for (int i = 0; i < 100; i++) {
      assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaNotFoundException.class)
          .hasMessageContaining("remembered as missing: missing.id.cache.ttl.sec")
          .satisfies(e -> assertThat(((SchemaNotFoundException) e).errorCode()).isEqualTo(40403));
    }
    assertThat(registry.stats().requests()).isEqualTo(afterFirst);

    registry.register("s", USER_V1); // id 1 appears behind the client's back
    ticker.advance(Duration.ofSeconds(29));
    assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaNotFoundException.class);
    ticker.advance(Duration.ofSeconds(2));
    assertThat(client.schemaById(1)).isEqualTo(USER_V1);
  }

  @Test
  void schemaById_missingIdTtl_idRegisteredThroughTheClient_resolvesAtOnce() {
    MockRegistry registry = MockRegistries.inMemory();
    CachePolicy policy = new CachePolicy(100, Duration.ofMinutes(1), Duration.ofHours(1), 10);
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, policy, null);
    assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaNotFoundException.class);

    int id = client.register("s", USER_V1);

    assertThat(id).isEqualTo(1);
    assertThat(client.schemaById(1)).isEqualTo(USER_V1);
  }

  @Test
  void schemaById_missingIdTtl_outageIsNotRememberedAsMissing() {
    server.enqueue(new MockResponse.Builder().code(503).build());
    server.enqueue(new MockResponse.Builder().body(SCHEMA).build());
    CachePolicy policy = new CachePolicy(100, Duration.ofMinutes(1), Duration.ofHours(1), 10);
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(http(), policy, null);

    assertThatThrownBy(() -> client.schemaById(7)).isInstanceOf(RegistryUnavailableException.class);
    assertThat(client.schemaById(7)).isEqualTo(USER_V1);
  }

  @Test
  void cachePolicy_invalidBounds_rejectedNamingTheField() {
    assertThatThrownBy(() -> new CachePolicy(0, Duration.ofMinutes(1), Duration.ZERO, 1))
        .hasMessageContaining("maxSize");
    assertThatThrownBy(() -> new CachePolicy(1, Duration.ofMinutes(1), Duration.ofSeconds(-1), 1))
        .hasMessageContaining("missingIdTtl");
    assertThatThrownBy(() -> new CachePolicy(1, Duration.ofMinutes(1), Duration.ZERO, 0))
        .hasMessageContaining("missingCacheSize");
    assertThatThrownBy(() -> new CachePolicy(1, Duration.ZERO, Duration.ZERO, 1)).hasMessageContaining("latestTtl");
  }

  @Test
  void latest_refreshedInBackgroundAfterTtl() {
    MockRegistry registry = MockRegistries.inMemory();
    FakeTicker ticker = new FakeTicker();
    CachePolicy policy = CachePolicy.of(100, Duration.ofSeconds(60));
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, policy, null, ticker, Runnable::run);
    registry.register("s", USER_V1);
    assertThat(client.latestVersion("s").version()).isEqualTo(1);
    registry.register("s", USER_V2);

    ticker.advance(Duration.ofSeconds(59));
    assertThat(client.latestVersion("s").version()).isEqualTo(1);
    ticker.advance(Duration.ofSeconds(2));
    // This read triggers the refresh (run inline by the test executor) and sees its result.
    assertThat(client.latestVersion("s").version()).isEqualTo(2);
  }

  /**
   * A refresh that moves the latest version tells the change listeners, once the cache holds the new one, so that
   * whatever was built from the old one (the serde's routes) is rebuilt; one that finds the same version, or a
   * listener removed, tells nothing.
   */
  @Test
  void latest_refreshThatMovesIt_tellsTheChangeListeners() throws Exception {
    MockRegistry registry = MockRegistries.inMemory();
    FakeTicker ticker = new FakeTicker();
    CachePolicy policy = CachePolicy.of(100, Duration.ofSeconds(60));
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, policy, null, ticker, Runnable::run);
    registry.register("s", USER_V1);
    java.util.List<Integer> seen = new java.util.ArrayList<>();
    AutoCloseable listening = client.onChange(() -> seen.add(client.latestVersion("s").version()));
    client.latestVersion("s");

    ticker.advance(Duration.ofSeconds(61));
    client.latestVersion("s"); // refreshed: the same version
    assertThat(seen).isEmpty();
    registry.register("s", USER_V2);
    ticker.advance(Duration.ofSeconds(61));
    client.latestVersion("s"); // refreshed: version 2

    assertThat(seen).as("told once, and the cache already answers the new version").containsExactly(2);
    listening.close();
    registry.register("s", new org.apache.avro.Schema.Parser().parse(USER_V2.toString()
        .replaceFirst("\\]}$", ",{\"name\":\"v3\",\"type\":\"int\",\"default\":3}]}")));
    ticker.advance(Duration.ofSeconds(61));
    assertThat(client.latestVersion("s").version()).isEqualTo(3);
    assertThat(seen).as("a removed listener is not told").hasSize(1);
  }

  @Test
  void latest_refreshFails_servesStaleThenRecovers() {
    server.enqueue(new MockResponse.Builder().body(
        "{\"subject\":\"s\",\"version\":1,\"id\":1,\"schema\":" + quoted(USER_V1.toString()) + "}").build());
    server.enqueue(new MockResponse.Builder().code(503).body("{\"error_code\":50301,\"message\":\"down\"}").build());
    server.enqueue(new MockResponse.Builder().body(
        "{\"subject\":\"s\",\"version\":2,\"id\":2,\"schema\":" + quoted(USER_V2.toString()) + "}").build());
    FakeTicker ticker = new FakeTicker();
    CachePolicy policy = CachePolicy.of(100, Duration.ofSeconds(60));
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(http(), policy, null, ticker, Runnable::run);
    assertThat(client.latestVersion("s").version()).isEqualTo(1);

    ticker.advance(Duration.ofSeconds(61));
    assertThat(client.latestVersion("s").version()).isEqualTo(1);
    assertThat(server.getRequestCount()).isEqualTo(2);

    ticker.advance(Duration.ofSeconds(61));
    assertThat(client.latestVersion("s").version()).isEqualTo(2);
  }

  @Test
  void latest_firstLoadFails_errorPropagates() {
    server.enqueue(new MockResponse.Builder().code(503).body("{\"error_code\":50301,\"message\":\"down\"}").build());
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(http(), 100, Duration.ofMinutes(1));

    assertThatThrownBy(() -> client.latestVersion("s")).isInstanceOf(RegistryUnavailableException.class);
  }

  @Test
  void caches_boundedByMaxSize() {
    MockRegistry registry = MockRegistries.inMemory();
    registry.setCompatibility(io.kavro.registry.CompatibilityLevel.NONE);
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, 50, Duration.ofMinutes(1));

    for (int i = 0; i < 2_000; i++) {
      int id = client.register("s", TestSchemas.numbered(i));
      client.schemaById(id);
    }

    CachingSchemaRegistryClient.CacheSizes sizes = client.cacheSizes();
    assertThat(sizes.schemasById()).isLessThanOrEqualTo(50);
    assertThat(sizes.registered()).isLessThanOrEqualTo(50);
  }

  @Test
  void deleteSubject_forgetsCachedRegistrations() {
    MockRegistry registry = MockRegistries.inMemory();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(registry, 100, Duration.ofMinutes(1));
    client.register("s", USER_V1);
    client.deleteSubject("s");

    client.register("s", USER_V1);

    assertThat(registry.versions("s")).containsExactly(2);
  }

  @Test
  void stats_countHitsAndMisses() {
    SchemaRegistryClient client = new CachingSchemaRegistryClient(MockRegistries.inMemory(), 10,
        Duration.ofMinutes(1));
    client.register("s", USER_V1);
    client.register("s", USER_V1);

    assertThat(client.stats().cacheMisses()).isEqualTo(1);
    assertThat(client.stats().cacheHits()).isEqualTo(1);
    assertThat(client.stats().requests()).isEqualTo(1);
  }

  private static String quoted(String text) {
    return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.textNode(text).toString();
  }

  /** Issue 13, item 10: refreshes run on the client's own daemon thread, which close() stops. */
  @Test
  void latest_refreshRunsOnTheClientsOwnThread_stoppedByClose() throws Exception {
    ScriptedRegistry scripted = new ScriptedRegistry();
    scripted.registry.register("s", USER_V1);
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(scripted.client(),
        CachePolicy.of(100, Duration.ofMillis(50)), null);
    client.latestVersion("s");
    scripted.registry.register("s", USER_V2);

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (client.latestVersion("s").version() != 2 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }

    assertThat(client.latestVersion("s").version()).isEqualTo(2);
    assertThat(scripted.callingThreads).extracting(Thread::getName).contains("kavro-registry-refresh")
        .noneMatch(name -> name.startsWith("ForkJoinPool"));
    Thread refresher = scripted.callingThreads.stream()
        .filter(thread -> thread.getName().equals("kavro-registry-refresh")).findFirst().orElseThrow();
    assertThat(refresher.isDaemon()).isTrue();
    client.close();
    refresher.join(10_000);
    assertThat(refresher.isAlive()).isFalse();
  }

  /**
   * Issue 13, item 11: a miss held by a slow registry never holds up a miss of another id, even one that
   * falls in the same bin of the cache's map (1 and 4097 do, for every table of up to 4096 bins).
   */
  @Test
  void schemaById_slowMiss_doesNotBlockAnotherIdsMiss() throws Exception {
    ScriptedRegistry scripted = new ScriptedRegistry();
    for (int i = 0; i < 4097; i++) {
      scripted.registry.register("s" + i, Schema.createFixed("F" + i, null, "x", 1));
    }
    scripted.heldKey = 1;
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(scripted.client(), 100, Duration.ofMinutes(1));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<Schema> slow = pool.submit(() -> client.schemaById(1));
      assertThat(scripted.held.await(10, TimeUnit.SECONDS)).isTrue();

      Future<Schema> other = pool.submit(() -> client.schemaById(4097));

      assertThat(other.get(5, TimeUnit.SECONDS).getName()).isEqualTo("F4096");
      assertThat(slow.isDone()).isFalse();
      scripted.release.countDown();
      assertThat(slow.get(5, TimeUnit.SECONDS).getName()).isEqualTo("F0");
    } finally {
      scripted.release.countDown();
      pool.shutdownNow();
    }
  }

  /**
   * Issue 13: a refresh held up by a slow registry blocks nobody: the subject keeps being served its stale
   * latest version, and other lookups go on, while the refresh waits on the client's own thread.
   */
  @Test
  void latest_slowRefresh_servesStaleAndOtherLookupsGoOn() throws Exception {
    ScriptedRegistry scripted = new ScriptedRegistry();
    scripted.registry.register("s", USER_V1);
    int other = scripted.registry.register("t", USER_V2);
    FakeTicker ticker = new FakeTicker();
    ExecutorService refreshes = Executors.newSingleThreadExecutor();
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(scripted.client(),
        CachePolicy.of(100, Duration.ofSeconds(60)), null, ticker, refreshes);
    assertThat(client.latestVersion("s").version()).isEqualTo(1);
    scripted.registry.register("s", USER_V2);
    scripted.heldKey = "s";
    try {
      ticker.advance(Duration.ofSeconds(61));
      assertThat(client.latestVersion("s").version()).isEqualTo(1); // starts the refresh, which is held
      assertThat(scripted.held.await(10, TimeUnit.SECONDS)).isTrue();

      long start = System.nanoTime();
      assertThat(client.latestVersion("s").version()).isEqualTo(1);
      assertThat(client.schemaById(other)).isEqualTo(USER_V2);
      assertThat(client.latestVersion("t").version()).isEqualTo(1);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);
    } finally {
      scripted.release.countDown();
      refreshes.shutdown();
      assertThat(refreshes.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(client.latestVersion("s").version()).isEqualTo(2);
  }

  /**
   * A failed load is the caller's to report: nothing is logged for it (a consumer skipping records with an
   * unknown id would otherwise log a stack trace per record).
   */
  @Test
  void failedLoad_logsNothing() {
    java.util.List<java.util.logging.LogRecord> records = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Handler handler = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord record) {
        records.add(record);
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    java.util.logging.Logger root = java.util.logging.Logger.getLogger("");
    root.addHandler(handler);
    try {
      CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(MockRegistries.inMemory(), 100,
          Duration.ofMinutes(1));
      for (int i = 0; i < 3; i++) {
        assertThatThrownBy(() -> client.schemaById(99)).isInstanceOf(SchemaNotFoundException.class);
        assertThatThrownBy(() -> client.latestVersion("none")).isInstanceOf(SchemaNotFoundException.class);
      }
    } finally {
      root.removeHandler(handler);
    }
    assertThat(records).isEmpty();
  }

  /** The level alone passes through as the HTTP client asks it: one request, with defaultToGlobal. */
  @Test
  void compatibility_subject_isTheDelegatesOneRequest() throws Exception {
    server.enqueue(new MockResponse.Builder().body("{\"compatibilityLevel\":\"FULL\"}").build());
    CachingSchemaRegistryClient client = new CachingSchemaRegistryClient(http(), 100, Duration.ofMinutes(1));

    assertThat(client.compatibility("s")).isEqualTo(CompatibilityLevel.FULL);
    assertThat(server.getRequestCount()).isEqualTo(1);
    assertThat(server.takeRequest().getTarget()).isEqualTo("/config/s?defaultToGlobal=true");
  }

  /**
   * A cache hit costs the same whatever the subject's length: no message is built and no character scanned per call
   * (the client behind the cache checks a subject once, on the miss that fills it).
   */
  @Test
  void cacheHits_buildNoMessage_whateverTheSubjectsLength() {
    String subject = "orders-".repeat(1_000) + "value";
    CachingSchemaRegistryClient client =
        new CachingSchemaRegistryClient(MockRegistries.inMemory(), 100, Duration.ofMinutes(1));
    client.register(subject, USER_V1);
    int calls = 2_000;
    for (int round = 0; round < 3; round++) { // the last round runs compiled
      long before = allocatedByThisThread();
      for (int i = 0; i < calls; i++) {
        client.register(subject, USER_V1);
        client.lookup(subject, USER_V1);
        client.latestVersion(subject);
      }
      long perCall = (allocatedByThisThread() - before) / (3L * calls);
      if (round == 2) {
        assertThat(perCall).as("bytes allocated per cache hit, subject of %d chars", subject.length())
            .isLessThan(1_000);
      }
    }
  }

  private static long allocatedByThisThread() {
    return ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
        .getThreadAllocatedBytes(Thread.currentThread().getId());
  }
}
