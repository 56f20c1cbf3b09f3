package io.kavro.serde.metrics;

import io.kavro.registry.RegistryStats;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;
import org.apache.kafka.common.metrics.Measurable;
import org.apache.kafka.common.metrics.PluginMetrics;

/**
 * The metrics of one serializer or deserializer direction, and of the registry client, registered through
 * Kafka's {@code Monitorable} (KIP-877): they appear with the client's own metrics, in group {@code plugins},
 * tagged by Kafka with {@code config} (say {@code value.serializer}) and {@code class}. Until a client calls
 * {@code withPluginMetrics} records are not counted (errors are). Thread-safe; counting is two
 * {@link LongAdder} increments per record.
 *
 * <p>Names: {@code records-<verb>-total}, {@code bytes-<verb>-total}, {@code <verb>-errors-total} by
 * {@code error-type} (the exception's simple name); {@code registry-requests-total}, {@code registry-errors-total},
 * {@code registry-retries-total}, {@code registry-failovers-total}, {@code registry-request-latency-avg} and
 * {@code -max} (ms); {@code cache-hits-total}, {@code cache-misses-total}, {@code cache-evictions-total},
 * {@code cache-stale-serves-total} by {@code cache}.
 */
public final class SerdeMetrics {
  private final String verb;
  private final String action;
  private final LongAdder records = new LongAdder();
  private final LongAdder bytes = new LongAdder();
  private final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
  private volatile PluginMetrics plugin;

  /** For a direction: {@code serialized} and {@code serialize}, or {@code deserialized} and {@code deserialize}. */
  SerdeMetrics(String verb, String action) {
    this.verb = verb;
    this.action = action;
  }

  /** The serializer's direction. */
  public static SerdeMetrics serializer() {
    return new SerdeMetrics("serialized", "serialize");
  }

  /** The deserializer's direction. */
  public static SerdeMetrics deserializer() {
    return new SerdeMetrics("deserialized", "deserialize");
  }

  /**
   * A record of {@code length} bytes went through. Counted only once a client shows the metrics (Kafka
   * registers them before the first record): a serde nobody monitors pays one volatile read per record.
   */
  public void recorded(int length) {
    if (plugin != null) {
      records.increment();
      bytes.add(length);
    }
  }

  /** A record failed with {@code e}. */
  public void failed(RuntimeException e) {
    errors.computeIfAbsent(e.getClass().getSimpleName(), type -> {
      LongAdder count = new LongAdder();
      PluginMetrics metrics = plugin;
      if (metrics != null) {
        addError(metrics, type, count);
      }
      return count;
    }).increment();
  }

  /** Shows this direction's metrics through {@code metrics}. */
  public synchronized void register(PluginMetrics metrics) {
    plugin = metrics;
    add(metrics, "records-" + verb + "-total", "Records " + verb + ".", records::sum);
    add(metrics, "bytes-" + verb + "-total", "Bytes " + verb + ", framing included.", bytes::sum);
    errors.forEach((type, count) -> addError(metrics, type, count));
  }

  private void addError(PluginMetrics metrics, String type, LongAdder count) {
    LinkedHashMap<String, String> tags = new LinkedHashMap<>();
    tags.put("error-type", type);
    metrics.addMetric(metrics.metricName(action + "-errors-total", "Records that failed to be "
        + verb + ", by exception type.", tags), (Measurable) (config, now) -> count.sum());
  }

  /** Shows the registry client's metrics through {@code metrics}; {@code stats} is read when they are. */
  public static void registerRegistry(PluginMetrics metrics, Supplier<RegistryStats> stats) {
    add(metrics, "registry-requests-total", "Requests sent to the schema registry.", () -> stats.get().requests());
    add(metrics, "registry-errors-total", "Registry calls that failed for good.", () -> stats.get().errors());
    add(metrics, "registry-retries-total", "Registry requests repeated after a retriable failure.",
        () -> stats.get().retries());
    add(metrics, "registry-failovers-total", "Switches to the next registry URL.", () -> stats.get().failovers());
    metrics.addMetric(metrics.metricName("registry-request-latency-avg", "Average registry request time, ms.",
        new LinkedHashMap<>()), (Measurable) (config, now) -> {
          RegistryStats s = stats.get();
          return s.requests() == 0 ? 0.0 : s.requestNanos() / 1e6 / s.requests();
        });
    metrics.addMetric(metrics.metricName("registry-request-latency-max", "Longest registry request, ms.",
        new LinkedHashMap<>()), (Measurable) (config, now) -> stats.get().maxRequestNanos() / 1e6);
    for (String cache : new String[] {"schemas-by-id", "latest", "registrations", "lookups"}) {
      addCache(metrics, cache, "cache-hits-total", "Lookups the cache answered.", stats, RegistryStats.CacheStats::hits);
      addCache(metrics, cache, "cache-misses-total", "Lookups that asked the registry.", stats,
          RegistryStats.CacheStats::misses);
      addCache(metrics, cache, "cache-evictions-total", "Entries dropped to stay within the bound.", stats,
          RegistryStats.CacheStats::evictions);
      addCache(metrics, cache, "cache-stale-serves-total", "Answers given from a stale entry while the registry "
          + "failed.", stats, RegistryStats.CacheStats::staleServes);
    }
  }

  private static void addCache(PluginMetrics metrics, String cache, String name, String doc,
      Supplier<RegistryStats> stats, ToLongFunction<RegistryStats.CacheStats> field) {
    LinkedHashMap<String, String> tags = new LinkedHashMap<>();
    tags.put("cache", cache);
    metrics.addMetric(metrics.metricName(name, doc, tags), (Measurable) (config, now) -> {
      RegistryStats.CacheStats counts = stats.get().caches().get(cache);
      return counts == null ? 0 : field.applyAsLong(counts);
    });
  }

  private static void add(PluginMetrics metrics, String name, String doc, Supplier<Long> value) {
    metrics.addMetric(metrics.metricName(name, doc, new LinkedHashMap<>()),
        (Measurable) (config, now) -> value.get());
  }
}
