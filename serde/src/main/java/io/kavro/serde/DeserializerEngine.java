package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.serde.ReadPlanner.ReadRoute;
import io.kavro.serde.framing.FramingResolver;
import io.kavro.serde.framing.Located;
import io.kavro.serde.framing.ResolverKey;
import io.kavro.serde.framing.SchemaIdReader;
import io.kavro.serde.rules.RuleException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.UUID;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;

/**
 * The deserializer's immutable engine, built once by {@code configure()}: the per-record path (finding the
 * schema id, the plan lookup, decoding and error mapping), with the registry step left to its {@link ReadRouter}
 * and every plan-time decision to its {@link ReadPlanner}. Thread-safe.
 *
 * <p>Per record, once warm: the header is read in place, the read plan for the writer id is found
 * in a bounded cache, and the body is decoded straight from the payload's array by a per-thread
 * {@link BoundedBinaryDecoder}. No copy of a heap payload, no registry call.
 *
 * <p>The reader schema, first match wins: the generated class ({@code specific.avro.reader}); the configured
 * reader schema; the subject's latest schema ({@code use.latest.version}); the writer schema.
 */
final class DeserializerEngine implements AutoCloseable {
  private final boolean isKey;
  private final boolean followsLatest;
  private final ReadRouter router;
  private final RuleEngine rules;
  private final int maxRoutes;
  /**
   * The routes of the default context's topics that depend on the schema id alone, when no route follows the latest
   * version; else {@code null}. A route that runs rules is the topic's own even then: it names the topic's subject
   * (encryption's DEK is the subject's), and one schema id may be registered under the subjects of several topics.
   */
  private final RouteTable shared;
  /**
   * With {@link #shared}, such tables per other schema context, by qualifier (the default context's is {@link
   * #shared}): each context numbers its schemas apart, so one id is shared only by the topics of one context. At
   * most {@code schema.registry.contexts.cache.size} contexts: an evicted context's routes (which hold nothing to
   * close) are built again from the registry.
   */
  private final com.github.benmanes.caffeine.cache.Cache<String, RouteTable> sharedByContext;
  /** Whether topics may be in another context than the default one ({@link TopicIds#contextual}). */
  private final boolean contextual;
  /** The owner of each topic's context, which says which table of {@link #sharedByContext} is the topic's. */
  private final TopicIds ids;
  /**
   * The routes per topic: all of them when they follow its subject's latest version, else those that run rules.
   * Where topics may be in contexts, a topic's table is of the context its routes read ids in: a topic found in
   * another context (its association moved) gets a new one, and no other topic's routes are rebuilt. Bounded by
   * {@code max.schemas.per.subject} topics: an evicted topic's routes are built again from the registry.
   */
  private final QuietCache<String, RouteTable> byTopic;
  /** How long a route that follows the latest version stands before it is asked again; MAX_VALUE: until told. */
  private final long recheckNanos;
  /** Changes the client told of (a schema served from disk replaced): every route is rebuilt when it moves. */
  private final java.util.concurrent.atomic.AtomicLong changes = new java.util.concurrent.atomic.AtomicLong();
  private volatile long changesSeen;
  private final AutoCloseable changeListener;
  /** Where each record names its writer schema: asked once per record. */
  private final SchemaIdReader framing;
  private final boolean failOnTrailingData;
  /**
   * Schema keys that a prefix seemed to hold and the registry did not know, a schema id with the qualifier of the
   * context it was asked in where topics may be in contexts ({@link UnknownId}): see {@link #knownPlan}.
   */
  private final Cache<Object, Boolean> unknownKeys;
  /** How long {@link #unknownKeys} remembers a key. */
  static final java.time.Duration UNKNOWN_PREFIX_TTL = java.time.Duration.ofMinutes(1);
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  /**
   * Per thread: the decoder, where the framing found the schema, a copy buffer for direct payloads, and the route
   * this thread used last, which answers most records (a topic usually carries one schema) without a cache lookup
   * and without a write that threads sharing the deserializer would contend on; and which of its reads of a topic's
   * context count as uses of it. The decoder and the copy are marked while a read holds them: a read that starts
   * meanwhile on the same thread (a value's own code, a constructor or a conversion, deserializing with this
   * deserializer) gets its own, which leave the outer read's as they are. The routes are caches, checked against
   * the topic and id they are used for: a nested read only changes which one is found next.
   */
  private static final class Scratch {
    final BoundedBinaryDecoder decoder = new BoundedBinaryDecoder();
    /**
     * Set while {@link #decoder} reads a body: used by a nested read, it would leave the outer read at the nested
     * payload's end, reading the rest of its record from another record's bytes.
     */
    boolean reading;
    final Located located = new Located();
    byte[] copy = new byte[0];
    /** Set while {@link #copy} holds the direct payload being read. */
    boolean copyHeld;
    /** The last route found in the topic's own route table, for {@link #lastTopic}'s records. */
    ReadRoute last;
    String lastTopic;
    /** The context (and subject) {@link #last} was built for, where topics may be in contexts; else null. */
    TopicIds.TopicContext lastContext;
    /** The shared route table of {@link #tableTopic}'s context, so that a topic's records skip the map lookup. */
    RouteTable table;
    String tableTopic;
    /**
     * {@link #tableTopic}'s context, when topics may be in contexts: it and its table serve while it stands and is
     * the one kept ({@link TopicIds#standsFor}).
     */
    TopicIds.TopicContext tableContext;
    /** Which of this thread's reads of a topic's context count as uses of it. */
    final TopicIds.UseSampler uses = new TopicIds.UseSampler();

