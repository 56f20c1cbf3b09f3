package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.serde.subject.StandingSubject;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Headers;

/**
 * The serializer's immutable engine, built once by {@code configure()}: the per-record path (the route lookup,
 * framing, encoding and error mapping), with every plan-time decision left to its {@link WritePlanner} (how a
 * datum schema is written) and {@link WriteRouter} (where it goes on a topic). Thread-safe.
 *
 * <p>Per record, once warm: one bounded-cache lookup by the datum's {@link Schema} instance (its hash is
 * cached by Avro and equality starts with {@code ==}), one map lookup by topic, then the encoding into a
 * per-thread reused buffer. The returned array is the only allocation of the framing; no registry call.
 */
final class SerializerEngine implements AutoCloseable {
  private final boolean isKey;
  private final boolean idInHeader;
  private final WritePlanner planner;
  private final WriteRouter router;
  private final RuleEngine rules;
  /** Inline validation rules ({@code validation.rules.execution}), or null when disabled. */
  private final InlineValidation inline;
  private final QuietCache<Schema, SchemaRoutes> routes;
  /** Bound on the topics of one datum schema's routes. */
  private final int maxTopics;
  private final boolean followsLatest;
  /** How long a route that follows the latest version stands: see {@link DeserializerEngine#recheckNanos}. */
  private final long recheckNanos;
  /** Changes the client or the subject name strategy told of: every route is asked again when it moves. */
  private final AtomicLong changes = new AtomicLong();
  private volatile long changesSeen;
  private final AutoCloseable changeListener;
  private final AutoCloseable subjectsListener;
  /** The clock of {@link WriteRouter.WriteRoute#refreshAt}: {@link System#nanoTime()}, but in tests. */
  private final LongSupplier nanoClock;
  private final ThreadLocal<Buffers> buffers = ThreadLocal.withInitial(Buffers::new);

  /**
   * Per thread: the output buffer, the encoder aimed at it, and a scratch pair for projections; and whether a write
   * of this thread holds them.
   */
  private static final class Buffers {
    /**
     * Set while a write of this thread fills them. A write that starts meanwhile on the same thread (a value's own
     * code, an accessor or a conversion, serializing with this serializer while it is written) gets fresh buffers:
     * these would lose the outer write's framing and first fields under the nested one's, and frame the record with
     * the nested record's schema id.
     */
    boolean writing;
    final ByteSink sink = new ByteSink();
    final ByteSink scratch = new ByteSink();
    final BoundedBinaryDecoder decoder = new BoundedBinaryDecoder();
    final SinkEncoder sinkEncoder = new SinkEncoder(sink);
    final SinkEncoder scratchEncoder = new SinkEncoder(scratch);
    BinaryEncoder encoder;
  }

  /**
   * Everything about one datum schema: its write plan, and its route per topic, bounded by {@code
   * max.schemas.per.subject} topics (an evicted topic's route is asked of the registry's client again).
   */
  private static final class SchemaRoutes {
    final WritePlanner.WritePlan plan;
    final QuietCache<String, WriteRouter.WriteRoute> byTopic;

    SchemaRoutes(WritePlanner.WritePlan plan, int maxTopics) {
      this.plan = plan;
      this.byTopic = new QuietCache<>(maxTopics);
    }
  }

  /** @param ruleMetrics where its rules are counted ({@code rule.metrics.enable}) */
  SerializerEngine(SchemaRegistryClient client, AvroSerdeConfig config, RuleMetrics ruleMetrics) {
    this(client, config, ruleMetrics, System::nanoTime);
  }

  /** As {@link #SerializerEngine(SchemaRegistryClient, AvroSerdeConfig, RuleMetrics)}, timing routes by a clock. */
  SerializerEngine(SchemaRegistryClient client, AvroSerdeConfig config, RuleMetrics ruleMetrics,
      LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
    this.isKey = config.isKey();
    this.idInHeader = config.schemaIdInHeader();
    this.planner = new WritePlanner(config);
    this.inline = config.inlineValidation(); // before the rules: a refused validator leaves no executor open
    this.rules = new RuleEngine(config.ruleSettings(), client, ruleMetrics);
    this.router = new WriteRouter(client, config, planner, rules, inline);
    this.routes = new QuietCache<>(config.maxSchemasPerSubject());
    this.maxTopics = config.maxSchemasPerSubject();
    this.followsLatest = router.followsLatest();
    this.recheckNanos = DeserializerEngine.recheckNanos(config);
    this.changeListener = client.onChange(changes::incrementAndGet);
    this.subjectsListener = router.onSubjectsChange(changes::incrementAndGet);
  }

