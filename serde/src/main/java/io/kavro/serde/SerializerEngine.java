package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.serde.internal.avro.BoundedBinaryDecoder;
import io.kavro.serde.internal.avro.ByteSink;
import io.kavro.serde.subject.SubjectNameStrategy;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The serializer's immutable engine, built once by {@code configure()}: the per-record path (caching, the
 * registry step, framing, encoding), with every plan-time decision left to its {@link WritePlanner}.
 * Thread-safe.
 *
 * <p>Per record, once warm: one bounded-cache lookup by the datum's {@link Schema} instance (its hash is
 * cached by Avro and equality starts with {@code ==}), one map lookup by topic, then the encoding into a
 * per-thread reused buffer. The returned array is the only allocation of the framing; no registry call.
 */
final class SerializerEngine {
  private final SchemaRegistryClient client;
  private final boolean isKey;
  private final SubjectNameStrategy subjects;
  private final WriterSchemaSource source;
  private final WritePlanner planner;
  private final Cache<Schema, SchemaWriters> writers;
  private final ThreadLocal<Buffers> buffers = ThreadLocal.withInitial(Buffers::new);

  /** Where the id (and writer schema) of a datum's schema comes from. */
  enum WriterSchemaSource {
    REGISTER, LOOKUP, LATEST
  }

  /** Per thread: the output buffer, the encoder aimed at it, and a scratch pair for projections. */
  private static final class Buffers {
    final ByteSink sink = new ByteSink();
    final ByteSink scratch = new ByteSink();
    final BoundedBinaryDecoder decoder = new BoundedBinaryDecoder();
    BinaryEncoder encoder;
  }

  /** Everything about one datum schema: its write plan, and the resolved target per topic. */
  private static final class SchemaWriters {
    final WritePlanner.WritePlan plan;
    final Map<String, Target> byTopic = new ConcurrentHashMap<>();

    SchemaWriters(WritePlanner.WritePlan plan) {
      this.plan = plan;
    }
  }

  /**
   * Where a datum of one schema goes on one topic: the subject, the id in the header, and, when the
   * registered writer schema differs from the datum's (use.latest.version), how to project onto it.
   */
  private record Target(String subject, int id, WritePlanner.Projection projection) {}

  SerializerEngine(SchemaRegistryClient client, AvroSerdeConfig config) {
    this.client = client;
    this.isKey = config.isKey();
    this.subjects = config.subjectNameStrategy();
    this.source = config.useLatestVersion() ? WriterSchemaSource.LATEST
        : config.autoRegisterSchemas() ? WriterSchemaSource.REGISTER : WriterSchemaSource.LOOKUP;
    this.planner = new WritePlanner(config);
    this.writers = Caffeine.newBuilder().maximumSize(config.maxSchemasPerSubject()).build();
  }

  byte[] serialize(String topic, Object datum) {
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
    return serialize(topic, datum, schema);
  }

  /** Serializes a datum with a schema the caller chose; the datum must be valid for it. */
  byte[] serialize(String topic, Object datum, Schema schema) {
    if (datum == null) {
      return null;
    }
    SchemaWriters entry = writers.getIfPresent(schema);
    if (entry == null) {
      entry = plan(topic, datum, schema);
    }
    Target target = entry.byTopic.get(topic);
    if (target == null || source == WriterSchemaSource.LATEST) {
      target = resolve(topic, entry, target);
    }
    // Avro's writers take bytes as a ByteBuffer only.
    return write(topic, entry, target, datum instanceof byte[] bytes ? java.nio.ByteBuffer.wrap(bytes) : datum);
  }

  private SchemaWriters plan(String topic, Object datum, Schema schema) {
    try {
      return writers.get(schema, s -> new SchemaWriters(planner.plan(s, datum)));
    } catch (RuntimeException e) {
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, -1, -1)
          + ": cannot build a writer for schema " + schema.getFullName() + ": " + e, e);
    }
  }

  /** Datum schemas with a cached writer, for tests of the cache bound. */
  long cachedSchemas() {
    writers.cleanUp();
    return writers.estimatedSize();
  }

  /** The registry step: register, look up, or take the latest; cached per (schema, topic). */
  private Target resolve(String topic, SchemaWriters entry, Target known) {
    Schema schema = entry.plan.schema();
    String subject = known != null ? known.subject() : subjects.subjectName(topic, isKey, schema);
    String record = Failures.record(topic, isKey, -1, -1);
    Target target;
    try {
      switch (source) {
        case REGISTER -> target = new Target(subject, client.register(subject, schema), null);
        case LOOKUP -> target = new Target(subject, client.lookup(subject, schema).id(), null);
        default -> {
          SubjectVersion latest = client.latestVersion(subject);
          if (known != null && known.id() == latest.id()) {
            return known;
          }
          target = new Target(subject, latest.id(), projection(record, subject, schema, latest));
        }
      }
    } catch (SchemaRegistryException e) {
      throw Failures.whileWriting(record, subject, e);
    }
    entry.byTopic.put(topic, target);
    return target;
  }

  private WritePlanner.Projection projection(String record, String subject, Schema datumSchema,
      SubjectVersion latest) {
    try {
      return planner.projection(datumSchema, latest.schema());
    } catch (IllegalArgumentException e) {
      throw new SerializationException("cannot serialize " + record + ": the datum's schema "
          + datumSchema.getFullName() + " does not fit the latest schema of subject '" + subject + "' (version "
          + latest.version() + ", id " + latest.id() + "), as use.latest.version requires: " + e.getMessage());
    }
  }

  private byte[] write(String topic, SchemaWriters entry, Target target, Object datum) {
    Buffers buffers = this.buffers.get();
    ByteSink sink = buffers.sink;
    sink.reset();
    WireFormat.writeHeader(sink.buffer(), sink.reserve(WireFormat.HEADER_SIZE), target.id());
    try {
      WritePlanner.WritePlan plan = entry.plan;
      if (target.projection() == null && plan.encoder() != null) {
        plan.encoder().encode(datum, sink);
      } else if (target.projection() == null) {
        encode(buffers, sink, plan.writer(), datum);
      } else {
        ByteSink scratch = buffers.scratch;
        scratch.reset();
        encode(buffers, scratch, plan.writer(), datum);
        Object projected = target.projection().reader()
            .read(null, buffers.decoder.reset(scratch.buffer(), 0, scratch.size()));
        encode(buffers, sink, target.projection().writer(), projected);
      }
    } catch (IOException | RuntimeException e) {
      this.buffers.remove(); // a failed write leaves no trace: Avro's encoder may hold part of the datum
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, target.id(), -1)
          + ": the " + datum.getClass().getTypeName() + " does not match its schema " + entry.plan.schema().getFullName()
          + ": " + e, e);
    } catch (StackOverflowError e) {
      this.buffers.remove();
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, target.id(), -1)
          + ": the " + datum.getClass().getTypeName() + " nests deeper than this thread's stack can write", null);
    }
    return sink.toByteArray();
  }

  private static void encode(Buffers buffers, ByteSink sink, DatumWriter<Object> writer, Object datum)
      throws IOException {
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(sink, buffers.encoder);
    buffers.encoder = encoder;
    writer.write(datum, encoder);
    encoder.flush();
  }
}