    void used(String topic, ReadRoute route, TopicIds.TopicContext context) {
      last = route;
      lastTopic = topic;
      lastContext = context;
    }
  }

  /** @param ruleMetrics where its rules are counted ({@code rule.metrics.enable}) */
  DeserializerEngine(SchemaRegistryClient client, AvroSerdeConfig config, RuleMetrics ruleMetrics) {
    this(client, config, ruleMetrics, System::nanoTime);
  }

  /**
   * As {@link #DeserializerEngine(SchemaRegistryClient, AvroSerdeConfig, RuleMetrics)}, timing the topics'
   * contexts by a clock (that of the subject name strategy's answers).
   */
  DeserializerEngine(SchemaRegistryClient client, AvroSerdeConfig config, RuleMetrics ruleMetrics,
      java.util.function.LongSupplier nanoClock) {
    this(client, config, ruleMetrics, nanoClock, null);
  }

  /**
   * As the four-argument constructor, counting the reads of the topics' contexts in {@code contextStats}: for tests
   * that the record path counts uses.
   */
  DeserializerEngine(SchemaRegistryClient client, AvroSerdeConfig config, RuleMetrics ruleMetrics,
      java.util.function.LongSupplier nanoClock, com.github.benmanes.caffeine.cache.stats.StatsCounter contextStats) {
    this.isKey = config.isKey();
    this.framing = new SchemaIdReader(isKey, config.schemaIdFromHeader(), config.schemaIdPrefix(),
        resolver(config));
    this.rules = new RuleEngine(config.ruleSettings(), client, ruleMetrics);
    this.router = new ReadRouter(client, config, framing, rules, nanoClock, contextStats);
    this.followsLatest = router.followsLatest();
    this.maxRoutes = config.maxSchemasPerSubject();
    this.byTopic = new QuietCache<>(maxRoutes);
    // Routes are shared by id across the topics of one schema context (id 1 of one context is another schema than
    // another's) unless they follow a subject's latest version, or ids count per subject.
    boolean perTopic = followsLatest || client.idsPerSubject();
    this.shared = perTopic ? null : new RouteTable(maxRoutes, true, null);
    this.sharedByContext = com.github.benmanes.caffeine.cache.Caffeine.newBuilder()
        .maximumSize(config.registryConfig().contextsCacheSize()).executor(Runnable::run).build();
    this.contextual = router.contextual();
    this.ids = router.ids();
    this.recheckNanos = recheckNanos(config);
    this.changeListener = client.onChange(changes::incrementAndGet);
    this.failOnTrailingData = config.failOnTrailingData();
    this.unknownKeys = Caffeine.newBuilder().maximumSize(config.maxSchemasPerSubject())
        .expireAfterWrite(UNKNOWN_PREFIX_TTL).build();
  }

  /** The configured framing resolver, created and configured, or {@code null}. */
  private static FramingResolver resolver(AvroSerdeConfig config) {
    if (config.framingResolver() == null) {
      return null;
    }
    FramingResolver resolver = org.apache.kafka.common.utils.Utils.newInstance(config.framingResolver());
    resolver.configure(config.originals(), config.isKey());
    return resolver;
  }

  /**
   * The routes of one stream: a writer schema's by its id or other key, and for the routes that run rules in a
   * table of their own, the last one used.
   */
  private static final class RouteTable {
    final QuietCache<Integer, ReadRoute> byId;
    /** Routes by any other key: a GUID, an Apicurio id, a {@link FramingResolver}'s key. */
    final QuietCache<Object, ReadRoute> byKey;
    /** A shared table's routes by schema id, looked up first; {@code null} for a topic's own table. */
    final RouteIndex index;
    /**
     * The context a topic's own table reads ids in, and the subject its routes follow, where topics may be in
     * contexts; else (and for a shared table, whose context is its key) null. Compared by
     * {@link TopicIds.TopicContext#readsAs}, not by identity: a context evicted and learnt again the same keeps it.
     */
    final TopicIds.TopicContext context;
    volatile ReadRoute last;