  /** Stops listening to the client, and the subject name strategy's askings in the background. */
  @Override
  public void close() {
    router.close();
    rules.close();
    try {
      if (inline != null) {
        inline.close();
      }
    } catch (RuntimeException e) {
      // the validator's own release: nothing of the record path depends on it
    }
    try {
      changeListener.close();
      subjectsListener.close();
    } catch (Exception e) {
      // the client's or the strategy's own removal: nothing of the record path depends on it
    }
  }

  /**
   * Serializes a datum with its own schema. {@code headers} receive the schema id with
   * {@code HeaderSchemaIdSerializer}; they may be {@code null} otherwise.
   */
  byte[] serialize(String topic, Headers headers, Object datum) {
    if (datum == null) {
      return null;
    }
    Schema schema;
    try {
      schema = planner.schemaOf(datum);
    } catch (IllegalArgumentException | org.apache.avro.AvroRuntimeException e) {
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, -1, -1) + ": "
          + e.getMessage(), e);
    }
    return serialize(topic, headers, datum, schema);
  }

  /** Serializes a datum with a schema the caller chose; the datum must be valid for it. */
  byte[] serialize(String topic, Headers headers, Object datum, Schema schema) {
    return serialize(topic, headers, datum, schema, null);
  }

  /**
   * Serializes a datum whose body {@code encoder} writes, as one value of {@code schema}: planned as generic data
   * whatever the datum's class (the caller writes it, not Avro's writers), routed, framed and ruled as
   * {@link #serialize(String, Headers, Object, Schema)} does. An unchecked exception of the encoder comes out as it
   * is. With a {@code null} encoder, the datum is written by its plan, as that method does.
   */
  byte[] serialize(String topic, Headers headers, Object datum, Schema schema, DatumEncoder encoder) {
    if (datum == null) {
      return null;
    }
    if (idInHeader && headers == null) {
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, -1, -1) + ": "
          + (isKey ? "key" : "value") + ".schema.id.serializer=HeaderSchemaIdSerializer writes the schema id in "
          + "the record's headers, and none were given: call serialize(topic, headers, data)");
    }
    long told = changes.get();
    if (told != changesSeen) {
      changesSeen = told;
      routes.values().forEach(routed -> routed.byTopic.invalidateAll());
    }
    SchemaRoutes entry = routes.getIfPresent(schema);
    if (entry == null) {
      entry = encoder == null ? plan(topic, datum, schema) : plan(topic, schema);
    }
    WriteRouter.WriteRoute route = entry.byTopic.getIfPresent(TopicKey.of(topic));
    if (route == null || route.refreshAt() != Long.MAX_VALUE && nanoClock.getAsLong() - route.refreshAt() >= 0) {
      route = route(topic, entry, route, datum);
    }
    // Avro's writers take bytes as a ByteBuffer only.
    byte[] payload = encoder != null ? writeWith(topic, entry.plan, route, datum, encoder)
        : write(topic, entry.plan, route, datum instanceof byte[] bytes ? java.nio.ByteBuffer.wrap(bytes) : datum);
    if (route.hasRules()) {
      payload = ruled(topic, headers, route, payload);
    }
    route.placement().addHeader(headers);
    return payload;
  }

  /**
   * The body written by the caller's encoder into the per-thread buffer. A route that projects onto another schema
   * has it written into the scratch buffer first and read back as generic data of the datum's schema (with
   * schema resolution when the route has a reader), then written as the route writes: correct, only slower there.
   */
  private byte[] writeWith(String topic, WritePlanner.WritePlan plan, WriteRouter.WriteRoute route, Object datum,
      DatumEncoder encoder) {
    Buffers buffers = writeBuffers();
    ByteSink sink = buffers.sink;
    sink.reset();
    int prefix = route.placement().prefixSize();
    if (prefix > 0) {
      int at = sink.reserve(prefix);
      route.placement().writePrefix(sink.buffer(), at);
    }
    buffers.writing = true;
    try {
      WritePlanner.Projection projection = route.projection();
      if (projection == null) {
        encoder.encode(datum, buffers.sinkEncoder);
      } else {
        ByteSink scratch = buffers.scratch;
        scratch.reset();
        encoder.encode(datum, buffers.scratchEncoder);
        org.apache.avro.io.DatumReader<Object> reader = projection.datumReader() != null ? projection.datumReader()
            : planner.genericReader(plan.schema());
        Object read = reader.read(null, buffers.decoder.reset(scratch.buffer(), 0, scratch.size()));
        encode(buffers, sink, projection.datumWriter(), read);
      }
    } catch (RuntimeException e) {
      this.buffers.remove(); // a failed write leaves no trace
      throw e;
    } catch (IOException e) {
      this.buffers.remove();
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, route.id(), -1)
          + ": the " + datum.getClass().getTypeName() + " does not match its schema " + plan.schema().getFullName()
          + ": " + e, e);
    } catch (StackOverflowError e) {
      this.buffers.remove();
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, route.id(), -1)
          + ": the " + datum.getClass().getTypeName() + " nests deeper than this thread's stack can write", null);
    } catch (Error e) {
      this.buffers.remove(); // as it is (a class that fails to link: the deployment's), but without a trace
      throw e;
    } finally {
      buffers.writing = false;
    }
    return sink.toByteArray();
  }

  /** The payload after the rules of the route's version: kept out of {@link #serialize}, which stays small. */
  private byte[] ruled(String topic, Headers headers, WriteRouter.WriteRoute route, byte[] payload) {
    if (!route.rules().runs()) {
      route.rules().skipped();
      return payload;
    }
    try {
      return route.rules().apply(new io.kavro.serde.rules.RuleInput(topic, isKey, headers), payload,
          route.placement().prefixSize());
    } catch (SchemaRegistryException e) {
      throw Failures.whileWriting(Failures.record(topic, isKey, route.id(), -1), route.subject(), e);
    } catch (StackOverflowError e) {
      // The rules read the body back and may write it again, with more frames a level than the write itself.
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, route.id(), -1)
          + ": the datum, or what the rules made of it, nests deeper than this thread's stack can run the data "
          + "contract rules of subject '"
          + route.subject() + "'", null);
    }
  }

  private SchemaRoutes plan(String topic, Object datum, Schema schema) {
    try {
      return routes.get(schema, s -> new SchemaRoutes(planner.plan(s, datum), maxTopics));
    } catch (RuntimeException e) {
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, -1, -1)
          + ": cannot build a write plan for schema " + schema.getFullName() + ": " + e, e);
    }
  }

  /** The plan of datums that a caller's encoder writes: generic data of {@code schema}, never reflection. */
  private SchemaRoutes plan(String topic, Schema schema) {
    try {
      return routes.get(schema, s -> new SchemaRoutes(planner.planGeneric(s), maxTopics));
    } catch (RuntimeException e) {
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, -1, -1)
          + ": cannot build a write plan for schema " + schema.getFullName() + ": " + e, e);
    }
  }

  /** Datum schemas with a cached writer, for tests of the cache bound. */
  long cachedSchemas() {
    return routes.size();
  }

  /** The topics with a cached route of {@code schema}'s writer, for tests of the cache bound. */
  long cachedTopics(Schema schema) {
    SchemaRoutes entry = routes.getIfPresent(schema);
    return entry == null ? 0 : entry.byTopic.size();
  }

  /**
   * The route of a datum schema on a topic, from the registry; cached per (schema, topic). A route is asked again
   * when its subject's time is up (the subject name strategy's answer may move: {@code AssociatedNameStrategy}) or,
   * when it follows latest, when the latest is to be checked: its subject is asked again first, and a route whose
   * subject moved is made anew. The subject and how long it stands come from one answer of the strategy; when a
   * change was told while it was asked (the strategy's answer replaced meanwhile, another thread's route made with
   * the new one already), the route is kept to be asked again on the next record, never for its answer's time.
   */
  private WriteRouter.WriteRoute route(String topic, SchemaRoutes entry, WriteRouter.WriteRoute known, Object datum) {
    String record = Failures.record(topic, isKey, -1, -1);
    Schema schema = entry.plan.schema();
    long toldBefore = changes.get();
    String subject;
    long subjectStands;
    try {
      StandingSubject standing = router.subject(topic, schema);
      subject = standing.subject();
      subjectStands = standing.standsNanos();
    } catch (SchemaRegistryException e) {
      throw Failures.whileChoosingSubject("cannot serialize ", record, e);
    }
    WriteRouter.WriteRoute previous = known != null && known.subject().equals(subject) ? known : null;
    WriteRouter.WriteRoute route;
    if (previous != null && !followsLatest) {
      route = previous; // same subject, same registered id: nothing else to ask
    } else {
      try {
        route = router.route(subject, entry.plan, previous, datum, record);
      } catch (SchemaRegistryException e) {
        throw Failures.whileWriting(record, subject, e);
      }
    }
    long stands = Math.min(subjectStands, followsLatest ? recheckNanos : Long.MAX_VALUE);
    if (changes.get() != toldBefore) {
      stands = 0; // a change told meanwhile: this subject may be the old one
    }
    long refreshAt = stands == Long.MAX_VALUE ? Long.MAX_VALUE : nanoClock.getAsLong() + stands;
    if (route.refreshAt() != refreshAt) {
      route = route.refreshingAt(refreshAt);
    }
    String key = TopicKey.of(topic);
    entry.byTopic.put(key, route);
    if (changes.get() != toldBefore) {
      // A change told between the check above and the put: the thread that saw it may have cleared the routes
      // before this put landed. Read after the put, the count tells; this route is then not kept.
      entry.byTopic.remove(key, route);
    }
    return route;
  }

  private byte[] write(String topic, WritePlanner.WritePlan plan, WriteRouter.WriteRoute route, Object datum) {
    Buffers buffers = writeBuffers();
    ByteSink sink = buffers.sink;
    sink.reset();
    int prefix = route.placement().prefixSize();
    if (prefix > 0) {
      int at = sink.reserve(prefix);
      route.placement().writePrefix(sink.buffer(), at);
    }
    buffers.writing = true;
    try {
      WritePlanner.Projection projection = route.projection();
      if (projection == null && plan.encoder() != null) {
        plan.encoder().encode(datum, sink);
      } else if (projection == null) {
        encode(buffers, sink, plan.datumWriter(), datum);
      } else if (projection.datumReader() == null) {
        encode(buffers, sink, projection.datumWriter(), datum);
      } else {
        ByteSink scratch = buffers.scratch;
        scratch.reset();
        encode(buffers, scratch, plan.datumWriter(), datum);
        Object projected = projection.datumReader().read(null, buffers.decoder.reset(scratch.buffer(), 0, scratch.size()));
        encode(buffers, sink, projection.datumWriter(), projected);
      }
    } catch (IOException | RuntimeException e) {
      this.buffers.remove(); // a failed write leaves no trace: Avro's encoder may hold part of the datum
      throw mismatch(topic, plan, route, datum, e);
    } catch (StackOverflowError e) {
      this.buffers.remove();
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, route.id(), -1)
          + ": the " + datum.getClass().getTypeName() + " nests deeper than this thread's stack can write", null);
    } catch (Error e) {
      // Thrown on as it is (a class the datum's code uses that fails to link: the deployment's fault, which no
      // handler may skip as a bad record), but Avro's encoder may hold part of the datum: no trace of it is kept.
      this.buffers.remove();
      throw e;
    } finally {
      buffers.writing = false;
    }
    return sink.toByteArray();
  }

  /** This thread's buffers, or fresh ones for a write nested in another of this thread's ({@link Buffers#writing}). */
  private Buffers writeBuffers() {
    Buffers held = buffers.get();
    return held.writing ? new Buffers() : held;
  }

  /**
   * The failure of a datum that its writer refused, naming the value that does not fit, its path, the type expected
   * there and the value's class, as found by {@link WriteDiagnosis} now that the write failed (the encoders track no
   * path themselves); the writer's own exception where the diagnosis finds nothing. Values are not shown when the
   * route has rules, which may be there to encrypt them.
   */
  private SerializationException mismatch(String topic, WritePlanner.WritePlan plan, WriteRouter.WriteRoute route,
      Object datum, Exception e) {
    boolean showValues = !route.hasRules();
    String why = WriteDiagnosis.explain(plan.schema(), datum, plan.model(), showValues);
    // The writer's own message may quote the value (Avro's do): with rules, only its class and stack are kept.
    Throwable cause = showValues ? e : io.kavro.serde.rules.RuleException.withoutMessages(e);
    return new SerializationException("cannot serialize " + Failures.record(topic, isKey, route.id(), -1)
        + ": the " + datum.getClass().getTypeName() + " does not match its schema " + plan.schema().getFullName()
        + ": " + (why != null ? why : showValues ? e.toString() : e.getClass().getName()), cause);
  }

  private static void encode(Buffers buffers, ByteSink sink, DatumWriter<Object> writer, Object datum)
      throws IOException {
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(sink, buffers.encoder);
    buffers.encoder = encoder;
    writer.write(datum, encoder);
    encoder.flush();
  }
}
