package io.kavro.registry.internal.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.CacheLoader;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import com.github.benmanes.caffeine.cache.Ticker;
import io.kavro.registry.ApicurioId;
import io.kavro.registry.Association;
import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaContexts;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.internal.schema.SubjectNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.LongAdder;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link SchemaRegistryClient} that caches another one: the calls it does not cache are passed on.
 *
 * <p><b>Thread safety.</b> Thread-safe, with no client-wide lock: concurrent misses for one key make a single
 * call to the registry, and lookups of other keys go on meanwhile.
 *
 * <p><b>Schema by id</b> is cached without expiry (ids never change meaning), bounded to {@code maxSize}
 * entries. An id the registry answers "not found" for is asked again on each lookup, unless
 * {@link CachePolicy#missingIdTtl()} is set: then it is remembered as missing for that long (a record with an
 * unknown id, skipped by the application, then costs no request per record); learning the id's schema by a
 * registration or lookup forgets it at once. With a {@link SchemaFileStore}, every schema learned is also
 * written to disk, and read back from there when the registry is unavailable: by Confluent id, by GUID and by
 * Apicurio id, each kind of id apart.
 *
 * <p><b>Register and lookup</b> are cached per (subject, schema), bounded: the same {@link Schema} instance
 * is found by identity, an equal schema by its text. Registering a schema also caches it by id.
 *
 * <p><b>Latest version</b> of a subject is cached for {@code latestTtl}. After that the next read returns the
 * cached value and refreshes it in the background, on this client's own daemon thread, which {@link #close()}
 * stops. If the refresh fails, a warning is logged and the stale value keeps being served until a refresh
 * succeeds.
 *
 * <p><b>Misses</b> are loaded on the calling thread, outside the caches' locks: a miss waits only for a load
 * of its own key, never for another key's. One load takes at most the HTTP client's retry budget.
 *
 * <p><b>The disk cache</b> never overrides the registry: a schema the registry answers is written back when
 * the file is missing, unreadable or different. A schema served from disk during an outage is asked of the
 * registry again, in the background, every {@link #DISK_RECHECK} while it is read; the registry's answer then
 * replaces it, and its "not found" removes it.
 *
 * <p>Everything else (subjects, versions, compatibility, deletes) goes to the registry every time; deletes
 * also drop the subject's cached entries.
 */
public final class CachingSchemaRegistryClient implements SchemaRegistryClient {
  private static final Logger log = LoggerFactory.getLogger(CachingSchemaRegistryClient.class);

  /** How often a schema served from disk is asked of the registry again while it is read. */
  static final Duration DISK_RECHECK = Duration.ofSeconds(30);

  /** The client this one caches, and passes the calls it does not cache on to. */
  private final SchemaRegistryClient delegate;
  /** Schemas served from disk that the registry then answered otherwise: see {@link #replacedSchemas()}. */
  private final java.util.concurrent.atomic.AtomicLong replaced = new java.util.concurrent.atomic.AtomicLong();
  /** Told when an answer may no longer hold: see {@link #onChange}. */
  private final java.util.List<Runnable> listeners = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Schemas served from the disk cache while the registry was unavailable. */
  private final LongAdder diskServes = new LongAdder();
  /** Latest versions kept after a failed refresh, and served stale. */
  private final LongAdder staleLatest = new LongAdder();
  private final Cache<Integer, Schema> byId;
  private final Cache<Integer, DataContract> contracts;
  private final Cache<UUID, DataContract> guidContracts;
  private final Cache<Integer, DataContract> registeredContracts;
  private final CallerLoads<Integer, Schema> byIdLoads;
  private final CallerLoads<UUID, Schema> byGuidLoads;
  private final CallerLoads<ApicurioId, Schema> byApicurioIdLoads;
  private final CallerLoads<Integer, Optional<UUID>> guidLoads;
  private final Cache<Integer, MissingId> missingIds;
  private final LoadingCache<LatestKey, SubjectVersion> latest;
  private final CallerLoads<LatestKey, SubjectVersion> latestLoads;
  private final SchemaKeyedCache<Integer> registered;
  private final SchemaKeyedCache<SubjectVersion> lookedUp;
  private final SchemaFileStore files;
  private final Ticker ticker;
  private final Executor background;
  private final ExecutorService ownBackground;
  /**
   * Ids served from disk, with when the registry was last asked for them (ticker time): only ids {@link #byId}
   * holds, so bounded as it is; an id it evicts leaves here too, and its next read asks the registry again.
   */
  private final Map<Integer, Long> fromDisk = new ConcurrentHashMap<>();
  /** The wrapped client's DEK registry, cached: see {@link CachingDekRegistry}. */
  private final CachingDekRegistry dekRegistry;
  private final CachePolicy policy;
  /** The schema context whose ids this cache holds ({@link SchemaContexts#qualifier}): see {@link #inContext}. */
  private final String context;
  /** The cache of the default context, which made this one: this one, or a context's view's. */
  private final CachingSchemaRegistryClient root;
  /**
   * The caches of other contexts, at most {@link CachePolicy#contextsCacheSize()}; the root's, shared by its
   * views. A context's cache holds no resource of its own (its client, thread and disk folder are the root's), so an
   * evicted one is dropped, not closed: a route that still holds it keeps reading through it.
   */
  private final Cache<String, CachingSchemaRegistryClient> contexts;

  /** Caches {@code delegate} with at most {@code maxSize} entries per cache. */
  public CachingSchemaRegistryClient(SchemaRegistryClient delegate, int maxSize, Duration latestTtl) {
    this(delegate, CachePolicy.of(maxSize, latestTtl), null);
  }

  /**
   * Caches {@code delegate}, and keeps schemas by id in {@code files} too (may be {@code null}): a schema the
   * registry cannot be asked for, because it is unavailable, is then read from there.
   */
  public CachingSchemaRegistryClient(SchemaRegistryClient delegate, int maxSize, Duration latestTtl,
      SchemaFileStore files) {
    this(delegate, CachePolicy.of(maxSize, latestTtl), files);
  }

  /** Caches {@code delegate} as {@code policy} says, with schemas by id also in {@code files} (may be null). */
  public CachingSchemaRegistryClient(SchemaRegistryClient delegate, CachePolicy policy, SchemaFileStore files) {
    this(delegate, policy, files, Ticker.systemTicker(), null);
  }

  /**
   * With a ticker and a background executor of the caller's (which {@link #close()} leaves running), or
   * {@code null} for this client's own daemon thread.
   */
  public CachingSchemaRegistryClient(SchemaRegistryClient delegate, CachePolicy policy, SchemaFileStore files,
      Ticker ticker, Executor backgroundExecutor) {
    this(delegate, policy, files, ticker, backgroundExecutor, null, SchemaContexts.DEFAULT);
  }

  /** The cache of context {@code context}'s ids, over {@code delegate}, the wrapped client's view of it. */
  private CachingSchemaRegistryClient(SchemaRegistryClient delegate, CachePolicy policy, SchemaFileStore files,
      Ticker ticker, Executor backgroundExecutor, CachingSchemaRegistryClient root, String context) {
    this.delegate = delegate;
    int maxSize = policy.maxSize();
    this.policy = policy;
    this.context = context;
    this.root = root == null ? this : root;
    this.contexts = root == null
        ? Caffeine.newBuilder().maximumSize(policy.contextsCacheSize()).executor(Runnable::run).build()
        : root.contexts;
    this.files = files;
    this.ticker = ticker;
    this.ownBackground = backgroundExecutor != null ? null : Executors.newSingleThreadExecutor(runnable -> {
      Thread thread = new Thread(runnable, "kavro-registry-refresh");
      thread.setDaemon(true);
      return thread;
    });
    this.background = backgroundExecutor != null ? backgroundExecutor : ownBackground;
    this.byId = Caffeine.newBuilder().maximumSize(maxSize).recordStats()
        .<Integer, Schema>evictionListener((id, schema, cause) -> {
          if (id != null) {
            fromDisk.remove(id);
          }
        })
        .build();
    this.byIdLoads = new CallerLoads<>(byId);
    this.contracts = Caffeine.newBuilder().maximumSize(maxSize).build();
    this.guidContracts = Caffeine.newBuilder().maximumSize(maxSize).build();
    this.registeredContracts = Caffeine.newBuilder().maximumSize(maxSize).build();
    this.byGuidLoads = new CallerLoads<>(Caffeine.newBuilder().maximumSize(maxSize).<UUID, Schema>build());
    this.byApicurioIdLoads = new CallerLoads<>(Caffeine.newBuilder().maximumSize(maxSize)
        .<ApicurioId, Schema>build());
    this.guidLoads = new CallerLoads<>(Caffeine.newBuilder().maximumSize(maxSize).<Integer, Optional<UUID>>build());
    this.missingIds = !policy.remembersMissingIds() ? null : Caffeine.newBuilder()
        .maximumSize(policy.missingCacheSize())
        .expireAfterWrite(policy.missingIdTtl())
        .ticker(ticker)
        .build();
    Caffeine<LatestKey, SubjectVersion> latestBuilder = Caffeine.newBuilder()
        .maximumSize(policy.latestCacheSize())
        .ticker(ticker)
        .executor(background)
        .recordStats()
        .removalListener(this::latestReplaced);
    if (policy.latestExpires()) {
      latestBuilder.refreshAfterWrite(policy.latestTtl());
    }
    this.latest = latestBuilder.build(new LatestLoader(delegate, staleLatest));
    this.latestLoads = new CallerLoads<>(latest);
    this.registered = new SchemaKeyedCache<>(maxSize);
    this.lookedUp = new SchemaKeyedCache<>(maxSize);
    this.dekRegistry = new CachingDekRegistry(delegate::dekRegistry, policy, ticker, background);
  }

  /** The wrapped client's. */
  @Override
  public boolean hasContexts() {
    return delegate.hasContexts();
  }

  /**
   * {@inheritDoc}
   *
   * <p>A cache of its own over the wrapped client's view of the context, as this one is (the latest versions of
   * the subjects asked through it too), on this client's background thread; with a disk cache, in a folder of the
   * context's own, so that ids of two contexts never meet. Its changes are this client's ({@link #onChange}).
   *
   * <p>At most {@link CachePolicy#contextsCacheSize()} contexts' caches are kept ({@code
   * schema.registry.contexts.cache.size}). A context's cache holds no resource of its own (its client's connections,
   * its background thread and its disk folder are this client's), so an evicted one is dropped, never closed: a
   * caller that still holds it keeps reading through it, and the context's next {@code inContext} makes a new,
   * empty one, which asks the registry again.
   */
  @Override
  public SchemaRegistryClient inContext(String context) {
    String qualifier = SchemaContexts.qualifier(context);
    if (qualifier.equals(SchemaContexts.DEFAULT)) {
      return root;
    }
    CachingSchemaRegistryClient known = contexts.getIfPresent(qualifier);
    if (known != null) {
      return known;
    }
    SchemaRegistryClient view = root.delegate.inContext(qualifier); // refused here when the registry has none
    return contexts.get(qualifier, c -> {
      CachingSchemaRegistryClient cache = new CachingSchemaRegistryClient(view, policy,
          root.files == null ? null : root.files.inContext(c), ticker, background, root, c);
      cache.onChange(root::changed);
      return cache;
    });
  }

  /** The cache of context {@code qualifier}, or {@code null} when the wrapped client has no contexts. */
  private CachingSchemaRegistryClient cacheOf(String qualifier) {
    try {
      return (CachingSchemaRegistryClient) inContext(qualifier);
    } catch (UnsupportedRegistryApiException e) {
      return null; // a subject it took as a plain name (schema-repo): no context's cache to teach
    }
  }

  /**
   * {@inheritDoc} The wrapped client's, cached (KEKs and latest DEKs refreshed as latest versions are): see
   * {@link CachingDekRegistry}. The same one on every call.
   */
  @Override
  public io.kavro.registry.DekRegistry dekRegistry() {
    delegate.dekRegistry(); // throws when the wrapped client has none
    return dekRegistry;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Cached per (subject, schema) without references; a registration with references (an administrator's
   * step, never a serializer's) is sent each time.
   */
  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    SubjectNames.present(subject, "register schema");
    int id = references.isEmpty() ? registered.get(subject, schema, () -> delegate.register(subject, schema))
        : delegate.register(subject, schema, references);
    remember(subject, id, schema);
    return id;
  }

  /** Sent each time: a registration with a contract is an administrator's step, never a serializer's. */
  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references, DataContract contract) {
    SubjectNames.present(subject, "register schema");
    int id = delegate.register(subject, schema, references, contract);
    remember(subject, id, schema);
    return id;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Cached per id, and kept on disk beside the schema: when the registry is unavailable, a contract stored
   * there serves, as the schema does; without one, the failure is the registry's.
   */
  @Override
  public DataContract contractOf(int id) {
    return contracts.get(id, key -> contractFromRegistryOrDisk("schema id " + id, () -> delegate.contractOf(id),
        () -> files.loadContract(id), c -> files.saveContract(id, c)));
  }

  /** Cached per id, as the delegate answers it. */
  @Override
  public DataContract registeredContract(int id) {
    return registeredContracts.get(id, delegate::registeredContract);
  }

  /** As {@link #contractOf(int)}, for a GUID. */
  @Override
  public DataContract contractOf(UUID guid) {
    return guidContracts.get(guid, key -> contractFromRegistryOrDisk("schema guid " + guid,
        () -> delegate.contractOf(guid), () -> files.loadContract(guid), c -> files.saveContract(guid, c)));
  }

  private DataContract contractFromRegistryOrDisk(String what, java.util.function.Supplier<DataContract> fetch,
      java.util.function.Supplier<DataContract> load, java.util.function.Consumer<DataContract> save) {
    try {
      DataContract contract = fetch.get();
      if (files != null) {
        save.accept(contract);
      }
      return contract;
    } catch (RegistryUnavailableException e) {
      DataContract stored = files == null ? null : load.get();
      if (stored == null) {
        throw e;
      }
      log.warn("Schema registry unavailable; using the data contract of {} from the schema cache on disk: {}", what,
          e.getMessage());
      diskServes.increment();
      return stored;
    }
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    SubjectNames.present(subject, "look up schema");
    SubjectVersion found = references.isEmpty()
        ? lookedUp.get(subject, schema, () -> delegate.lookup(subject, schema))
        : delegate.lookup(subject, schema, references);
    remember(subject, found.id(), found.schema());
    return found;
  }

  @Override
  public Schema schemaById(int id) {
    Schema schema = byIdLoads.get(id, this::loadById);
    if (!fromDisk.isEmpty()) {
      recheckIfDue(id);
    }
    return schema;
  }

  @Override
  public long replacedSchemas() {
    return replaced.get();
  }

  @Override
  public AutoCloseable onChange(Runnable listener) {
    listeners.add(listener);
    return () -> listeners.remove(listener);
  }

  /** A refresh replaced a latest version: the listeners are told, once the cache holds it, if it moved. */
  private void latestReplaced(LatestKey key, SubjectVersion old, com.github.benmanes.caffeine.cache.RemovalCause cause) {
    if (cause != com.github.benmanes.caffeine.cache.RemovalCause.REPLACED || key == null || old == null) {
      return;
    }
    SubjectVersion now = latest.asMap().get(key);
    if (now == null || now.id() != old.id() || now.version() != old.version()) {
      changed();
    }
  }

  /** Tells the listeners that an answer may no longer hold. */
  private void changed() {
    for (Runnable listener : listeners) {
      try {
        listener.run();
      } catch (RuntimeException e) {
        log.warn("A change listener of the schema registry client failed: {}", e.toString());
      }
    }
  }

  /**
   * Cached without expiry, like ids: a GUID never changes meaning. Kept on disk too, and read from there when the
   * registry is unavailable (not asked again in the background, as ids are).
   */
  @Override
  public Schema schemaByGuid(UUID guid) {
    return byGuidLoads.get(guid, this::loadByGuid);
  }

  /**
   * Cached without expiry, as ids are: the registry never gives an Apicurio id another schema. Kept on disk too,
   * and read from there when the registry is unavailable (not asked again in the background, as ids are).
   */
  @Override
  public Schema schemaByApicurioId(ApicurioId id) {
    return byApicurioIdLoads.get(id, this::loadByApicurioId);
  }

  /** Cached without expiry, the answer "none" too. */
  @Override
  public UUID guidOf(int id) {
    return guidLoads.get(id, key -> Optional.ofNullable(delegate.guidOf(key))).orElse(null);
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    SubjectNames.present(subject, "get latest version");
    return latest(new LatestKey(subject, Map.of()));
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    SubjectNames.present(subject, "get latest version with metadata");
    return latest(new LatestKey(subject, Map.copyOf(metadata)));
  }

  private SubjectVersion latest(LatestKey key) {
    SubjectVersion version = latestLoads.get(key, LatestLoader.fetch(delegate));
    remember(key.subject(), version.id(), version.schema());
    return version;
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    SubjectNames.present(subject, "get a version");
    return delegate.version(subject, version);
  }

  /**
   * {@inheritDoc} Uncached: the subject name strategy keeps what it learned per topic. With a disk cache, each
   * answer (the registry's answer that it lacks the API as none) is written there too, for
   * {@link #storedAssociations}.
   */
  @Override
  public List<Association> associations(String resourceNamespace, String resourceName, String resourceType,
      String associationType) {
    List<Association> found;
    try {
      found = delegate.associations(resourceNamespace, resourceName, resourceType, associationType);
    } catch (UnsupportedRegistryApiException e) {
      if (files != null) {
        files.saveAssociations(resourceNamespace, resourceName, resourceType, associationType, List.of());
      }
      throw e;
    }
    if (files != null) {
      files.saveAssociations(resourceNamespace, resourceName, resourceType, associationType, found);
    }
    return found;
  }

  /** {@inheritDoc} From the disk cache, when there is one. */
  @Override
  public List<Association> storedAssociations(String resourceNamespace, String resourceName, String resourceType,
      String associationType) {
    return files == null ? null
        : files.loadAssociations(resourceNamespace, resourceName, resourceType, associationType);
  }

  @Override
  public List<String> subjects() {
    return delegate.subjects();
  }

  @Override
  public CompatibilityLevel compatibility() {
    return delegate.compatibility();
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    delegate.setCompatibility(level);
  }

  @Override
  public List<Integer> versions(String subject) {
    SubjectNames.present(subject, "list versions");
    return delegate.versions(subject);
  }

  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    SubjectNames.present(subject, "test compatibility");
    return delegate.checkCompatibility(subject, schema);
  }

  @Override
  public CompatibilityLevel compatibility(String subject) {
    SubjectNames.present(subject, "get compatibility");
    return delegate.compatibility(subject);
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    SubjectNames.present(subject, "get compatibility");
    return delegate.compatibilityInForce(subject);
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    SubjectNames.present(subject, "set compatibility");
    delegate.setCompatibility(subject, level);
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    SubjectNames.present(subject, "delete subject");
    try {
      return delegate.deleteSubject(subject);
    } finally {
      forget(subject);
    }
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    SubjectNames.present(subject, "permanently delete subject");
    try {
      return delegate.deleteSubjectPermanently(subject);
    } finally {
      forget(subject);
    }
  }

  @Override
  public int deleteVersion(String subject, int version) {
    SubjectNames.present(subject, "delete a version");
    try {
      return delegate.deleteVersion(subject, version);
    } finally {
      forget(subject);
    }
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    SubjectNames.present(subject, "permanently delete a version");
    try {
      return delegate.deleteVersionPermanently(subject, version);
    } finally {
      forget(subject);
    }
  }

  /**
   * The wrapped client's request counters, and each cache's: {@code schemas-by-id} (stale serves: schemas
   * read from disk during an outage, by any kind of id), {@code latest} (stale serves: refreshes that failed and
   * kept the old version), {@code registrations} and {@code lookups}.
   */
  @Override
  public RegistryStats stats() {
    com.github.benmanes.caffeine.cache.stats.CacheStats ids = byId.stats();
    com.github.benmanes.caffeine.cache.stats.CacheStats latestStats = latest.stats();
    return delegate.stats().withCaches(Map.of(
        "schemas-by-id", new RegistryStats.CacheStats(ids.hitCount(), ids.missCount(), ids.evictionCount(),
            diskServes.sum()),
        "latest", new RegistryStats.CacheStats(latestStats.hitCount(), latestStats.missCount(),
            latestStats.evictionCount(), staleLatest.sum()),
        "registrations", registered.stats(),
        "lookups", lookedUp.stats()));
  }

  /** The contexts whose caches are kept now, for tests that check the bound. */
  java.util.Set<String> cachedContexts() {
    contexts.cleanUp();
    return java.util.Set.copyOf(contexts.asMap().keySet());
  }

  /** Entries held per cache, for tests that check the bounds. */
  CacheSizes cacheSizes() {
    byId.cleanUp();
    latest.cleanUp();
    return new CacheSizes(byId.estimatedSize(), registered.size(), lookedUp.size(), latest.estimatedSize(),
        fromDisk.size());
  }

  /**
   * Entries held per cache.
   *
   * @param schemasById id to schema
   * @param registered (subject, schema) to id, from registrations
   * @param lookedUp (subject, schema) to version, from lookups
   * @param latest subject to latest version
   * @param servedFromDisk ids served from disk, waiting to be asked of the registry again
   */
  record CacheSizes(long schemasById, long registered, long lookedUp, long latest, long servedFromDisk) {}

  /** Closes the wrapped client, and stops this client's background thread (refreshes, disk rechecks). */
  @Override
  public void close() {
    if (root != this) {
      return; // a context's cache: its client and thread are the root's
    }
    if (ownBackground != null) {
      ownBackground.shutdownNow();
    }
    delegate.close();
  }

  /** Caches the schema of {@code id}, learned from {@code subject}, when the subject is in this cache's context. */
  private void remember(String subject, int id, Schema schema) {
    String of = SchemaContexts.of(subject);
    if (!of.equals(context)) {
      // An id of another context names another schema there: that context's cache keeps it, if it has one.
      CachingSchemaRegistryClient owner = of.isEmpty() ? root : cacheOf(of);
      if (owner != null && owner != this) {
        owner.remember(subject, id, schema);
      }
      return;
    }
    if (byId.asMap().putIfAbsent(id, schema) == null) {
      if (missingIds != null) {
        missingIds.invalidate(id); // else, once evicted from byId, the id would read as missing until the TTL
      }
      if (files != null) {
        files.save(id, schema);
      }
    }
  }

  /**
   * From the registry (and then to disk); from disk only when the registry is unavailable. An id remembered
   * as missing fails without a request.
   */
  private Schema loadById(int id) {
    MissingId missing = missingIds == null ? null : missingIds.getIfPresent(id);
    if (missing != null) {
      throw missing.exception();
    }
    try {
      return fromRegistryOrDisk("schema id " + id, () -> delegate.schemaById(id), () -> files.load(id),
          schema -> files.save(id, schema), () -> fromDisk.put(id, ticker.read()));
    } catch (SchemaNotFoundException e) {
      if (missingIds != null) {
        missingIds.put(id, new MissingId(e.getMessage(), e.status(), e.errorCode(), e.url()));
      }
      throw e;
    }
  }

  private Schema loadByGuid(UUID guid) {
    return fromRegistryOrDisk("schema guid " + guid, () -> delegate.schemaByGuid(guid), () -> files.load(guid),
        schema -> files.save(guid, schema), null);
  }

  private Schema loadByApicurioId(ApicurioId id) {
    return fromRegistryOrDisk(id.toString(), () -> delegate.schemaByApicurioId(id), () -> files.load(id),
        schema -> files.save(id, schema), null);
  }

  /**
   * A schema from the registry, then written to disk; from disk only when the registry is unavailable (the
   * store's operations are called only when there is a store).
   *
   * @param servedFromDisk told when the schema comes from disk; may be null
   */
  private Schema fromRegistryOrDisk(String what, java.util.function.Supplier<Schema> fetch,
      java.util.function.Supplier<Schema> load, java.util.function.Consumer<Schema> save, Runnable servedFromDisk) {
    try {
      Schema schema = fetch.get();
      if (files != null) {
        save.accept(schema);
      }
      return schema;
    } catch (RegistryUnavailableException e) {
      Schema stored = files == null ? null : load.get();
      if (stored == null) {
        throw e;
      }
      log.warn("Schema registry unavailable; using {} from the schema cache on disk: {}", what, e.getMessage());
      if (servedFromDisk != null) {
        servedFromDisk.run();
      }
      diskServes.increment();
      return stored;
    }
  }

  /** Asks the registry again, in the background, for a schema served from disk, once per recheck period. */
  private void recheckIfDue(int id) {
    Long asked = fromDisk.get(id);
    long now = ticker.read();
    if (asked == null || now - asked < DISK_RECHECK.toNanos() || !fromDisk.replace(id, asked, now)) {
      return;
    }
    try {
      background.execute(() -> recheck(id));
    } catch (RejectedExecutionException closed) {
      // closed meanwhile
    }
  }

  /** The registry's answer for an id served from disk wins: it replaces the schema, or its "not found" drops it. */
  private void recheck(int id) {
    try {
      Schema schema = delegate.schemaById(id);
      fromDisk.remove(id);
      Schema served = byId.getIfPresent(id);
      byId.put(id, schema);
      if (!schema.equals(served)) {
        replaced.incrementAndGet();
        changed();
      }
      files.save(id, schema);
    } catch (SchemaNotFoundException e) {
      fromDisk.remove(id);
      byId.invalidate(id);
      contracts.invalidate(id);
      replaced.incrementAndGet();
      changed();
      files.delete(id);
      log.warn("Schema id {} was served from the schema cache on disk, but the registry does not know it: "
          + "forgotten: {}", id, e.getMessage());
    } catch (RuntimeException e) {
      log.debug("Schema id {} still served from the schema cache on disk: {}", id, e.getMessage());
    }
  }

  /** What the registry answered for an unknown id: kept instead of the exception, without its stack trace. */
  private record MissingId(String message, int status, int errorCode, String url) {
    SchemaNotFoundException exception() {
      return new SchemaNotFoundException(message + " (remembered as missing: missing.id.cache.ttl.sec)", status,
          errorCode, url, null);
    }
  }

  private void forget(String subject) {
    registered.invalidateSubject(subject);
    lookedUp.invalidateSubject(subject);
    if (latest.asMap().keySet().removeIf(key -> key.subject().equals(subject))) {
      changed();
    }
  }

  /** A subject's latest version, or its latest version whose metadata holds every entry of {@code metadata}. */
  private record LatestKey(String subject, Map<String, String> metadata) {}

  /** Refreshes the latest version; on a failed refresh, keeps serving the old one. Misses use CallerLoads. */
  private record LatestLoader(SchemaRegistryClient delegate, LongAdder staleServes)
      implements CacheLoader<LatestKey, SubjectVersion> {
    static java.util.function.Function<LatestKey, SubjectVersion> fetch(SchemaRegistryClient delegate) {
      return key -> key.metadata().isEmpty() ? delegate.latestVersion(key.subject())
          : delegate.latestWithMetadata(key.subject(), key.metadata());
    }

    @Override
    public SubjectVersion load(LatestKey key) {
      return fetch(delegate).apply(key);
    }

    @Override
    public SubjectVersion reload(LatestKey key, SubjectVersion stale) {
      try {
        return load(key);
      } catch (SchemaRegistryException e) {
        log.warn("Could not refresh the latest version of subject '{}'{}; still using version {} (id {}): {}",
            key.subject(), key.metadata().isEmpty() ? "" : " with metadata " + key.metadata(), stale.version(),
            stale.id(), e.getMessage());
        staleServes.increment();
        return stale;
      }
    }
  }
}