    RouteTable(int maxRoutes, boolean shared, TopicIds.TopicContext context) {
      byId = new QuietCache<>(maxRoutes);
      byKey = new QuietCache<>(maxRoutes);
      index = shared ? new RouteIndex(maxRoutes) : null;
      this.context = context;
    }

    boolean shared() {
      return index != null;
    }

    void clear() {
      if (index != null) {
        index.clear(); // for memory: no route of another count of changes stands
      }
      byId.invalidateAll();
      byKey.invalidateAll();
    }
  }

  /**
   * How long a route that follows the latest version stands: the client's latest cache is refreshed in the
   * background after {@code latest.cache.ttl.sec}, and tells of a change, so asking it again once per period is
   * enough; never, when it never expires (Confluent's default, -1: the latest is cached for good).
   */
  static long recheckNanos(AvroSerdeConfig config) {
    java.time.Duration ttl = config.registryConfig().latestCacheTtl();
    return ttl.equals(io.kavro.registry.config.RegistryConfig.NO_EXPIRY) ? Long.MAX_VALUE : ttl.toNanos();
  }

  /** See {@link KafkaAvroDeserializer#writerVersion}. */
  Integer writerVersion(String topic, AvroValue read) {
    return router.writerVersion(topic, read);
  }

  /**
   * The datum of a payload, or {@code null} for a {@code null} payload (a tombstone). The schema id is in the
   * record's {@code __key_schema_id} / {@code __value_schema_id} header when it has one (and
   * {@code schema.id.deserializer} reads headers), else in the payload's prefix.
   */
  Object deserialize(String topic, Headers headers, byte[] payload) {
    return payload == null ? null : deserialize(topic, headers, payload, 0, payload.length);
  }

  /** The datum of a payload, from its position to its limit, which are left as they are. */
  Object deserialize(String topic, Headers headers, ByteBuffer payload) {
    if (payload == null) {
      return null;
    }
    return decode(topic, headers, payload, false);
  }

  private Object deserialize(String topic, Headers headers, byte[] payload, int offset, int length) {
    return decode(topic, headers, payload, offset, length, false);
  }

  /** Like {@link #deserialize(String, Headers, ByteBuffer)}, with the schema id and the schema read as. */
  AvroValue deserializeWithSchema(String topic, Headers headers, ByteBuffer payload) {
    if (payload == null) {
      return null;
    }
    return (AvroValue) decode(topic, headers, payload, true);
  }

  /**
   * Decodes a payload held in a buffer: in its backing array, or for a direct (off-heap) payload from a copy in this
   * thread's buffer; a direct payload read while that copy holds another's ({@link Scratch#copyHeld}) is copied into
   * an array of its own.
   */
  private Object decode(String topic, Headers headers, ByteBuffer payload, boolean withSchema) {
    int length = payload.remaining();
    if (payload.hasArray()) {
      return decode(topic, headers, payload.array(), payload.arrayOffset() + payload.position(), length, withSchema);
    }
    Scratch scratch = this.scratch.get();
    if (scratch.copyHeld) {
      byte[] own = new byte[length];
      payload.get(payload.position(), own, 0, length);
      return decode(topic, headers, own, 0, length, withSchema);
    }
    if (scratch.copy.length < length) {
      scratch.copy = new byte[length];
    }
    payload.get(payload.position(), scratch.copy, 0, length);
    scratch.copyHeld = true;
    try {
      return decode(topic, headers, scratch.copy, 0, length, withSchema);
    } finally {
      scratch.copyHeld = false;
    }
  }

  /**
   * Finds the record's route and decodes its body. The usual record, a Confluent prefix without an id header, is
   * read on a short path; any other framing goes through {@link #located}.
   */
  private Object decode(String topic, Headers headers, byte[] payload, int offset, int length, boolean withSchema) {
    Scratch scratch = this.scratch.get();
    if (framing.plainPrefix(headers, payload, offset, length)) {
      ReadRoute route = plan(scratch, topic, SchemaIdReader.plainId(payload, offset), length);
      return read(scratch, topic, headers, route, null, payload, offset + SchemaIdReader.PLAIN_PREFIX_SIZE,
          length - SchemaIdReader.PLAIN_PREFIX_SIZE, length, withSchema, failOnTrailingData);
    }
    return located(scratch, topic, headers, payload, offset, length, withSchema);
  }

