package io.kavro.serde;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.apache.kafka.common.metrics.Gauge;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.MetricValueProvider;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rule metrics of one serializer or deserializer ({@code rule.metrics.enable}), under the names and tags of
 * Confluent's {@code io.confluent.kafka.serializers.metrics.RuleMetrics} (schema-registry 8.x): {@code
 * rule.executions.total}, {@code rule.success.total}, {@code rule.failure.total}, {@code rule.skipped.total},
 * {@code rule.actions.total} (also tagged {@code action}) and the gauge {@code rule.last.success.timestamp.ms}, each
 * tagged {@code rule_type}, {@code rule_mode} (the phase the rule was dispatched in: WRITE, READ, UPGRADE or
 * DOWNGRADE), {@code subject} and {@code rule_name}; Kafka adds {@code config} and {@code class}, in group
 * {@code plugins}.
 *
 * <p>As in Confluent's, a metric appears with its first event (a rule that never failed has no {@code
 * rule.failure.total}), through the {@link PluginMetrics} a client hands the plugin (KIP-877, kafka-clients 4.1+);
 * events before that are shown then. Counters are made once per rule tuple, when a route's rules are planned
 * ({@link RuleEngine#plan}), and held by the plan: counting a record is a {@link LongAdder} increment and one
 * volatile read per counter, with no lookup and no allocation. A metric that its {@code PluginMetrics} refuses is
 * not shown, and counting never fails a record: refused because the client closed it (the plugin's normal end, as
 * the client closes its plugins after their metrics), it is logged at DEBUG and no other metric is tried; refused
 * for another reason (its name taken), at WARN once per instance, then at DEBUG. Nothing is logged under the lock.
 * Thread-safe.
 */
final class RuleMetrics {
  private static final Logger log = LoggerFactory.getLogger(RuleMetrics.class);
  private final Map<Tuple, Counters> rules = new ConcurrentHashMap<>();
  /**
   * Every metric made before {@link #register}, so that those counted before are shown then; emptied then, and
   * not added to after.
   */
  private final Queue<Shown> made = new ConcurrentLinkedQueue<>();
  private volatile PluginMetrics plugin;
  /** Its {@link #plugin} refused a metric as closed: no other is tried. Under the lock. */
  private boolean closed;
  /** A refusal other than a close was logged at WARN. */
  private final AtomicBoolean warned = new AtomicBoolean();

  /** The counters of a rule dispatched in {@code phase} for {@code subject}: the same ones for the same tuple. */
  Counters of(String type, String phase, String subject, String name) {
    Tuple tuple = new Tuple(Objects.toString(type, ""), Objects.toString(phase, ""), Objects.toString(subject, ""),
        Objects.toString(name, ""));
    return rules.computeIfAbsent(tuple, Counters::new);
  }

  /** Shows the metrics through {@code metrics}, and from now on each one with its first event. */
  void register(PluginMetrics metrics) {
    Shown firstRefused = null;
    RuntimeException refusal = null;
    synchronized (this) {
      if (plugin != null) {
        return; // a client hands its metrics once; Confluent's serde too keeps the first
      }
      plugin = metrics;
      for (Shown metric : made) {
        if (metric.happened()) {
          RuntimeException refused = show(metric, metrics);
          if (refused != null && refusal == null) {
            firstRefused = metric;
            refusal = refused;
          }
        }
      }
      made.clear(); // the others are shown with their first event, by reveal
    }
    log(firstRefused, refusal);
  }

  /** Keeps {@code metric} until {@link #register}, unless that has happened. */
  private void remember(Shown metric) {
    if (plugin == null) {
      synchronized (this) {
        if (plugin == null) {
          made.add(metric);
        }
      }
    }
  }

  /** How many metrics wait for {@link #register}: none once it happened. */
  int waiting() {
    return made.size();
  }

  private void reveal(Shown metric) {
    PluginMetrics metrics = plugin;
    if (metrics != null) {
      RuntimeException refused;
      synchronized (this) {
        refused = show(metric, metrics);
      }
      log(metric, refused);
    }
  }

  /**
   * Adds {@code metric} to {@code metrics} unless it was tried before: once only, so that a refusal is not met
   * again on every event. Under the lock.
   *
   * @return Kafka's refusal, or {@code null}
   */
  private RuntimeException show(Shown metric, PluginMetrics metrics) {
    if (metric.shown) {
      return null;
    }
    metric.shown = true;
    if (closed) {
      return null;
    }
    try {
      metrics.addMetric(metrics.metricName(metric.name, metric.description, new LinkedHashMap<>(metric.tags)),
          metric.provider());
      return null;
    } catch (IllegalStateException e) { // Kafka's PluginMetricsImpl, closed with its client
      closed = true;
      return e;
    } catch (RuntimeException e) { // a name taken, or a tag of the client's
      return e;
    }
  }

  /** Logs a refusal of {@link #show}, outside the lock: a close at DEBUG, any other at WARN once. */
  private void log(Shown metric, RuntimeException refused) {
    if (refused == null) {
      return;
    }
    if (refused instanceof IllegalStateException) {
      log.debug("Rule metric {} {} is not shown, nor any later one: its client closed its metrics ({})",
          metric.name, metric.tags, refused.getMessage());
    } else if (warned.compareAndSet(false, true)) {
      log.warn("Rule metric {} {} is not shown: {}; later refusals are logged at DEBUG", metric.name, metric.tags,
          refused.getMessage());
    } else {
      log.debug("Rule metric {} {} is not shown: {}", metric.name, metric.tags, refused.getMessage());
    }
  }

  private record Tuple(String type, String phase, String subject, String name) {
    LinkedHashMap<String, String> tags() {
      LinkedHashMap<String, String> tags = new LinkedHashMap<>();
      tags.put("rule_type", type);
      tags.put("rule_mode", phase);
      tags.put("subject", subject);
      tags.put("rule_name", name);
      return tags;
    }
  }

  /** A metric that is added with its first event. */
  private abstract static class Shown {
    private final String name;
    private final String description;
    private final LinkedHashMap<String, String> tags;
    /** Tried: written under the owner's lock, read without it. */
    private volatile boolean shown;

    Shown(String name, String description, LinkedHashMap<String, String> tags) {
      this.name = name;
      this.description = description;
      this.tags = tags;
    }

    abstract boolean happened();

    abstract MetricValueProvider<?> provider();

    boolean shown() {
      return shown;
    }
  }

  /** A cumulative count, as Confluent's {@code CumulativeCount}: a double. */
  final class Count extends Shown {
    private final LongAdder count = new LongAdder();

    private Count(String name, String description, LinkedHashMap<String, String> tags) {
      super(name, description, tags);
      remember(this);
    }

    void increment() {
      count.increment();
      if (!shown()) {
        reveal(this);
      }
    }

    @Override
    boolean happened() {
      return count.sum() > 0;
    }

    @Override
    MetricValueProvider<?> provider() {
      return (Measurable) (config, now) -> count.sum();
    }
  }

  /** The wall-clock time of the last success, as Confluent's gauge: a long, epoch milliseconds. */
  private final class LastSuccess extends Shown {
    private volatile long at;

    private LastSuccess(LinkedHashMap<String, String> tags) {
      super("rule.last.success.timestamp.ms", "Wall-clock time (epoch millis) of the most recent successful rule "
          + "invocation.", tags);
      remember(this);
    }

    void set(long millis) {
      at = millis;
      if (!shown()) {
        reveal(this);
      }
    }

    @Override
    boolean happened() {
      return at != 0;
    }

    @Override
    MetricValueProvider<?> provider() {
      return (Gauge<Long>) (config, now) -> at;
    }
  }

  /** The counters of one rule tuple: rule type, phase, subject, rule name. */
  final class Counters {
    private final Tuple tuple;
    private final Count executions;
    private final Count success;
    private final Count failure;
    private final Count skipped;
    private final LastSuccess lastSuccess;
    private final Map<String, Count> actions = new ConcurrentHashMap<>();

    private Counters(Tuple tuple) {
      this.tuple = tuple;
      LinkedHashMap<String, String> tags = tuple.tags();
      executions = new Count("rule.executions.total", "Total rule dispatches that reached the action stage. Equals "
          + "rule.success.total + rule.failure.total; excludes rule.skipped.total.", tags);
      success = new Count("rule.success.total", "Total rule executions where the configured executor's transform "
          + "returned a non-null result (or, for CONDITION rules, returned true).", tags);
      failure = new Count("rule.failure.total", "Total rule executions that failed. Includes: transform threw a "
          + "RuleException, transform returned null (TRANSFORM kind), CONDITION returned false, and no executor "
          + "registered for the rule type.", tags);
      skipped = new Count("rule.skipped.total", "Total rule invocations skipped by the dispatch loop before "
          + "reaching the action stage (mode mismatch, disabled, or filtered). Not counted in "
          + "rule.executions.total.", tags);
      lastSuccess = new LastSuccess(tags);
    }

    /** The rule ran and passed. */
    void succeeded() {
      executions.increment();
      success.increment();
      lastSuccess.set(System.currentTimeMillis());
    }

    /** The rule ran and failed. */
    void failed() {
      executions.increment();
      failure.increment();
    }

    /** The rule was not run: not in this phase, disabled, or named by a record's {@code __rule.name} header. */
    void skipped() {
      skipped.increment();
    }

    /** The counter of the action {@code name}, to be counted each time it is dispatched. */
    Count action(String name) {
      return actions.computeIfAbsent(name, action -> {
        LinkedHashMap<String, String> tags = tuple.tags();
        tags.put("action", action);
        return new Count("rule.actions.total", "Total rule action invocations; only incremented when an action is "
            + "actually dispatched.", tags);
      });
    }
  }
}
