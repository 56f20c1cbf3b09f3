package io.kavro.serde.subject;

import io.kavro.registry.SchemaRegistryClient;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.kafka.common.Configurable;

/**
 * For tests of the serde around {@link AssociatedNameStrategy}: that strategy, timed by the fake clock
 * {@link #NANOS}, named as a class in {@code value.subject.name.strategy}.
 */
public final class TickedAssociatedNameStrategy implements RegistryAwareStrategy, Configurable {
  /** The fake clock of every instance. */
  public static final AtomicLong NANOS = new AtomicLong();

  private final AssociatedNameStrategy strategy = new AssociatedNameStrategy(NANOS::get);

  /** Drops the strategy's kept answers, as evictions for room would. */
  public void forgetAnswers() {
    strategy.forgetAnswers();
  }

  @Override
  public void configure(Map<String, ?> configs) {
    strategy.configure(configs);
  }

  @Override
  public void useRegistry(SchemaRegistryClient client) {
    strategy.useRegistry(client);
  }

  private volatile Executor refresher;
  /** How often a subject was asked ({@link #subjectName}, {@link #standingSubject}). */
  public final AtomicInteger asked = new AtomicInteger();

  /** Where the askings in the background go instead of the serde's executor, when a test sets it. */
  private volatile Executor redirect;

  @Override
  public AutoCloseable refreshInBackground(Executor executor) {
    this.refresher = executor;
    return strategy.refreshInBackground(task -> {
      Executor to = redirect;
      (to != null ? to : executor).execute(task);
    });
  }

  /** Sends the askings in the background to {@code executor}, not the serde's: for a test that runs them itself. */
  public void redirectRefreshes(Executor executor) {
    this.redirect = executor;
  }

  /** The executor last given by {@link #refreshInBackground}, or null: what the serde gave. */
  public Executor refresher() {
    return refresher;
  }

  @Override
  public void useKafkaClusterId(String clusterId) {
    strategy.useKafkaClusterId(clusterId);
  }

  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    asked.incrementAndGet();
    return strategy.subjectName(topic, isKey, schema);
  }

  @Override
  public StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
    asked.incrementAndGet();
    return strategy.standingSubject(topic, isKey, schema);
  }

  /** The time kept for the answer, read without asking ({@link AssociatedNameStrategy#subjectStandsNanos}). */
  public long subjectStandsNanos(String topic, boolean isKey, Schema schema) {
    return strategy.subjectStandsNanos(topic, isKey, schema);
  }

  @Override
  public boolean subjectIsStored(String topic, boolean isKey, Schema schema) {
    return strategy.subjectIsStored(topic, isKey, schema);
  }

  @Override
  public AutoCloseable onChange(Runnable listener) {
    return strategy.onChange(listener);
  }
}