  /**
   * Asks the framing where the record names its writer schema, finds its route, and decodes the body. A record
   * with an id header whose payload also starts with a prefix is read by {@link #eitherFraming}.
   */
  private Object located(Scratch scratch, String topic, Headers headers, byte[] payload, int offset, int length,
      boolean withSchema) {
    Located at = scratch.located;
    try {
      framing.locate(topic, headers, payload, offset, length, at);
    } catch (UnsupportedFramingException | MalformedPayloadException | SchemaResolutionException e) {
      throw onRecord(Failures.record(topic, isKey, -1, length), e);
    }
    if (at.alternative() != null) {
      return eitherFraming(topic, headers, at.named(), at.alternative(), payload, at.alternativeOffset(),
          at.alternativeLength(), offset, length, withSchema);
    }
    // Taken before the route is found, which may run plug-ins' code (a resolver, a subject name strategy) that reads
    // another record on this thread into the same holder.
    Object key = at.key();
    int bodyOffset = at.bodyOffset();
    int bodyLength = at.bodyLength();
    ReadRoute route = key == null ? plan(scratch, topic, at.schemaId(), length)
        : key instanceof ResolverKey resolved ? resolverPlan(topic, resolved, length) : keyedPlan(topic, key, length);
    return read(scratch, topic, headers, route, key, payload, bodyOffset, bodyLength, length, withSchema,
        failOnTrailingData);
  }

  /**
   * The route for a {@link FramingResolver}'s key. The key is the plug-in's object: its {@code hashCode} and
   * {@code equals}, which the route cache calls, fail as the plug-in's failure.
   */
  private ReadRoute resolverPlan(String topic, ResolverKey key, int length) {
    try {
      return keyedPlan(topic, key, length);
    } catch (SerializationException | org.apache.kafka.common.errors.RetriableException e) {
      throw e;
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw onRecord(Failures.record(topic, isKey, -1, length), framing.keyFailure(e));
    }
  }

  /**
   * The framing's failure {@code e} (a {@link MalformedPayloadException}, an {@link UnsupportedFramingException}
   * or a {@link SchemaResolutionException}: Kavro's own, a framing resolver's failure, or its own exception), of the
   * same type and cause, its message saying first which record failed. The framing builds each of them, a
   * resolver's own exception among them as the cause ({@code ForeignFramings.own}).
   */
  static SerializationException onRecord(String record, SerializationException e) {
    String message = "cannot deserialize " + record + ": " + e.getMessage();
    if (e instanceof SchemaResolutionException) {
      return new SchemaResolutionException(message, e.getCause());
    }
    if (e instanceof UnsupportedFramingException) {
      SerializationException unsupported = new UnsupportedFramingException(message);
      if (e.getCause() != null) {
        unsupported.initCause(e.getCause());
      }
      return unsupported;
    }
    return new MalformedPayloadException(message, e.getCause());
  }

