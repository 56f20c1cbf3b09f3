package io.kavro.serde.subject;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import io.kavro.registry.Association;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.serde.internal.Deadlines;
import io.kavro.serde.internal.OutageBackoff;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.avro.Schema;
import org.apache.kafka.common.Configurable;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subject that the registry associates with the topic's keys or values (Confluent 8.3's {@code /associations}
 * API), else the fallback strategy's: Confluent's default strategy since 8.3, and Kavro's. Where the registry has
 * no associations API (Apicurio, Karapace, Redpanda, Confluent before 8.3) or the topic has no association, the
 * subject is {@link TopicNameStrategy}'s, as before.
 *
 * <p>The registry is asked once per (topic, key or value, and the schema when the fallback names subjects by it),
 * with {@code GET /associations/resources/{namespace}/{topic}?resourceType=topic&associationType=key|value}; the
 * namespace is the Kafka cluster id the serde learns (it replaces {@value #KAFKA_CLUSTER_ID_CONFIG}, as in
 * Confluent's strategy, whose producer tells it before the first record), else {@value #KAFKA_CLUSTER_ID_CONFIG},
 * else {@code "-"} (any cluster). The answer is kept ({@value #CACHE_SIZE_CONFIG} entries, 1000 by default; for
 * {@value #CACHE_EXPIRY_SECS_CONFIG} seconds, forever by default), and the serializer's routes keep the subject
 * no longer ({@link #standingSubject}). More than one associated subject is refused (a
 * {@code SerializationException} naming them), as is no subject with fallback {@code NONE}: neither is kept, the
 * registry is asked again on the next record, as Confluent's loader does. The registry's answer that it lacks the
 * API is kept only as long as the registry client remembers it
 * ({@link UnsupportedRegistryApiException#REMEMBERED_FOR}), then asked again. Any other failure (an outage, a
 * proxy's 404, a 5xx, a refusal) comes out as the registry client's exception, not kept, never a fallback: the
 * serde reports an outage as retriable; except that when the registry cannot be reached
 * ({@link RegistryUnavailableException}) and the disk cache ({@code schema.cache.dir}) holds the registry's last
 * answer for the lookup ({@link SchemaRegistryClient#storedAssociations}), that answer is used, and kept
 * {@link #STORED_ANSWER_KEPT} only: a consumer restarted during an outage reads its topics as before it. A registry
 * whose ids count per subject (schema-repo) is never asked: it has no associations, the fallback's subjects are its
 * subjects.
 *
 * <p>An answer whose time is over is asked again in line, unless the serde had it asked in the background
 * ({@link #refreshInBackground}, the serializer's): then it serves on while the registry is asked off the record
 * path, backing off while the registry cannot be reached, and is replaced by the registry's answer or withdrawn on
 * its refusal.
 *
 * <p>{@value #FALLBACK_TYPE_CONFIG}: {@code TOPIC} (the default), {@code RECORD}, {@code TOPIC_RECORD}, or
 * {@code NONE}, for which a topic without an association is refused. Configured once with the serde's settings;
 * thread-safe.
 */
public final class AssociatedNameStrategy implements RegistryAwareStrategy, Configurable {
  private static final Logger log = LoggerFactory.getLogger(AssociatedNameStrategy.class);

  /** How long, in seconds, an answer is kept: -1 (the default) for as long as there is room. Confluent's key. */
  public static final String CACHE_EXPIRY_SECS_CONFIG = "subject.name.strategy.cache.expiry.secs";
  /** How many (topic, key or value) answers are kept: 1000 by default. Confluent's key. */
  public static final String CACHE_SIZE_CONFIG = "subject.name.strategy.cache.size";
  /** The resource namespace of the topics: their Kafka cluster's id. Confluent's key. */
  public static final String KAFKA_CLUSTER_ID_CONFIG = "subject.name.strategy.kafka.cluster.id";
  /** The strategy for a topic without association: TOPIC, RECORD, TOPIC_RECORD or NONE. Confluent's key. */
  public static final String FALLBACK_TYPE_CONFIG = "subject.name.strategy.fallback.type";

  private static final int DEFAULT_CACHE_SIZE = 1000;

  /**
   * How long an answer read from the disk cache ({@code schema.cache.dir}) while the registry cannot be reached is
   * kept before the registry is asked again (and a warm route asks its subject again): its live answer then
   * replaces it.
   */
  public static final Duration STORED_ANSWER_KEPT = OutageBackoff.FIRST_WAIT;

  private final Ticker ticker;
  private volatile Settings settings = Settings.DEFAULT;
  /** Made with the settings, by {@link #configure} or on the first lookup of a strategy never configured. */
  private volatile Cache<Key, Answer> answers;
  private volatile SchemaRegistryClient client;
  /** The namespace of the lookups: the cluster id the serde learnt, else the configured one, else null. */
  private volatile String clusterId;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile boolean warnedNoClient;
  private volatile boolean warnedNoApi;
  /** Where answers whose time is over are asked again, the kept one serving meanwhile; null: asked in line. */
  private volatile Refreshes refresher;
  /**
   * The lookups being asked again in the background, each by its one {@link Refresh}: at most one asking at a time
   * per lookup. One that has started is the one until it ends, however long it takes (a second beside it would race
   * it to the kept answer); one still queued after {@link OutageBackoff#LONGEST_WAIT} (an executor that dropped it)
   * is given up, so that it never asks when it runs after all, and another is queued.
   */
  private final Map<Key, Refresh> refreshing = new ConcurrentHashMap<>();

  /** A strategy with the defaults, until configured. */
  public AssociatedNameStrategy() {
    this(Ticker.systemTicker());
  }

  /** As {@link #AssociatedNameStrategy()}, timing what it keeps by {@code ticker}: for tests. */
  AssociatedNameStrategy(Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /**
   * Reads this strategy's keys ({@value #FALLBACK_TYPE_CONFIG}, {@value #CACHE_SIZE_CONFIG},
   * {@value #CACHE_EXPIRY_SECS_CONFIG}, {@value #KAFKA_CLUSTER_ID_CONFIG}) from the serde's settings.
   *
   * @throws ConfigException naming the key and its value when one is not valid
   */
  @Override
  public void configure(Map<String, ?> configs) {
    Settings parsed = Settings.parse(configs);
    settings = parsed;
    clusterId = parsed.clusterId;
    answers = cache(parsed);
  }

  @Override
  public void useRegistry(SchemaRegistryClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here: an answer whose time is over (its {@value #CACHE_EXPIRY_SECS_CONFIG}, the time a missing API is
   * remembered, {@link #STORED_ANSWER_KEPT}) goes on serving while one refresh at a time per lookup runs on
   * {@code executor}, and stands meanwhile for the wait that refresh would get if the registry could not be reached
   * ({@link OutageBackoff}: {@link #STORED_ANSWER_KEPT}, then twice as long each time up to five minutes), and for as
   * long as that refresh is queued or under way (a refresh queued longer than five minutes, one the executor dropped,
   * is queued again). The registry's answer replaces it; when it names another subject, the listeners
   * ({@link #onChange}) are told, so that a warm route asks at once. While the registry cannot be reached, the kept
   * answer (its live one, or the one read from the disk cache) serves on, and the refresh backs off; the disk cache is
   * not read again. Any other failure (401, 403, several associated subjects, none with fallback {@code NONE})
   * withdraws the kept answer and tells the listeners: the next lookup asks in line, and fails as the registry answers.
   * The registry's answer that it lacks the API, for a kept answer that it gave with the API (a node not yet upgraded
   * answering during a rolling upgrade), counts as an outage: the kept answer serves on, and the refresh backs off.
   * Closing what this returns stops it: a refresh still queued then returns without asking the registry.
   */
  @Override
  public AutoCloseable refreshInBackground(Executor executor) {
    Refreshes refreshes = new Refreshes(Objects.requireNonNull(executor, "executor"));
    this.refresher = refreshes;
    return refreshes;
  }

  /**
   * The namespace of the lookups from now on, replacing {@value #KAFKA_CLUSTER_ID_CONFIG} as Confluent's
   * {@code setKafkaClusterId} does; a new id tells the listeners ({@link #onChange}), whose subjects are then asked
   * again, in the new namespace. Answers are kept per namespace, so a lookup under way is never mixed up.
   */
  @Override
  public synchronized void useKafkaClusterId(String clusterId) {
    String previous = this.clusterId;
    if (clusterId != null && !clusterId.equals(previous)) {
      if (previous != null) {
        log.warn("The Kafka cluster id changed from {} to {}: asking the registry for associations again",
            previous, clusterId);
      }
      this.clusterId = clusterId;
      listeners.forEach(Runnable::run);
    }
  }

  @Override
  public AutoCloseable onChange(Runnable listener) {
    Objects.requireNonNull(listener, "listener");
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /**
   * {@value #CACHE_SIZE_CONFIG} in {@code configs}, 1000 by default: also the bound on the topics whose schema
   * context a deserializer keeps, whatever its strategy.
   *
   * @throws ConfigException naming the key and its value when it is not a number, 0 or more
   */
  public static int cacheSize(Map<String, ?> configs) {
    int size = Settings.integer(configs, CACHE_SIZE_CONFIG, DEFAULT_CACHE_SIZE);
    if (size < 0) {
      throw new ConfigException(CACHE_SIZE_CONFIG, size, "a number of entries, 0 or more");
    }
    return size;
  }

  /** The strategy for a topic without association: a built-in one, or {@code null} for {@code NONE}. */
  public SubjectNameStrategy fallback() {
    Fallback fallback = settings.fallback;
    return fallback == null ? null : fallback.strategy;
  }

  /**
   * {@inheritDoc}
   *
   * @throws SchemaRegistryException when the registry fails (an outage, a refusal): the serde
   *     reports an outage as retriable
   * @throws SerializationException when the topic has several associated subjects, or none and the fallback is
   *     {@code NONE}
   */
  @Override
  public String subjectName(String topic, boolean isKey, Schema schema) {
    return standingSubject(topic, isKey, schema).subject();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Here: the subject of the answer given, and what is left of its time; while a refresh of it in the background
   * is queued or under way, at least the wait that refresh would give it if the registry could not be reached (a
   * caller asks again then, not on every record while the shared thread is busy).
   *
   * @throws SchemaRegistryException as {@link #subjectName} does
   * @throws SerializationException as {@link #subjectName} does
   */
  @Override
  public StandingSubject standingSubject(String topic, boolean isKey, Schema schema) {
    Settings current = settings;
    SchemaRegistryClient registry = client;
    if (registry == null || registry.idsPerSubject()) {
      return new StandingSubject(withoutRegistry(current, registry, topic, isKey, schema), Long.MAX_VALUE);
    }
    Key key = key(current, topic, isKey, schema);
    Answer answer = answer(current, registry, key, schema);
    return new StandingSubject(answer.subject, standsNanos(key, answer));
  }

  /** The fallback's subject when there is no registry to ask: none given, or one whose ids count per subject. */
  private String withoutRegistry(Settings current, SchemaRegistryClient registry, String topic, boolean isKey,
      Schema schema) {
    if (registry == null) {
      if (!warnedNoClient) {
        warnedNoClient = true;
        log.warn("AssociatedNameStrategy has no registry client (the serde that made it gives it one): topics get "
            + "the fallback strategy's subjects");
      }
      return fallback(current, topic, isKey, schema, "this strategy has no registry client");
    }
    return fallback(current, topic, isKey, schema, "the registry's ids count per subject: it has no associations");
  }

  /** The answer for {@code key}: kept, asked again in the background, or asked in line. */
  private Answer answer(Settings current, SchemaRegistryClient registry, Key key, Schema schema) {
    Cache<Key, Answer> cache = answers();
    Answer known = cache.getIfPresent(key);
    if (known != null && known.stands(ticker.read())) {
      return known;
    }
    Refreshes refreshes = refresher;
    if (known != null && refreshes != null && !refreshes.closed) {
      refreshLater(refreshes, registry, current, cache, key, known, schema);
      Answer now = cache.getIfPresent(key);
      if (now != null) {
        return now; // the kept answer, or the registry's if the refresh is done already
      }
    }
    return cache.asMap().compute(key, (k, old) -> old != null && old.stands(ticker.read()) ? old
        : timed(current, ask(registry, current, k, schema), 0));
  }

  /**
   * How long {@code answer}, the one for {@code key}, stands from now: what is left of its time; while a refresh of
   * it is queued or under way, at least its outage's wait.
   */
  private long standsNanos(Key key, Answer answer) {
    if (answer.standsUntil == Long.MAX_VALUE) {
      return Long.MAX_VALUE;
    }
    long left = answer.standsUntil - ticker.read();
    if (left > 0) {
      return left;
    }
    return refreshing.containsKey(key) ? answer.outageNanos : 0;
  }

  /**
   * Asks {@code key} again on {@code executor} unless a refresh of it is under way (however long: see
   * {@link #replaces}) or queued for less than {@link OutageBackoff#LONGEST_WAIT}; {@code known}, its kept answer,
   * stands meanwhile for the wait that refresh would give it if the registry could not be reached.
   */
  private void refreshLater(Refreshes refreshes, SchemaRegistryClient registry, Settings current,
      Cache<Key, Answer> cache, Key key, Answer known, Schema schema) {
    long now = ticker.read();
    Refresh mine = new Refresh(now);
    Refresh before = refreshing.putIfAbsent(key, mine);
    if (before != null && !replaces(before, now, key, known, mine)) {
      return; // one refresh at a time per lookup
    }
    long wait = OutageBackoff.nextWaitNanos(known.outageNanos);
    Answer serving = known.servingFor(Deadlines.until(now, wait), wait);
    if (!swap(cache, key, known, serving)) {
      refreshing.remove(key, mine); // replaced meanwhile: by a newer answer, which stands
      return;
    }
    try {
      refreshes.executor.execute(() -> refresh(refreshes, registry, current, cache, key, serving, schema, mine));
    } catch (Throwable e) { // rejected (or the executor's Error): the kept answer serves its wait, then is asked
      refreshing.remove(key, mine);
    }
  }

  /**
   * Whether {@code mine} replaces {@code before}, the refresh of {@code key} queued or under way: only when
   * {@code before} has been queued for {@link OutageBackoff#LONGEST_WAIT} and has not started (an executor that
   * dropped it), which gives it up. One under way stays the only one however long it takes, said once it has been
   * under way (since it started, not since it was queued) for that wait, {@code known} serving meanwhile.
   */
  private boolean replaces(Refresh before, long now, Key key, Answer known, Refresh mine) {
    long longest = OutageBackoff.LONGEST_WAIT.toNanos();
    if (now - before.queuedAt < longest) {
      return false;
    }
    if (before.giveUp()) {
      return refreshing.replace(key, before, mine);
    }
    long underWay = now - before.startedAt();
    if (underWay >= longest && before.warnOnce()) {
      log.warn("Asking the subject of the {}s of topic '{}' again has been under way for {} seconds; subject '{}' "
          + "serves on until it ends, and no other asking starts beside it", key.isKey ? "key" : "value",
          key.topic, TimeUnit.NANOSECONDS.toSeconds(underWay), known.subject);
    }
    return false;
  }

  /**
   * Asks the registry for {@code key} again, {@code serving} being the kept answer: see {@link #refreshInBackground}.
   */
  private void refresh(Refreshes refreshes, SchemaRegistryClient registry, Settings current,
      Cache<Key, Answer> cache, Key key, Answer serving, Schema schema, Refresh mine) {
    String what = (key.isKey ? "key" : "value") + "s of topic '" + key.topic + "'";
    try {
      if (!mine.start(ticker.read())) {
        return; // given up, queued too long: another asking replaced it
      }
      if (refreshes.closed) {
        return; // the serde is closed: nothing asked, nothing kept
      }
      Answer found;
      try {
        found = timed(current, askLive(registry, current, key, schema), 0);
      } catch (RegistryUnavailableException e) {
        servedOn(cache, key, serving, what, e.getMessage());
        return;
      } catch (RuntimeException e) {
        if (refreshes.closed) {
          return; // closed while asking: the client's failure, not the registry's answer; nothing to withdraw
        }
        log.warn("Asking the subject of the {} again failed; subject '{}' is no longer used, the next record asks "
            + "again: {}", what, serving.subject, e.toString());
        if (swap(cache, key, serving, null)) {
          listeners.forEach(Runnable::run);
        }
        return;
      } catch (Throwable e) { // an Error: the shared thread lives on, the kept answer serves its wait
        log.warn("Asking the subject of the {} again failed; subject '{}' still serves, asked again in {} seconds: "
            + "{}", what, serving.subject, TimeUnit.NANOSECONDS.toSeconds(serving.outageNanos), e.toString());
        return;
      }
      if (found.apiMissing && !serving.apiMissing) {
        // The API answered for this lookup before: a node without it (a rolling upgrade) answered now.
        servedOn(cache, key, serving, what, "the registry answered that it has no associations API, which it had");
        return;
      }
      // only over the very answer it was asked for: a newer one kept since (asked in line) stands over this one
      if (swap(cache, key, serving, found) && !found.subject.equals(serving.subject)) {
        log.info("The {} now go to subject '{}' (was '{}'), as the registry answers", what, found.subject,
            serving.subject);
        listeners.forEach(Runnable::run);
      }
    } finally {
      refreshing.remove(key, mine);
    }
  }

  /**
   * {@code serving}, the kept answer for {@code key}, serving on after a refresh that found the registry
   * unreachable ({@code why}), until its outage's wait is over.
   */
  private void servedOn(Cache<Key, Answer> cache, Key key, Answer serving, String what, String why) {
    log.warn("Schema registry unavailable; the {} still go to subject '{}', asked again in {} seconds: {}", what,
        serving.subject, TimeUnit.NANOSECONDS.toSeconds(serving.outageNanos), why);
    swap(cache, key, serving, serving.servingFor(Deadlines.until(ticker.read(), serving.outageNanos),
        serving.outageNanos));
  }

  /**
   * Replaces {@code expected}, when it is the very answer kept for {@code key}, by {@code replacement}
   * ({@code null}: removes it); whether it did. By identity: an answer equal to it may be another asking's, newer.
   */
  private static boolean swap(Cache<Key, Answer> cache, Key key, Answer expected, Answer replacement) {
    boolean[] swapped = new boolean[1];
    cache.asMap().computeIfPresent(key, (k, kept) -> {
      if (kept != expected) {
        return kept;
      }
      swapped[0] = true;
      return replacement;
    });
    return swapped[0];
  }

  /**
   * How long the subject just given for these arguments stands: what is left of its answer's time in the cache
   * ({@value #CACHE_EXPIRY_SECS_CONFIG}, or the time a missing API is remembered), at least its outage's wait while
   * it is asked again in the background; {@link Long#MAX_VALUE} when it is kept for good; 0 when none is kept. For
   * tests, which read the time kept without asking: callers use {@link #standingSubject}, which gives it with the
   * subject, from the same answer.
   */
  long subjectStandsNanos(String topic, boolean isKey, Schema schema) {
    Settings current = settings;
    SchemaRegistryClient registry = client;
    if (registry == null || registry.idsPerSubject()) {
      return Long.MAX_VALUE;
    }
    Key key = key(current, topic, isKey, schema);
    Answer answer = answers().getIfPresent(key);
    if (answer == null) {
      return 0; // gone already (evicted, withdrawn): asked again on the next record
    }
    return standsNanos(key, answer);
  }

  /** Whether the answer just given for these arguments is the registry's last one, read from the disk cache. */
  @Override
  public boolean subjectIsStored(String topic, boolean isKey, Schema schema) {
    Settings current = settings;
    SchemaRegistryClient registry = client;
    if (registry == null || registry.idsPerSubject()) {
      return false;
    }
    Answer answer = answers().getIfPresent(key(current, topic, isKey, schema));
    return answer != null && answer.stored;
  }

  private Key key(Settings current, String topic, boolean isKey, Schema schema) {
    String namespace = clusterId;
    return new Key(namespace != null ? namespace : Association.ANY_NAMESPACE, topic, isKey,
        current.fallback != null && current.fallback.usesSchema ? schema : null);
  }

  /** Drops every kept answer, as evictions for room do: for tests (a size-bound cache evicts by how often read). */
  void forgetAnswers() {
    answers().invalidateAll();
  }

  private Cache<Key, Answer> answers() {
    Cache<Key, Answer> cache = answers;
    if (cache == null) {
      synchronized (this) {
        cache = answers;
        if (cache == null) {
          cache = cache(settings);
          answers = cache;
        }
      }
    }
    return cache;
  }

  /**
   * The answer for {@code key}, kept; or, for several subjects or none with fallback {@code NONE}, a
   * {@code SerializationException}, not kept (Confluent's loader throws, and so keeps nothing).
   */
  private Answer ask(SchemaRegistryClient registry, Settings current, Key key, Schema schema) {
    try {
      return askLive(registry, current, key, schema);
    } catch (RegistryUnavailableException e) {
      // Only when the registry cannot be reached: its last answer, kept in schema.cache.dir, for a short while.
      String type = key.isKey ? Association.KEY : Association.VALUE;
      List<Association> stored = registry.storedAssociations(key.namespace, key.topic, Association.TOPIC, type);
      if (stored == null) {
        throw e;
      }
      log.warn("Schema registry unavailable; using the {} associations of topic '{}' (namespace '{}') from the "
          + "schema cache on disk, asked again after {} seconds: {}", type, key.topic, key.namespace,
          STORED_ANSWER_KEPT.toSeconds(), e.getMessage());
      return answer(current, key, schema, stored, true);
    }
  }

  /**
   * The registry's own answer for {@code key}, untimed.
   *
   * @throws RegistryUnavailableException when the registry cannot be reached
   */
  private Answer askLive(SchemaRegistryClient registry, Settings current, Key key, Schema schema) {
    String topic = key.topic;
    boolean isKey = key.isKey;
    String type = isKey ? Association.KEY : Association.VALUE;
    List<Association> associations;
    try {
      associations = registry.associations(key.namespace, topic, Association.TOPIC, type);
    } catch (UnsupportedRegistryApiException e) {
      if (!warnedNoApi) {
        warnedNoApi = true;
        log.warn("The registry has no associations API: topics get the fallback strategy's subjects; asked again "
            + "after {} minutes ({})", UnsupportedRegistryApiException.REMEMBERED_FOR.toMinutes(), e.getMessage());
      }
      return new Answer(fallback(current, topic, isKey, schema, "the registry has no associations API"), true,
          false, 0, 0);
    }
    return answer(current, key, schema, associations, false);
  }

  /**
   * {@code answer} standing from now for as long as its kind is kept: the settings' expiry, at most
   * {@link #STORED_ANSWER_KEPT} for the disk's answer (which counts as an outage's wait already) and
   * {@link UnsupportedRegistryApiException#REMEMBERED_FOR} for a missing API.
   */
  private Answer timed(Settings current, Answer answer, long outageNanos) {
    long kept = current.expiry == null ? Long.MAX_VALUE : current.expiry.toNanos();
    if (answer.stored) {
      kept = Math.min(kept, STORED_ANSWER_KEPT.toNanos());
    }
    if (answer.apiMissing) {
      kept = Math.min(kept, UnsupportedRegistryApiException.REMEMBERED_FOR.toNanos());
    }
    long outage = answer.stored ? STORED_ANSWER_KEPT.toNanos() : outageNanos;
    return answer.servingFor(Deadlines.until(ticker.read(), kept), outage);
  }

  /** The answer {@code associations} give; {@code stored}: they are the registry's last answer, kept on disk. */
  private static Answer answer(Settings current, Key key, Schema schema, List<Association> associations,
      boolean stored) {
    String namespace = key.namespace;
    String topic = key.topic;
    boolean isKey = key.isKey;
    String type = isKey ? Association.KEY : Association.VALUE;
    if (associations.size() > 1) {
      throw new SerializationException("the " + type + "s of topic '" + topic + "' (namespace '" + namespace
          + "') have " + associations.size() + " associated subjects in the registry, "
          + associations.stream().map(Association::subject).toList() + ": an association must name one");
    }
    if (associations.size() == 1) {
      return new Answer(associations.get(0).subject(), false, stored, 0, 0);
    }
    return new Answer(fallback(current, topic, isKey, schema, "the " + type + "s of topic '" + topic
        + "' (namespace '" + namespace + "') have no associated subject in the registry"), false, stored, 0, 0);
  }

  /**
   * The fallback strategy's subject.
   *
   * @throws SerializationException with fallback {@code NONE}, saying {@code why} there is no subject
   */
  private static String fallback(Settings current, String topic, boolean isKey, Schema schema, String why) {
    if (current.fallback == null) {
      throw new SerializationException("no subject for the " + (isKey ? "key" : "value") + "s of topic '" + topic
          + "': " + why + ", and " + FALLBACK_TYPE_CONFIG + "=NONE");
    }
    return current.fallback.strategy.subjectName(topic, isKey, schema);
  }

  private static Cache<Key, Answer> cache(Settings parsed) {
    return Caffeine.newBuilder().maximumSize(parsed.cacheSize).build();
  }

  /**
   * What was learnt for a key: its subject, whether it is the fallback's for want of the API, whether it comes
   * from the registry's last answer kept on disk ({@link #STORED_ANSWER_KEPT}), the ticker reading until which it
   * stands ({@link Long#MAX_VALUE}: for good), and the wait after the last refresh that found the registry
   * unreachable (0: it answered). Immutable.
   */
  private record Answer(String subject, boolean apiMissing, boolean stored, long standsUntil, long outageNanos) {
    /** Whether it still stands at ticker reading {@code now}. */
    boolean stands(long now) {
      return Deadlines.stands(standsUntil, now);
    }

    /** The same answer, standing until {@code until}, after an outage's wait of {@code outage}. */
    Answer servingFor(long until, long outage) {
      return new Answer(subject, apiMissing, stored, until, outage);
    }
  }

  /**
   * The refreshes in the background given by {@link #refreshInBackground}, on {@code executor}; closed (the serde
   * closed), a refresh still queued asks nothing.
   */
  private static final class Refreshes implements AutoCloseable {
    final Executor executor;
    volatile boolean closed;

    Refreshes(Executor executor) {
      this.executor = executor;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  /**
   * One asking of a lookup in the background: when it was queued, when it started, and its state, which moves once,
   * from queued to started (it runs, and is the lookup's one asking until it ends) or to given up (it asks nothing
   * when it runs). Compared by identity, so that an asking removes its own mark only. Thread-safe.
   */
  private static final class Refresh {
    private static final int QUEUED = 0;
    private static final int STARTED = 1;
    private static final int GIVEN_UP = 2;

    final long queuedAt;
    /** The ticker's reading when it started; written before the state moves to started, read after it has. */
    private volatile long startedAt;
    private final AtomicInteger state = new AtomicInteger();
    private final AtomicBoolean warned = new AtomicBoolean();

    Refresh(long queuedAt) {
      this.queuedAt = queuedAt;
    }

    /** Starts it at {@code now}, the ticker's reading: {@code false} when it was given up. */
    boolean start(long now) {
      startedAt = now;
      return state.compareAndSet(QUEUED, STARTED);
    }

    /** When it started, the ticker's reading: only once {@link #giveUp} has said it had started. */
    long startedAt() {
      return startedAt;
    }

    /** Gives it up: {@code false} when it has started. */
    boolean giveUp() {
      return state.compareAndSet(QUEUED, GIVEN_UP) || state.get() == GIVEN_UP;
    }

    /** {@code true} the first time only: one warning per asking stuck. */
    boolean warnOnce() {
      return warned.compareAndSet(false, true);
    }
  }

  /** A lookup: its namespace (the cluster id then), so that a new id never meets an answer of the old. */
  private record Key(String namespace, String topic, boolean isKey, Schema schema) {}

  /** The strategies a topic without association may fall back to. */
  private enum Fallback {
    TOPIC(new TopicNameStrategy(), false),
    RECORD(new RecordNameStrategy(), true),
    TOPIC_RECORD(new TopicRecordNameStrategy(), true);

    final SubjectNameStrategy strategy;
    final boolean usesSchema;

    Fallback(SubjectNameStrategy strategy, boolean usesSchema) {
      this.strategy = strategy;
      this.usesSchema = usesSchema;
    }
  }

  /**
   * This strategy's keys, parsed once.
   *
   * @param fallback null for {@code NONE}
   * @param expiry null to keep answers for as long as there is room
   * @param clusterId null when not configured
   */
  private record Settings(Fallback fallback, int cacheSize, Duration expiry, String clusterId) {
    static final Settings DEFAULT = new Settings(Fallback.TOPIC, DEFAULT_CACHE_SIZE, null, null);

    static Settings parse(Map<String, ?> configs) {
      Object fallbackValue = configs.get(FALLBACK_TYPE_CONFIG);
      Fallback fallback = Fallback.TOPIC;
      if (fallbackValue != null) {
        String name = fallbackValue.toString().trim().toUpperCase(Locale.ROOT);
        if (name.equals("NONE")) {
          fallback = null;
        } else {
          try {
            fallback = Fallback.valueOf(name);
          } catch (IllegalArgumentException e) {
            throw new ConfigException(FALLBACK_TYPE_CONFIG, fallbackValue, "not one of TOPIC, RECORD, TOPIC_RECORD, "
                + "NONE");
          }
        }
      }
      int size = AssociatedNameStrategy.cacheSize(configs);
      int expirySecs = integer(configs, CACHE_EXPIRY_SECS_CONFIG, -1);
      Object clusterId = configs.get(KAFKA_CLUSTER_ID_CONFIG);
      String cluster = clusterId == null || clusterId.toString().isBlank() ? null : clusterId.toString().trim();
      return new Settings(fallback, size, expirySecs < 0 ? null : Duration.ofSeconds(expirySecs), cluster);
    }

    private static int integer(Map<String, ?> configs, String key, int otherwise) {
      Object value = configs.get(key);
      if (value == null) {
        return otherwise;
      }
      if (value instanceof Integer number) {
        return number;
      }
      try {
        return Integer.parseInt(value.toString().trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(key, value, "not an integer");
      }
    }
  }

  /** As Confluent's: its fallback's answer ({@code false} for {@code NONE}). */
  @Override
  public boolean usesSchema() {
    return fallback() != null && fallback().usesSchema();
  }
}
