package io.kavro.registry.internal.cache;

import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.internal.schema.SubjectNames;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.avro.Schema;

/**
 * The cached client of a registry whose ids count per subject ({@link SchemaRegistryClient#idsPerSubject()}):
 * one cache per subject, each over the registry's client of that subject's ids, so that id 0 of one subject is
 * never taken for id 0 of another, in memory or on disk. Calls that name a subject go to its cache; the others
 * (the subject list, ids without a subject) to the registry.
 *
 * <p>Thread-safe. A subject's cache is made on first use, once, and kept until {@link #close()}.
 */
public final class PerSubjectClient implements SchemaRegistryClient {
  private final SchemaRegistryClient registry;
  private final Function<String, SchemaRegistryClient> cacheOf;
  private final Map<String, SchemaRegistryClient> bySubject = new ConcurrentHashMap<>();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final java.util.concurrent.ExecutorService background;

  /**
   * @param registry the registry's uncached client, which {@link #close()} closes
   * @param cacheOf makes the cache of one subject's ids, over {@code registry.forSubject(subject)}
   * @param background the caches' background thread (refreshes, disk rechecks), which {@link #close()} stops
   */
  public PerSubjectClient(SchemaRegistryClient registry, Function<String, SchemaRegistryClient> cacheOf,
      java.util.concurrent.ExecutorService background) {
    this.registry = registry;
    this.cacheOf = cacheOf;
    this.background = background;
  }

  @Override
  public boolean idsPerSubject() {
    return true;
  }

  @Override
  public SchemaRegistryClient forSubject(String subject) {
    SchemaRegistryClient known = bySubject.get(SubjectNames.present(subject, "read the ids"));
    if (known != null) {
      return known; // checked when its cache was made
    }
    SubjectNames.checked(subject, "read the ids");
    return bySubject.computeIfAbsent(subject, name -> {
      SchemaRegistryClient cache = cacheOf.apply(name);
      // Each cache tells this client, which tells the listeners of the moment: one added before or while a subject
      // is first used hears of that subject's changes too, with no race between the two.
      cache.onChange(this::changed);
      return cache;
    });
  }

  /** The registry's answer: an id without its subject means no schema. */
  @Override
  public Schema schemaById(int id) {
    return registry.schemaById(id);
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    return forSubject(subject).register(subject, schema, references);
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references,
      io.kavro.registry.contract.DataContract contract) {
    return forSubject(subject).register(subject, schema, references, contract);
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    return forSubject(subject).lookup(subject, schema, references);
  }

  @Override
  public Schema schemaByGuid(UUID guid) {
    return registry.schemaByGuid(guid);
  }

  @Override
  public UUID guidOf(int id) {
    return registry.guidOf(id);
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    return forSubject(subject).latestVersion(subject);
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    return forSubject(subject).latestWithMetadata(subject, metadata);
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    return forSubject(subject).version(subject, version);
  }

  @Override
  public List<String> subjects() {
    return registry.subjects();
  }

  @Override
  public List<Integer> versions(String subject) {
    return forSubject(subject).versions(subject);
  }

  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    return forSubject(subject).checkCompatibility(subject, schema);
  }

  @Override
  public CompatibilityLevel compatibility() {
    return registry.compatibility();
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    return forSubject(subject).compatibilityInForce(subject);
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    registry.setCompatibility(level);
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    forSubject(subject).setCompatibility(subject, level);
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    return forSubject(subject).deleteSubject(subject);
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    return forSubject(subject).deleteSubjectPermanently(subject);
  }

  @Override
  public int deleteVersion(String subject, int version) {
    return forSubject(subject).deleteVersion(subject, version);
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    return forSubject(subject).deleteVersionPermanently(subject, version);
  }

  /** The sum over the subjects' caches. */
  @Override
  public long replacedSchemas() {
    return bySubject.values().stream().mapToLong(SchemaRegistryClient::replacedSchemas).sum();
  }

  /** Told of a change in any subject's cache, those made later included. */
  @Override
  public AutoCloseable onChange(Runnable listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** A subject's cache told of a change: every listener is told, each apart, as the caches tell theirs. */
  private void changed() {
    for (Runnable listener : listeners) {
      try {
        listener.run();
      } catch (RuntimeException e) {
        org.slf4j.LoggerFactory.getLogger(PerSubjectClient.class).warn(
            "A change listener of the schema registry client failed: {}", e.toString());
      }
    }
  }

  /** The registry's request counters, and each cache's counters summed over the subjects. */
  @Override
  public RegistryStats stats() {
    Map<String, RegistryStats.CacheStats> caches = new java.util.TreeMap<>();
    for (SchemaRegistryClient cache : bySubject.values()) {
      cache.stats().caches().forEach((name, stats) -> caches.merge(name, stats, PerSubjectClient::sum));
    }
    return registry.stats().withCaches(caches);
  }

  private static RegistryStats.CacheStats sum(RegistryStats.CacheStats a, RegistryStats.CacheStats b) {
    return new RegistryStats.CacheStats(a.hits() + b.hits(), a.misses() + b.misses(), a.evictions() + b.evictions(),
        a.staleServes() + b.staleServes());
  }

  /** Closes every subject's cache, then the registry's client. */
  @Override
  public void close() {
    background.shutdownNow();
    bySubject.values().forEach(SchemaRegistryClient::close);
    bySubject.clear();
    registry.close();
  }
}
