package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.internal.OutageBackoff;
import io.kavro.serde.subject.RegistryAwareStrategy;
import io.kavro.serde.subject.StandingSubject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, review: the background asking of topics' contexts ({@link TopicIds}, {@link RegistryRefresher}). Each
 * TopicIds started a thread of its own, which a serde never closed (a Connect converter's) kept for life; an Error
 * of the strategy escaped it.
 */
class RegistryRefresherTest {
  private final Serdes serdes = new Serdes();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final List<SchemaRegistryClient> clients = new ArrayList<>();

  @AfterEach
  void close() {
    clients.forEach(c -> {
      try {
        c.close();
      } catch (Exception e) {
        // the test's own client
      }
    });
    serdes.close();
  }

  private SchemaRegistryClient client() {
    SchemaRegistryClient client = serdes.registry();
    clients.add(client);
    return client;
  }

  /** Names topic t's subject in context {@code .ctx}; how long it stands, and what it throws, set by the test. */
  private static final class Strategy implements RegistryAwareStrategy {
    final AtomicInteger asked = new AtomicInteger();
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    volatile long standsNanos = 1;
    volatile Error error;
    volatile CountDownLatch backgroundAsks = new CountDownLatch(0);

    @Override
    public void useRegistry(SchemaRegistryClient client) {}

    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      asked.incrementAndGet();
      threads.add(Thread.currentThread().getName());
      backgroundAsks.countDown();
      if (error != null) {
        throw error;
      }
      return ":.ctx:" + topic + "-value";
    }

    @Override
    public StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
      return new StandingSubject(subjectName(topic, isKey, schema), standsNanos);
    }
  }

  private static long refresherThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals(RegistryRefresher.THREAD_NAME)).count();
  }

  /**
   * The refresher threads alive, given 5 s for more than one to become one: the pool's thread that outlived its
   * keep-alive (an earlier test class's) is still ending for a moment while its replacement runs. A thread per
   * TopicIds stays (60 s idle): more than one.
   */
  private static long refresherThreadsSettled() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    long alive = refresherThreads();
    while (alive > 1 && System.nanoTime() < deadline) {
      Thread.sleep(20);
      alive = refresherThreads();
    }
    return alive;
  }

  @Test
  void manyTopicIds_askingAgainInTheBackground_oneRefresherThreadAtMost() throws Exception {
    List<TopicIds> all = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Strategy strategy = new Strategy();
      TopicIds ids = new TopicIds(client(), strategy, false, 10, clock::get);
      all.add(ids);
      assertThat(ids.context("t").qualifier()).isEqualTo(":.ctx:");
      strategy.backgroundAsks = new CountDownLatch(1);
      clock.addAndGet(10); // past the answer's time: the next record has it asked again in the background
      assertThat(ids.context("t").qualifier()).isEqualTo(":.ctx:");
      assertThat(strategy.backgroundAsks.await(10, TimeUnit.SECONDS)).as("asked again in the background").isTrue();
    }
    assertThat(refresherThreadsSettled()).as("threads asking contexts again, for 20 open TopicIds")
        .isLessThanOrEqualTo(1);
    all.forEach(TopicIds::close);
    assertThat(refresherThreadsSettled()).as("threads asking contexts again, once they are closed")
        .isLessThanOrEqualTo(1);
  }

  @Test
  void strategyThrowsAnError_whenAskedAgain_theKeptContextServes_askedAgain30SecondsLater() {
    Strategy strategy = new Strategy();
    TopicIds ids = new TopicIds(client(), strategy, false, 10, clock::get);
    ids.refreshOn(Runnable::run);
    assertThat(ids.context("t").qualifier()).isEqualTo(":.ctx:");
    strategy.error = new NoClassDefFoundError("com/acme/Missing");
    clock.addAndGet(10);
    assertThat(ids.context("t").qualifier()).as("the kept context, while the strategy fails").isEqualTo(":.ctx:");
    assertThat(strategy.asked).hasValue(2);
    clock.addAndGet(OutageBackoff.FIRST_WAIT.minusSeconds(1).toNanos());
    ids.context("t");
    assertThat(strategy.asked).as("not asked again before 30 s").hasValue(2);
    clock.addAndGet(java.time.Duration.ofSeconds(1).toNanos());
    ids.context("t");
    assertThat(strategy.asked).as("asked again after 30 s").hasValue(3);
    ids.close();
  }
}
