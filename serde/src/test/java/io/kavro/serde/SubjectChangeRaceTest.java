package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.subject.RegistryAwareStrategy;
import io.kavro.serde.subject.StandingSubject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Review of issue 51, item 3: a route made while the strategy's answer is replaced (one thread asks and gets the old
 * subject, the strategy then moves and tells the serializer, another thread makes the new route, then the first
 * puts its route) never keeps the old subject for the old answer's time, let alone for good. The interleaving is
 * forced with latches in a strategy double, not by timing.
 */
class SubjectChangeRaceTest {
  private static final Schema ORDER = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Order\","
      + "\"namespace\":\"com.acme\",\"fields\":[{\"name\":\"id\",\"type\":\"long\"}]}");

  private final Serdes serdes = new Serdes();
  private SerializerEngine engine;

  @AfterEach
  void close() {
    if (engine != null) {
      engine.close();
    }
    serdes.close();
  }

  /**
   * A strategy whose answer a test moves; the asking on {@link #held}'s thread waits after reading its answer until
   * {@link #release} (as a thread preempted there would).
   */
  public static final class MovingStrategy implements RegistryAwareStrategy {
    volatile StandingSubject answer = new StandingSubject("orders-v1", Duration.ofSeconds(30).toNanos());
    volatile Thread held;
    final CountDownLatch read = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger asked = new AtomicInteger();
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    @Override
    public void useRegistry(SchemaRegistryClient client) {}

    @Override
    public StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
      StandingSubject now = answer;
      asked.incrementAndGet();
      if (Thread.currentThread() == held) {
        read.countDown();
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return now;
    }

    /** The subject, read as {@link #standingSubject} reads it. */
    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      return standingSubject(topic, isKey, schema).subject();
    }

    @Override
    public AutoCloseable onChange(Runnable listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }

    void move(StandingSubject to) {
      answer = to;
      listeners.forEach(Runnable::run);
    }
  }

  private static GenericRecord order(long id) {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", id);
    return order;
  }

  @Test
  void answerMovedWhileARouteIsMade_oldSubjectNotKept_nextRecordAsksAgain() throws Exception {
    SchemaRegistryClient client = SchemaRegistryClients.create(serdes.base);
    AvroSerdeConfig config = movingConfig();
    MovingStrategy strategy = (MovingStrategy) config.subjectNameStrategy();
    engine = new SerializerEngine(client, config, new RuleMetrics(), () -> 1_000L); // a clock that stands still

    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread b = recordB(failed);
    strategy.held = b;
    b.start();
    assertThat(strategy.read.await(10, TimeUnit.SECONDS)).as("thread B read orders-v1").isTrue();

    strategy.move(new StandingSubject("orders-v2", Long.MAX_VALUE)); // replaced, for good, and told
    engine.serialize("orders", null, order(2)); // thread C (here): its route is made with orders-v2
    strategy.release.countDown();
    b.join(10_000);
    assertThat(failed.get()).isNull();
    assertThat(client.subjects()).containsExactlyInAnyOrder("orders-v1", "orders-v2");

    assertOldRouteAskedAgainOnce(strategy);
  }

  /**
   * Review of issue 51, round 2: the change told after the route's own check of the count but before its put (the
   * other thread clearing the routes in between) still leaves the old subject unkept. Thread B is held in the clock
   * read between that check and the put.
   */
  @Test
  void answerMovedBetweenTheChecksAndThePut_oldSubjectNotKept() throws Exception {
    SchemaRegistryClient client = SchemaRegistryClients.create(serdes.base);
    AvroSerdeConfig config = movingConfig();
    MovingStrategy strategy = (MovingStrategy) config.subjectNameStrategy();
    AtomicReference<Thread> held = new AtomicReference<>();
    CountDownLatch inClock = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    engine = new SerializerEngine(client, config, new RuleMetrics(), () -> {
      if (held.compareAndSet(Thread.currentThread(), null)) { // B's first read: after its check, before its put
        inClock.countDown();
        try {
          release.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return 1_000L; // a clock that stands still
    });

    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread b = recordB(failed);
    held.set(b);
    b.start();
    assertThat(inClock.await(10, TimeUnit.SECONDS)).as("thread B made its orders-v1 route").isTrue();

    strategy.move(new StandingSubject("orders-v2", Long.MAX_VALUE)); // replaced, for good, and told
    engine.serialize("orders", null, order(2)); // thread C (here): clears the routes, makes orders-v2's
    release.countDown();
    b.join(10_000);
    assertThat(failed.get()).isNull();

    assertOldRouteAskedAgainOnce(strategy);
  }

  /** The values' settings, naming subjects by a {@link MovingStrategy}. */
  private AvroSerdeConfig movingConfig() {
    return new AvroSerdeConfig(serdes.config("value.subject.name.strategy", MovingStrategy.class), false);
  }

  /** Thread B: serializes one record, keeping what it throws in {@code failed}. */
  private Thread recordB(AtomicReference<Throwable> failed) {
    return new Thread(() -> {
      try {
        engine.serialize("orders", null, order(1));
      } catch (Throwable e) {
        failed.set(e);
      }
    }, "record-b");
  }

  /** B's orders-v1 route, put last, is not kept: the next record asks again, then orders-v2's route stands. */
  private void assertOldRouteAskedAgainOnce(MovingStrategy strategy) {
    int asked = strategy.asked.get();
    engine.serialize("orders", null, order(3));
    assertThat(strategy.asked.get() - asked).as("B's orders-v1 route, put last, is asked again at once").isEqualTo(1);
    engine.serialize("orders", null, order(4));
    assertThat(strategy.asked.get() - asked).as("then orders-v2's route stands for good").isEqualTo(1);
  }
}