  /**
   * A record with an id header whose payload also starts with a prefix. Its producer wrote one of the two: the
   * header and the bare body (Apicurio's and Confluent's header serializers), or the prefix, with the header left
   * over from the record it came from (Kafka Streams forwards headers, and so do Confluent's and Apicurio's prefix
   * serializers). The bytes alone cannot tell, since an Avro body may start with {@code 0x00}. When the prefix
   * names no schema the registry knows, the header's framing is the only one; otherwise the record is decoded under
   * both, to its last byte whatever {@code avro.fail.on.trailing.data} says, and the one framing under which it
   * reads is taken. A record that reads under both, or neither, is refused, naming both ids: never decoded under a
   * schema its producer may not have used.
   */
  private Object eitherFraming(String topic, Headers headers, Object headerKey, Object prefixKey, byte[] payload, int prefixedOffset,
      int prefixedLength, int offset, int length, boolean withSchema) {
    ReadRoute prefixPlan = knownPlan(topic, prefixKey, length);
    if (prefixPlan == null) {
      return read(topic, headers, planOf(topic, headerKey, length), headerKey, payload, offset, length, length, withSchema,
          failOnTrailingData);
    }
    ReadRoute headerPlan = knownPlan(topic, headerKey, length);
    Object viaPrefix = null;
    SerializationException prefixFailure = null;
    try {
      viaPrefix = read(topic, headers, prefixPlan, prefixKey, payload, prefixedOffset, prefixedLength, length, withSchema,
          true);
    } catch (MalformedPayloadException e) {
      prefixFailure = e;
    }
    if (headerPlan == null) {
      if (prefixFailure != null) {
        throw prefixFailure;
      }
      return viaPrefix;
    }
    Object viaHeader = null;
    SerializationException headerFailure = null;
    try {
      viaHeader = read(topic, headers, headerPlan, headerKey, payload, offset, length, length, withSchema, true);
    } catch (MalformedPayloadException e) {
      headerFailure = e;
    }
    if (headerFailure == null && prefixFailure == null) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, -1, length)
          + ": its " + framing.headerName(headerKey) + " header names " + describe(headerKey)
          + ", and its payload starts with a prefix that names " + describe(prefixKey) + "; it reads whole under "
          + "either, so which one its producer used cannot be told, and it is read under neither. A header left "
          + "over from another record is the usual cause: drop it before writing, or set " + idDeserializerKey()
          + " to read the prefix only (PrefixSchemaIdDeserializer)", null);
    }
    if (headerFailure == null) {
      return viaHeader;
    }
    if (prefixFailure == null) {
      return viaPrefix;
    }
    MalformedPayloadException neither = new MalformedPayloadException("cannot deserialize "
        + Failures.record(topic, isKey, -1, length) + ": it reads neither under its " + framing.headerName(headerKey)
        + " header's " + describe(headerKey) + " (" + headerFailure.getMessage() + ") nor under its prefix's "
        + describe(prefixKey) + " (" + prefixFailure.getMessage() + ")", headerFailure);
    neither.addSuppressed(prefixFailure);
    throw neither;
  }

  /**
   * The plan for {@code key} when the registry knows its schema, else {@code null}. What it does not know is
   * remembered for {@link #UNKNOWN_PREFIX_TTL}: an id that a prefix seems to hold is asked once, not per record.
   */
  private ReadRoute knownPlan(String topic, Object key, int length) {
    // A schema id is unknown in one context only (each numbers its schemas apart): another topic's may know it.
    Object unknown = contextual && key instanceof Integer id
        ? new UnknownId(contextOf(scratch.get(), topic, id, length).qualifier(), id) : key;
    if (unknownKeys.getIfPresent(unknown) != null) {
      return null;
    }
    try {
      return planOf(topic, key, length);
    } catch (UnknownSchemaIdException e) {
      unknownKeys.put(unknown, Boolean.TRUE);
      return null;
    }
  }

  /** A schema id that the registry did not know in the context of {@code qualifier}: a key of unknownKeys. */
  private record UnknownId(String qualifier, int id) {}

  private String idDeserializerKey() {
    return isKey ? AvroSerdeConfig.KEY_SCHEMA_ID_DESERIALIZER_CONFIG
        : AvroSerdeConfig.VALUE_SCHEMA_ID_DESERIALIZER_CONFIG;
  }

  /** The read plan for a writer schema key: an {@code Integer} schema id, or a key of {@link RouteTable#byKey}. */
  private ReadRoute planOf(String topic, Object key, int length) {
    return key instanceof Integer id ? plan(scratch.get(), topic, id, length) : keyedPlan(topic, key, length);
  }

  /**
   * Decodes the Avro body of a payload of {@code length} bytes; with {@code toTheEnd}, the body must be read to its
   * last byte. The datum, or with {@code withSchema} an {@link AvroValue}.
   *
   * @param key how the record names its writer schema, or {@code null} for the plan's schema id
   */
  private Object read(String topic, Headers headers, ReadRoute plan, Object key, byte[] payload, int bodyOffset,
      int bodyLength, int length, boolean withSchema, boolean toTheEnd) {
    return read(scratch.get(), topic, headers, plan, key, payload, bodyOffset, bodyLength, length, withSchema,
        toTheEnd);
  }

  private Object read(Scratch scratch, String topic, Headers headers, ReadRoute plan, Object key, byte[] payload,
      int bodyOffset, int bodyLength, int length, boolean withSchema, boolean toTheEnd) {
    if (plan.hasRules()) {
      byte[] body = ruled(topic, headers, plan, key, payload, bodyOffset, bodyLength, length, toTheEnd);
      if (body != null) {
        payload = body;
        bodyOffset = 0;
        bodyLength = body.length;
      }
    }
    // A read nested in another of this thread's (Scratch#reading) gets a decoder of its own.
    boolean nested = scratch.reading;
    BoundedBinaryDecoder decoder = (nested ? new BoundedBinaryDecoder() : scratch.decoder)
        .reset(payload, bodyOffset, bodyLength);
    Object datum;
    scratch.reading = true;
    try {
      datum = plan.read(decoder);
    } catch (IOException | RuntimeException | LinkageError | StackOverflowError e) {
      throw readFailure(e, topic, plan, key, length);
    } finally {
      scratch.reading = nested;
    }
    if (toTheEnd && !decoder.isEnd()) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, named(key, plan), length)
          + ": " + decoder.remaining() + " trailing byte(s) after the datum", null);
    }
    return withSchema ? new AvroValue(plan.id(), plan.readerSchema(), datum, named(key, plan)) : datum;
  }

  /**
   * What a failure to decode a body is: valid Avro that the application's Java record refuses, a reader that cannot
   * run (a class that fails to link), or a truncated, corrupt or too deeply nested body. Kept off {@link #read} so
   * that the record path stays small enough to inline.
   */
  private SerializationException readFailure(Throwable e, String topic, ReadRoute plan, Object key, int length) {
    String record = "cannot deserialize " + Failures.record(topic, isKey, named(key, plan), length);
    // On a route with rules (which may have decrypted the value), a failure's message may quote a value that the
    // contract protects (the text a Java type is built from, a constructor's refusal): its class name only.
    boolean showValues = !plan.hasRules();
    if (e instanceof JavaRecordConstructionException refused) {
      // Valid Avro that the application's class refuses: not a corrupt record.
      return showValues ? new SerializationException(record + ": " + refused.getMessage(), refused.getCause())
          : new SerializationException(record + ": the application's class refused the values of writer schema "
              + plan.writerSchema().getFullName() + ": " + hidden(refused), RuleException.withoutMessages(refused));
    }
    if (e instanceof LinkageError linkage) {
      // A class the reader runs that does not link or initialize (compiled against another Avro, missing at run
      // time, a static initializer that failed): the records of this writer schema that reach it cannot be read
      // until the deployment is fixed. Not a corrupt record: skipping them would pass over good records.
      String why = linkage.getCause() == null ? linkage.toString() : linkage + ", caused by " + linkage.getCause();
      return new SchemaResolutionException(record + ": the reader of writer schema "
          + plan.writerSchema().getFullName() + " cannot run, a class it uses failed to link or initialize (a "
          + "deployment fault, not a corrupt record): " + (showValues ? why : hidden(linkage)),
          showValues ? linkage : RuleException.withoutMessages(linkage));
    }
    if (e instanceof StackOverflowError) {
      // A recursive schema lets a small payload nest deeper than any stack: a bad record, not a dead consumer.
      return new MalformedPayloadException(record + ": the Avro body for writer schema "
          + plan.writerSchema().getFullName() + " nests deeper than this thread's stack can read", null);
    }
    return new MalformedPayloadException(record + ": truncated or corrupt Avro body for writer schema "
        + plan.writerSchema().getFullName() + ": " + (showValues ? e : hidden(e)),
        showValues ? e : RuleException.withoutMessages(e));
  }

  private static String hidden(Throwable e) {
    return e.getClass().getName() + " (its message is left out: the route has rules, which may protect the value)";
  }

  /**
   * The body after the rules of the route's versions, to be decoded as their output schema. A rule whose action
   * fails the record throws its own error; a body the rules cannot decode is a malformed payload. Null when no
   * rule runs (the rules are only counted as skipped): the body is read as it is.
   */
  private byte[] ruled(String topic, Headers headers, ReadRoute plan, Object key, byte[] payload, int bodyOffset,
      int bodyLength, int length, boolean toTheEnd) {
    if (!plan.rules().runs()) {
      plan.rules().skipped();
      return null;
    }
    try {
      return plan.rules().apply(new io.kavro.serde.rules.RuleInput(topic, isKey, headers), payload, bodyOffset,
          bodyLength, toTheEnd);
    } catch (io.kavro.registry.SchemaRegistryException e) {
      throw Failures.whileReading(Failures.record(topic, isKey, named(key, plan), length), e);
    } catch (IOException | org.apache.avro.AvroRuntimeException e) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, named(key, plan), length)
          + ": cannot run the data contract rules of writer schema " + plan.writerSchema().getFullName() + ": "
          + e.getMessage(), e);
    } catch (StackOverflowError e) {
      // The rules read the body before the decoder does: a payload nested deeper than any stack is a bad record.
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, named(key, plan),
          length) + ": the Avro body for writer schema " + plan.writerSchema().getFullName() + " nests deeper than "
          + "this thread's stack can read before its data contract rules could run", null);
    }
  }

  /** How a record named the writer schema of {@code plan}: {@code key}, or the plan's schema id. */
  private static Object named(Object key, ReadRoute plan) {
    return key != null ? key : (Object) plan.id();
  }

  /**
   * The route for schema id {@code id}: a shared route from its table's index; a topic's own route (when routes
   * follow its subject's latest version, or have rules, even if only counted as skipped) the one this thread used
   * last, for the same id, topic and context; else {@link #lookUp}'s. A route stands only while the client's count
   * of changes is the one it was built in.
   */
  private ReadRoute plan(Scratch scratch, String topic, int id, int length) {
    long told = changes.get();
    TopicIds.TopicContext context = contextual ? contextOf(scratch, topic, id, length) : null;
    if (shared != null) {
      ReadRoute indexed = (contextual ? scratch.table : shared).index.get(id);
      if (indexed != null && indexed.generation() == told) {
        return indexed;
      }
      // else a route with rules (if only rules counted as skipped): the topic's own, as its rules count per subject
    }
    ReadRoute last = scratch.last;
    if (last != null && last.id() == id && last.generation() == told
        && java.util.Objects.equals(topic, scratch.lastTopic)
        && (context == null || context.readsAs(scratch.lastContext)) && current(last)) {
      return last;
    }
    return lookUp(scratch, topic, id, told, length, context);
  }

  /**
   * {@code topic}'s context, where topics may be in contexts: the one this thread read the topic's last record in
   * while it stands and is the one kept (no registry call, no allocation), else the one {@link TopicIds} gives, with
   * its shared route table ({@link Scratch#table}). About one read in {@link TopicIds#USE_EVERY} counts as a use.
   */
  private TopicIds.TopicContext contextOf(Scratch scratch, String topic, int id, int length) {
    // the same String instance: a topic's records
    boolean counted = scratch.uses.counts();
    if (scratch.tableTopic != topic || !ids.standsFor(topic, scratch.tableContext, counted)) {
      TopicIds.TopicContext context = contextOf(topic, id, length, counted);
      scratch.table = shared != null ? tableOf(context) : null;
      scratch.tableContext = context;
      scratch.tableTopic = topic;
    }
    return scratch.tableContext;
  }

  /**
   * The route for {@code id} from the route tables, built when they lack it; this thread's last route then.
   * {@code context}: the topic's, which the route's table and schema are of, or null where topics are not in
   * contexts.
   */
  private ReadRoute lookUp(Scratch scratch, String topic, int id, long told, int length,
      TopicIds.TopicContext context) {
    RouteTable table = table(topic, told, context, false);
    ReadRoute known = standing(table.byId.getIfPresent(id), told);
    if (known != null && current(known)) {
      if (table.shared()) {
        table.index.put(known);
      } else {
        scratch.used(topic, known, context);
      }
      return known;
    }
    RouteTable own = table.shared() ? ownIfPresent(topic, context) : null;
    if (own != null) {
      ReadRoute ruled = standing(own.last, told);
      if (ruled == null || ruled.id() != id) {
        ruled = standing(own.byId.getIfPresent(id), told);
      }
      if (ruled != null) {
        own.last = ruled;
        scratch.used(topic, ruled, context);
        return ruled;
      }
    }
    return build(topic, table, id, null, known, length, told, context);
  }

  /**
   * {@code route}, or {@code null} when it was built in another count of changes: a route a thread put into a
   * table after the tables were emptied for a change, from an answer that the change may have replaced.
   */
  private static ReadRoute standing(ReadRoute route, long told) {
    return route != null && route.generation() == told ? route : null;
  }

  /**
   * The routes of {@code topic}'s stream, {@code told} being the count of changes just read, {@code context} the
   * topic's (null where topics are not in contexts); {@code keyed}: for a route by another key than a schema id.
   * The tables are emptied once the client told of a change (a schema served from disk replaced, a latest version
   * moved); a route put into them later from an older count does not stand either ({@link #standing}).
   */
  private RouteTable table(String topic, long told, TopicIds.TopicContext context, boolean keyed) {
    if (told != changesSeen) {
      changesSeen = told;
      if (shared != null) {
        shared.clear();
      }
      sharedByContext.asMap().values().forEach(RouteTable::clear);
      byTopic.invalidateAll();
    }
    if (shared != null) {
      // A GUID, an Apicurio id or a resolver's key names one schema in the whole registry: no context to find.
      return keyed || context == null ? shared : tableOf(context);
    }
    return ownOf(topic, context);
  }

  /**
   * {@code topic}'s own routes, of {@code context} (null where topics are not in contexts): a table of the context
   * or the subject the topic had before (its routes read ids there, follow that subject's latest version and rules)
   * is replaced by an empty one.
   */
  private RouteTable ownOf(String topic, TopicIds.TopicContext context) {
    RouteTable table = ownIfPresent(topic, context);
    if (table != null) {
      return table;
    }
    return byTopic.compute(TopicKey.of(topic), (t, kept) -> kept != null && readsAs(context, kept.context) ? kept
        : new RouteTable(maxRoutes, false, context));
  }

  /**
   * {@code topic}'s own routes when it has some of {@code context} (null where topics are not in contexts): of the
   * same context and subject.
   */
  private RouteTable ownIfPresent(String topic, TopicIds.TopicContext context) {
    RouteTable table = byTopic.getIfPresent(TopicKey.of(topic));
    return table == null || (context != null && !context.readsAs(table.context)) ? null : table;
  }

  /** Whether routes built in {@code built} serve in {@code context}; both null where topics are not in contexts. */
  private static boolean readsAs(TopicIds.TopicContext context, TopicIds.TopicContext built) {
    return context == null ? built == null : context.readsAs(built);
  }

  /** The shared routes of {@code context}. */
  private RouteTable tableOf(TopicIds.TopicContext context) {
    String qualifier = context.qualifier();
    if (qualifier.equals(io.kavro.registry.SchemaContexts.DEFAULT)) {
      return shared;
    }
    RouteTable table = sharedByContext.getIfPresent(qualifier);
    return table != null ? table : sharedByContext.get(qualifier, c -> new RouteTable(maxRoutes, true, null));
  }

  /**
   * {@code topic}'s context (the strategy may ask the registry for it), its failures as the record's; a warm read
   * counts as a use of it when {@code counted} ({@link TopicIds#standsFor(String, TopicIds.TopicContext, boolean)}).
   */
  private TopicIds.TopicContext contextOf(String topic, int id, int length, boolean counted) {
    try {
      return ids.context(topic, counted);
    } catch (SchemaRegistryException e) {
      throw Failures.whileReading(Failures.record(topic, isKey, id, length), e);
    } catch (SerializationException e) {
      throw e;
    } catch (org.apache.kafka.common.errors.RetriableException e) {
      throw new RetriableSerdeException("cannot deserialize " + Failures.record(topic, isKey, id, length) + ": "
          + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new SchemaResolutionException("cannot deserialize " + Failures.record(topic, isKey, id, length)
          + ": the subject name strategy failed to name the topic's subject: " + e, e);
    }
  }

  /** Has the topics' contexts asked again on {@code executor}: for tests. */
  void refreshContextsOn(java.util.concurrent.Executor executor) {
    ids.refreshOn(executor);
  }

  /** Whether a route stands: always, unless it follows the latest version and its period is over. */
  private boolean current(ReadRoute route) {
    return !followsLatest || route.refreshAt() == Long.MAX_VALUE || System.nanoTime() - route.refreshAt() < 0;
  }

  /**
   * Builds the route for a schema id, or another key ({@code id} -1), fetching the writer schema unless
   * {@code known} has it, and caches it; {@code known} itself (asked again later) when its reader schema still
   * applies.
   */
  private ReadRoute build(String topic, RouteTable table, int id, Object key, ReadRoute known, int length,
      long told, TopicIds.TopicContext context) {
    String record = Failures.record(topic, isKey, key == null ? (Object) id : key, length);
    ReadRoute route;
    RouteTable into;
    try {
      route = router.route(topic, id, key, known, record, context).inGeneration(told);
      if (followsLatest && recheckNanos != Long.MAX_VALUE) {
        route = route.refreshingAt(System.nanoTime() + recheckNanos);
      }
      into = table.shared() && route.rules() != null ? ownOf(topic, context) : table;
    } catch (SchemaRegistryException e) {
      throw Failures.whileReading(record, e);
    } catch (MalformedPayloadException e) {
      throw onRecord(record, e); // the framing resolver's failure to give a writer schema
    } catch (SerializationException e) {
      throw e;
    } catch (org.apache.kafka.common.errors.RetriableException e) {
      throw new RetriableSerdeException("cannot deserialize " + record + ": " + e.getMessage(), e);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw new SchemaResolutionException("cannot deserialize " + record + ": cannot build a read plan for "
          + (key == null ? "schema id " + id : "it") + ": " + e, e instanceof StackOverflowError ? null : e);
    }
    if (key == null) {
      into.byId.put(id, route);
      if (into != table) {
        into.last = route;
      }
    } else {
      // outside the catches above: a framing resolver's key failing here is the resolver's (resolverPlan)
      into.byKey.put(key, route);
    }
    return route;
  }

  /**
   * The route for a schema GUID (Confluent 8), an Apicurio id or a {@link FramingResolver}'s key: cached like
   * ids, never asked again once known.
   */
  private ReadRoute keyedPlan(String topic, Object key, int length) {
    long told = changes.get();
    // A key names one schema in the whole registry: the topic's context matters to its own routes only (following
    // the latest version, or running rules, as only a GUID's may), which are of its context.
    TopicIds.TopicContext context = contextual && shared == null ? contextOf(scratch.get(), topic, -1, length) : null;
    RouteTable table = table(topic, told, context, true);
    ReadRoute known = standing(table.byKey.getIfPresent(key), told);
    if (known != null && current(known)) {
      return known;
    }
    if (contextual && context == null && key instanceof UUID) {
      context = contextOf(scratch.get(), topic, -1, length);
    }
    RouteTable own = table.shared() && (context != null || !contextual) ? ownIfPresent(topic, context) : null;
    ReadRoute ruled = own == null ? null : standing(own.byKey.getIfPresent(key), told);
    if (ruled != null) {
      return ruled;
    }
    return build(topic, table, -1, key, known, length, told, context);
  }

  private static String describe(Object key) {
    return Failures.describe(key);
  }

  /** The owner of the topics' contexts, for tests. */
  TopicIds topicIds() {
    return ids;
  }

  /**
   * Topics with a route table of their own, topics whose schema context is kept, and contexts other than the default
   * one with a shared route table: for tests of the bounds.
   */
  long[] cachedTopics() {
    sharedByContext.cleanUp();
    return new long[] {byTopic.size(), ids.size(), sharedByContext.estimatedSize()};
  }

  /** Releases the {@link FramingResolver}, if any, and stops listening to the client. */
  @Override
  public void close() {
    rules.close();
    ids.close();
    try {
      changeListener.close();
    } catch (Exception e) {
      // the client's own removal: nothing of the record path depends on it
    }
    framing.close();
  }

}
