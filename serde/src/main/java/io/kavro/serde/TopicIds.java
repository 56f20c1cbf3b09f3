package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.stats.StatsCounter;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaContexts;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.internal.Deadlines;
import io.kavro.serde.internal.OutageBackoff;
import io.kavro.serde.subject.AssociatedNameStrategy;
import io.kavro.serde.subject.ContextSubjects;
import io.kavro.serde.subject.RecordNameStrategy;
import io.kavro.serde.subject.RegistryAwareStrategy;
import io.kavro.serde.subject.StandingSubject;
import io.kavro.serde.subject.SubjectNameStrategy;
import io.kavro.serde.subject.TopicNameStrategy;
import io.kavro.serde.subject.TopicRecordNameStrategy;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry client whose ids a topic's records carry: the registry's own, or that of the schema context the
 * topic's subject is in ({@link SchemaRegistryClient#inContext}: each context numbers its schemas apart, so id 1 of
 * one context is never read as id 1 of another), or, where ids count per subject
 * (schema-repo: {@link SchemaRegistryClient#idsPerSubject()}), the client of the subject the topic names. Such a
 * registry needs the subject before a record is decoded, so only {@link TopicNameStrategy} works with it:
 * {@link #check} refuses the others at configure, and a context.
 *
 * <p>A topic's context is that of the subject the strategy gives it, as Confluent's deserializer asks for an id
 * with the subject ({@code ?subject=:.ctx:orders-value}): the {@code context.name.strategy}'s, or one that a custom
 * strategy or an association names ({@code :.ctx:orders-value}). A strategy that needs the record's schema
 * ({@link SubjectNameStrategy#usesSchema}) cannot name it before the record is read: its topics are in the context
 * {@code context.name.strategy} gives, else the default one, as in Confluent.
 *
 * <p>The one owner of each topic's context in the deserializer: kept as long as the strategy's answer stands
 * ({@link RegistryAwareStrategy#standingSubject}, {@link RegistryAwareStrategy#onChange}; the serializer's routes
 * ask their subjects again on the same schedule), then asked again; for at most
 * {@code subject.name.strategy.cache.size} topics, those recently and frequently read kept (Caffeine's policy: a warm
 * read, {@link #standsFor}, counts as a use; on the record path under a bound over {@link #SAMPLED_ABOVE}, about
 * one in {@link #USE_EVERY}). Nothing is told when a topic's context is evicted, learnt again or
 * replaced: a reader keeps the context it read the topic's ids in, and finds it replaced ({@link #standsFor}); so a
 * context learnt again, the same as before, rebuilds no route, and one that moved (to another context, or to another
 * subject: {@link TopicContext#readsAs}) rebuilds the topic's own routes only (the shared ones are per context).
 * When the registry cannot be reached as
 * an answer is to be asked again, the one kept goes on serving, and is asked again as {@link OutageBackoff} says
 * (30 seconds later, then twice as long up to 5 minutes); a kept context is only ever asked again in
 * the background, so a record never waits on the registry for it. A warm read
 * ({@link #context(String)} then {@link #stands}) makes no registry call and allocates nothing. Thread-safe.
 */
final class TopicIds {
  private static final Logger log = LoggerFactory.getLogger(TopicIds.class);

  /**
   * About one warm read in this many counts as a use of a topic's context on the record path, where more than
   * {@link #SAMPLED_ABOVE} topics' contexts are kept ({@link UseSampler}).
   */
  static final int USE_EVERY = 16;
  /**
   * The bound ({@code subject.name.strategy.cache.size}) above which warm reads on the record path are sampled; at
   * or below it (the default, 1,000, included), every read counts as a use. Sampled, a context learnt (which always
   * counts) weighs as much as about {@link #USE_EVERY} warm reads: under a small bound a topic read steadily could
   * then lose its place to topics read a few times each; under a large one it needs a few dozen reads in the
   * thousands of uses the policy remembers.
   */
  static final int SAMPLED_ABOVE = 1_024;

  /**
   * Which of a thread's warm reads count as uses ({@link #standsFor(String, TopicContext, boolean)}): about one in
   * {@link #USE_EVERY}, at random (a xorshift seeded per thread), so that every topic of a steady rotation gets
   * counted, where a fixed stride would count only one topic in sixteen of a rotation through a multiple of sixteen
   * topics, and threads in step would count the same reads. One per thread: not thread-safe.
   */
  static final class UseSampler {
    private int state;

    /** A sampler seeded at random. */
    UseSampler() {
      this(java.util.concurrent.ThreadLocalRandom.current().nextInt() | 1);
    }

    /** A sampler of a given seed, not 0: for tests. */
    UseSampler(int seed) {
      state = seed;
    }

    /** Whether the next read counts as a use. */
    boolean counts() {
      int x = state;
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      state = x;
      return (x & (USE_EVERY - 1)) == 0;
    }
  }

  private final SchemaRegistryClient client;
  private final SubjectNameStrategy subjects;
  private final boolean isKey;
  private final LongSupplier nanoClock;
  /**
   * Each topic's context ({@link TopicKey}), while it stands; a warm read ({@link #standsFor}) counts as a use,
   * unless it is one of the record path's reads that {@link #sampled} leaves out.
   */
  private final Cache<String, TopicContext> contexts;
  /** {@link #contexts}' reads that record nothing. */
  private final Policy<String, TopicContext> quietly;
  /** Whether the record path's warm reads are sampled: more than {@link #SAMPLED_ABOVE} topics are kept. */
  private final boolean sampled;
  /** Counts the strategy's changes ({@link RegistryAwareStrategy#onChange}): a context of an older count is asked. */
  private final AtomicLong changes = new AtomicLong();
  private final AutoCloseable changeListener;
  /** The topics whose context is being asked again: one refresh at a time per topic. */
  private final Set<String> refreshing = ConcurrentHashMap.newKeySet();
  /** Whether topics may be in another context than the default one: see {@link #contextual()}. */
  private final boolean contextual;
  /** Where {@link #refresh} runs: {@link RegistryRefresher}'s shared thread, or a test's executor. */
  private volatile Executor refresher = RegistryRefresher.executor();
  private volatile boolean closed;

  /**
   * A topic's context: its qualifier ({@code :.ctx:}, {@link SchemaContexts#DEFAULT} for the default one), the
   * subject the strategy named for the topic ({@code null} for a strategy that needs the record's schema), until
   * when it stands on the clock ({@link Long#MAX_VALUE}: for good), and the count of the strategy's changes it was
   * asked in, and the wait after the last refresh that found the registry unreachable (0: it answered). Immutable.
   */
  record TopicContext(String qualifier, String subject, long standsUntil, long changes, long outageNanos) {
    /**
     * Whether a topic's own routes built in {@code other} serve in this one: the same context (their ids) and the
     * same subject (their latest version, their rules, the DEK subject). {@code false} for {@code null}.
     */
    boolean readsAs(TopicContext other) {
      return other == this
          || other != null && qualifier.equals(other.qualifier) && Objects.equals(subject, other.subject);
    }
  }

  /**
   * @param client the serde's client
   * @param subjects the configured strategy
   * @param isKey whether the records' keys are read
   * @param bound how many topics' contexts are kept ({@code subject.name.strategy.cache.size})
   * @param nanoClock the clock of {@link RegistryAwareStrategy#standingSubject}: {@link System#nanoTime()}, but
   *     in tests
   */
  TopicIds(SchemaRegistryClient client, SubjectNameStrategy subjects, boolean isKey, int bound,
      LongSupplier nanoClock) {
    this(client, subjects, isKey, bound, nanoClock, null);
  }

  /**
   * As the five-argument constructor, counting the reads of the kept contexts in {@code stats} ({@code null}: not
   * counted, as in production): for tests that warm reads count as uses.
   */
  TopicIds(SchemaRegistryClient client, SubjectNameStrategy subjects, boolean isKey, int bound,
      LongSupplier nanoClock, StatsCounter stats) {
    this.client = client;
    this.subjects = subjects;
    this.isKey = isKey;
    this.nanoClock = nanoClock;
    this.contextual = !client.idsPerSubject() && !(subjects instanceof TopicNameStrategy
        || subjects instanceof RecordNameStrategy || subjects instanceof TopicRecordNameStrategy);
    // Nothing is told when a context leaves or comes back (evicted for room, learnt again, moved): a reader holds
    // the context it read ids in, and checks per record that it is still the one kept (standsFor).
    Caffeine<Object, Object> builder = Caffeine.newBuilder().maximumSize(bound).executor(Runnable::run);
    this.contexts = (stats == null ? builder : builder.recordStats(() -> stats)).build();
    this.quietly = contexts.policy();
    this.sampled = bound > SAMPLED_ABOVE;
    this.changeListener = subjects instanceof RegistryAwareStrategy aware
        ? aware.onChange(changes::incrementAndGet) : () -> {};
  }

  /** As the five-argument constructor, on the system clock, with the bound that {@code config} gives. */
  TopicIds(SchemaRegistryClient client, AvroSerdeConfig config, boolean isKey) {
    this(client, config.subjectNameStrategy(), isKey, AssociatedNameStrategy.cacheSize(config.originals()),
        System::nanoTime);
  }

  /** The serde's client. */
  SchemaRegistryClient client() {
    return client;
  }

  /** The configured strategy. */
  SubjectNameStrategy subjects() {
    return subjects;
  }

  /** Whether the records' keys are read. */
  boolean isKey() {
    return isKey;
  }

  /** The client whose {@code schemaById} answers {@code topic}'s ids. */
  SchemaRegistryClient of(String topic) {
    if (client.idsPerSubject()) {
      return client.forSubject(subjects.subjectName(topic, isKey, null));
    }
    if (!contextual) {
      return client; // every topic is in the default context: nothing to ask, nothing kept
    }
    String context = context(topic).qualifier();
    return context.equals(SchemaContexts.DEFAULT) ? client : client.inContext(context);
  }

  /**
   * The client whose {@code schemaById} answers {@code topic}'s ids in {@code context}, the one its route table was
   * chosen for (no asking again, which could give another); {@code null}: as {@link #of(String)}.
   */
  SchemaRegistryClient of(String topic, TopicContext context) {
    if (context == null || client.idsPerSubject()) {
      return of(topic);
    }
    return context.qualifier().equals(SchemaContexts.DEFAULT) ? client : client.inContext(context.qualifier());
  }

  /**
   * Whether topics may be in another context than the default one: {@code false} for the built-in strategies that
   * never name a qualified subject, and where ids count per subject.
   */
  boolean contextual() {
    return contextual;
  }

  /**
   * Whether {@code known}, the context this gave for {@code topic}, still stands and is still the one kept (not
   * evicted nor replaced since), which counts as a use of it (a topic read steadily stays kept): no registry call,
   * no allocation, no lock.
   */
  boolean standsFor(String topic, TopicContext known) {
    return standsFor(topic, known, true);
  }

  /**
   * As {@link #standsFor(String, TopicContext)}; where more than {@link #SAMPLED_ABOVE} topics are kept, the read
   * counts as a use only when {@code counted}: the record path counts about one read in {@link #USE_EVERY}
   * ({@link UseSampler}). Recording each read was 16 % of the samples of a profile of 10,000 topics read in turn
   * (the cache's read buffer, frequency sketch and access-order list; 4.8 % left sampled, the map lookup).
   */
  boolean standsFor(String topic, TopicContext known, boolean counted) {
    return known != null && kept(TopicKey.of(topic), counted) == known && stands(known);
  }

  /**
   * The context kept for {@code key}, or {@code null}; recorded as a use when {@code counted} or when reads are not
   * {@link #sampled}.
   */
  private TopicContext kept(String key, boolean counted) {
    return counted || !sampled ? contexts.getIfPresent(key) : quietly.getIfPresentQuietly(key);
  }

  /** Whether {@code known}, a context this gave, still stands: no registry call, no allocation. */
  boolean stands(TopicContext known) {
    return known.changes() == changes.get() && Deadlines.stands(known.standsUntil(), nanoClock);
  }

  /**
   * {@code topic}'s context, asked of the strategy when none is kept. A registry failure while the strategy asks for
   * an association is thrown and nothing is kept: the next record asks again, and so is a strategy's refusal to name
   * one subject ({@code SerializationException}: several associations, say). A kept context whose time is over is
   * never asked again on the record's thread: it goes on serving while one refresh at a time per topic asks again in
   * the background ({@link #refresh}); a record after that refresh gets its answer.
   */
  TopicContext context(String topic) {
    return context(topic, true);
  }

  /**
   * As {@link #context(String)}; a warm read counts as a use of the kept context only when {@code counted} (see
   * {@link #standsFor(String, TopicContext, boolean)}).
   */
  TopicContext context(String topic, boolean counted) {
    String key = TopicKey.of(topic);
    TopicContext known = kept(key, counted);
    if (known != null && stands(known)) {
      return known;
    }
    if (known == null) {
      // another thread's answer, kept meanwhile, stands over this one: one context object per kept topic
      TopicContext asked = ask(topic, changes.get());
      TopicContext kept = contexts.asMap().putIfAbsent(key, asked);
      return kept != null ? kept : asked;
    }
    if (!closed && refreshing.add(key)) {
      try {
        refresher().execute(() -> refresh(topic, key, known));
      } catch (RuntimeException e) { // rejected: closed; the kept context serves, asked again by a later record
        refreshing.remove(key);
      }
    }
    TopicContext now = contexts.getIfPresent(key);
    return now != null ? now : known;
  }

  /**
   * Asks {@code topic}'s context again, {@code known} being the kept one: the answer replaces it (a reader of the
   * topic finds the one it holds replaced: {@link #standsFor}); while the registry cannot be reached, {@code known}
   * serves on, asked again as {@link OutageBackoff} says; any other failure (a refusal) drops it, so that the next
   * record asks in line and fails with it.
   */
  private void refresh(String topic, String key, TopicContext known) {
    try {
      long told = changes.get();
      TopicContext found;
      try {
        found = ask(topic, told);
        if (!subjects.usesSchema() && subjects instanceof RegistryAwareStrategy aware
            && aware.subjectIsStored(topic, isKey, null)) {
          // the disk's answer, the registry unreachable: the context learnt live stands over it
          throw new RegistryUnavailableException("the registry could not be reached; its answer stored on disk "
              + "does not replace the context learnt from it", -1, -1, null, null);
        }
      } catch (RegistryUnavailableException e) {
        long wait = serveOn(key, known, told);
        log.warn("Schema registry unavailable; the {}s of topic '{}' are still read in the schema context they "
            + "were in ('{}'), asked again in {} seconds: {}", isKey ? "key" : "value", topic, known.qualifier(),
            TimeUnit.NANOSECONDS.toSeconds(wait), e.getMessage());
        return;
      } catch (RuntimeException e) {
        log.warn("Asking the schema context of topic '{}' ({}s) again failed; the next record asks again: {}",
            topic, isKey ? "key" : "value", e.toString());
        contexts.asMap().remove(key, known);
        return;
      } catch (Throwable e) { // an Error of a custom strategy: the shared thread lives on, the kept context serves
        long wait = serveOn(key, known, told);
        log.warn("Asking the schema context of topic '{}' ({}s) again failed; the context it was in ('{}') still "
            + "serves, asked again in {} seconds: {}", topic, isKey ? "key" : "value", known.qualifier(),
            TimeUnit.NANOSECONDS.toSeconds(wait), e.toString());
        return;
      }
      // only over the context it asked again for: one asked in line since (after an eviction) is newer
      contexts.asMap().replace(key, known, found);
    } finally {
      refreshing.remove(key);
    }
  }

  /**
   * Keeps {@code known}, the context kept for {@code key}, serving through a failed refresh (unless it was replaced
   * meanwhile), asked again after the next wait {@link OutageBackoff} gives; returns that wait.
   */
  private long serveOn(String key, TopicContext known, long told) {
    long wait = OutageBackoff.nextWaitNanos(known.outageNanos());
    contexts.asMap().replace(key, known, new TopicContext(known.qualifier(), known.subject(),
        Deadlines.until(nanoClock.getAsLong(), wait), told, wait));
    return wait;
  }

  /** The executor of {@link #refresh}: the one set for tests, else {@link RegistryRefresher}'s shared thread. */
  private Executor refresher() {
    return refresher;
  }

  /** Has contexts asked again on {@code executor} (a direct one in tests), not on a thread of its own. */
  void refreshOn(Executor executor) {
    this.refresher = executor;
  }

  /** {@code topic}'s context as the strategy gives it now, {@code told} the count of its changes before asking. */
  private TopicContext ask(String topic, long told) {
    String subject = null;
    String found = null;
    long stands = Long.MAX_VALUE;
    if (!subjects.usesSchema()) {
      // A strategy that names no one subject (several associations, say) fails the record, as in Confluent's
      // deserializer, and nothing is kept: guessing the default context could read another context's id.
      if (subjects instanceof RegistryAwareStrategy aware) {
        StandingSubject standing = aware.standingSubject(topic, isKey, null); // subject and time: one answer
        subject = standing.subject();
        stands = standing.standsNanos();
      } else {
        subject = subjects.subjectName(topic, isKey, null);
      }
      found = SchemaContexts.of(subject);
    }
    if (found == null) {
      found = subjects instanceof ContextSubjects inContexts ? inContexts.context(topic) : SchemaContexts.DEFAULT;
    }
    return new TopicContext(found, subject, Deadlines.until(nanoClock.getAsLong(), stands), told, 0);
  }

  /**
   * Drops {@code topic}'s kept context, as an eviction for room does, and answers the strategy: for tests, which
   * evict one given entry without filling the bound.
   */
  SubjectNameStrategy forget(String topic) {
    contexts.invalidate(TopicKey.of(topic));
    return subjects;
  }

  /** Topics whose context is kept, for tests of the bound. */
  long size() {
    contexts.cleanUp();
    return contexts.estimatedSize();
  }

  /**
   * Stops listening to the strategy, and asking contexts again in the background (a refresh under way ends on the
   * shared thread, which this does not own).
   */
  void close() {
    closed = true;
    try {
      changeListener.close();
    } catch (Exception e) {
      // the strategy's own removal: nothing of the record path depends on it
    }
  }

  /**
   * The client whose {@code schemaById} answers {@code subject}'s ids: {@code client} where ids are the registry's,
   * that of the subject's context where it is context-qualified ({@code :.ctx:orders-value}).
   */
  static SchemaRegistryClient ofSubject(SchemaRegistryClient client, String subject) {
    return client.idsPerSubject() ? client.forSubject(subject) : client.inContext(SchemaContexts.of(subject));
  }

  /**
   * Refuses a configuration whose subjects a registry with per-subject ids cannot serve.
   *
   * @throws ConfigException naming the key, when ids count per subject and the subject is not the topic's
   */
  static void check(SchemaRegistryClient client, AvroSerdeConfig config) {
    if (!client.hasContexts() && config.subjectNameStrategy() instanceof ContextSubjects) {
      throw new ConfigException(AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG,
          config.contextNameStrategy().getClass().getName(), "Apicurio Registry has no schema contexts (Kavro "
          + "knows it by its URL, .../apis/ccompat/v<n>): leave " + AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG
          + " at its default");
    }
    if (!client.idsPerSubject()) {
      return;
    }
    if (config.subjectNameStrategy() instanceof ContextSubjects) {
      throw new ConfigException(AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG,
          config.contextNameStrategy().getClass().getName(), "this registry (" + config.registryConfig().api()
          + ") has no schema contexts: leave " + AvroSerdeConfig.CONTEXT_NAME_STRATEGY_CONFIG + " at its default");
    }
    if (config.subjectNameStrategy() instanceof TopicNameStrategy) {
      return;
    }
    if (config.subjectNameStrategy() instanceof AssociatedNameStrategy associated
        && associated.fallback() instanceof TopicNameStrategy) {
      return; // the default: such a registry (schema-repo) has no associations, so the subject is the topic's
    }
    String key = config.isKey() ? AvroSerdeConfig.KEY_SUBJECT_NAME_STRATEGY_CONFIG
        : AvroSerdeConfig.VALUE_SUBJECT_NAME_STRATEGY_CONFIG;
    throw new ConfigException(key, config.subjectNameStrategy().getClass().getName(), "this registry ("
        + config.registryConfig().api() + ") numbers schemas per subject, so a record's schema id means a schema "
        + "only with the subject its topic names: only " + TopicNameStrategy.class.getName() + " works with it"
        + " (and " + AvroSerdeConfig.STREAMS_INTERNAL_TOPICS_SUBJECT_CONFIG + "=topic)");
  }
}
