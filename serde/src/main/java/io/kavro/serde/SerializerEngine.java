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
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

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
  private final int useSchemaId;
  private final boolean idCompatibilityStrict;
  private final Map<String, String> latestWithMetadata;
  private final boolean latestCompatibilityStrict;
  private final boolean idInHeader;
  private final String idHeaderName;
  private final WritePlanner planner;
  private final Cache<Schema, SchemaWriters> writers;
  private final ThreadLocal<Buffers> buffers = ThreadLocal.withInitial(Buffers::new);

  /**
   * Where the id (and writer schema) of a datum's schema comes from, in Confluent's order of precedence:
   * auto-registration first, then a fixed id, then the latest version with metadata, then the latest version,
   * else a lookup of the datum's own schema.
   */
  enum WriterSchemaSource {
    REGISTER, SCHEMA_ID, LATEST_WITH_METADATA, LATEST, LOOKUP;

    static WriterSchemaSource of(AvroSerdeConfig config) {
      if (config.autoRegisterSchemas()) {
        return REGISTER;
      }
      if (config.useSchemaId() >= 0) {
        return SCHEMA_ID;
      }
      if (!config.latestWithMetadata().isEmpty()) {
        return LATEST_WITH_METADATA;
      }
      return config.useLatestVersion() ? LATEST : LOOKUP;
    }

    /** Whether the target can change while the serializer lives: asked of the (caching) client per record. */
    boolean followsLatest() {
      return this == LATEST || this == LATEST_WITH_METADATA;
    }
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
  private record Target(String subject, int id, WritePlanner.Projection projection, byte[] idHeader) {
    Target(String subject, int id, WritePlanner.Projection projection) {
      this(subject, id, projection, null);
    }
  }

  SerializerEngine(SchemaRegistryClient client, AvroSerdeConfig config) {
    this.client = client;
    this.isKey = config.isKey();
    this.subjects = config.subjectNameStrategy();
    this.source = WriterSchemaSource.of(config);
    this.useSchemaId = config.useSchemaId();
    this.idCompatibilityStrict = config.idCompatibilityStrict();
    this.latestWithMetadata = config.latestWithMetadata();
    this.latestCompatibilityStrict = config.latestCompatibilityStrict();
    this.idInHeader = config.schemaIdInHeader();
    this.idHeaderName = isKey ? WireFormat.KEY_SCHEMA_ID_HEADER : WireFormat.VALUE_SCHEMA_ID_HEADER;
    this.planner = new WritePlanner(config);
    this.writers = Caffeine.newBuilder().maximumSize(config.maxSchemasPerSubject()).build();
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
    if (datum == null) {
      return null;
    }
    if (idInHeader && headers == null) {
      throw new SerializationException("cannot serialize " + Failures.record(topic, isKey, -1, -1) + ": "
          + (isKey ? "key" : "value") + ".schema.id.serializer=HeaderSchemaIdSerializer writes the schema id in "
          + "the record's headers, and none were given: call serialize(topic, headers, data)");
    }
    SchemaWriters entry = writers.getIfPresent(schema);
    if (entry == null) {
      entry = plan(topic, datum, schema);
    }
    Target target = entry.byTopic.get(topic);
    if (target == null || source.followsLatest()) {
      target = resolve(topic, entry, target, datum);
    }
    // Avro's writers take bytes as a ByteBuffer only.
    byte[] payload = write(topic, entry, target, datum instanceof byte[] bytes ? java.nio.ByteBuffer.wrap(bytes) : datum);
    if (target.idHeader() != null) {
      addIdHeader(headers, target.idHeader());
    }
    return payload;
  }

  /** As Confluent's HeaderSchemaIdSerializer: added unless the last such header already holds it. */
  private void addIdHeader(Headers headers, byte[] idHeader) {
    Header existing = headers.lastHeader(idHeaderName);
    if (existing == null || !java.util.Arrays.equals(existing.value(), idHeader)) {
      headers.add(idHeaderName, idHeader.clone());
    }
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

  /** The registry step, as {@link WriterSchemaSource} says; cached per (schema, topic). */
  private Target resolve(String topic, SchemaWriters entry, Target known, Object datum) {
    WritePlanner.WritePlan plan = entry.plan;
    String subject = known != null ? known.subject() : subjects.subjectName(topic, isKey, plan.schema());
    String record = Failures.record(topic, isKey, -1, -1);
    Target target;
    try {
      switch (source) {
        case REGISTER -> target = new Target(subject, client.register(subject, plan.registered()), null);
        case LOOKUP -> target = new Target(subject, client.lookup(subject, plan.registered()).id(), null);
        case SCHEMA_ID -> target = new Target(subject, useSchemaId, projection(record, plan, datum,
            client.schemaById(useSchemaId), idCompatibilityStrict,
            "the schema of id " + useSchemaId + " (use.schema.id), as id.compatibility.strict=true requires"));
        default -> {
          boolean withMetadata = source == WriterSchemaSource.LATEST_WITH_METADATA;
          SubjectVersion latest = withMetadata ? client.latestWithMetadata(subject, latestWithMetadata)
              : client.latestVersion(subject);
          if (known != null && known.id() == latest.id()) {
            return known;
          }
          target = new Target(subject, latest.id(), projection(record, plan, datum, latest.schema(),
              !withMetadata && latestCompatibilityStrict, "the latest schema of subject '" + subject + "' (version "
                  + latest.version() + ", id " + latest.id() + "), as latest.compatibility.strict=true requires"));
        }
      }
      if (idInHeader) {
        UUID guid = client.guidOf(target.id());
        target = new Target(subject, target.id(), target.projection(),
            guid != null ? WireFormat.guidPrefix(guid) : WireFormat.idPrefix(target.id()));
      }
    } catch (SchemaRegistryException e) {
      throw Failures.whileWriting(record, subject, e);
    }
    entry.byTopic.put(topic, target);
    return target;
  }

  private WritePlanner.Projection projection(String record, WritePlanner.WritePlan plan, Object datum,
      Schema target, boolean strict, String what) {
    try {
      return planner.projection(plan, datum, target, strict);
    } catch (IllegalArgumentException e) {
      throw new SerializationException("cannot serialize " + record + ": the datum's schema "
          + plan.schema().getFullName() + " does not fit " + what + ": " + e.getMessage());
    }
  }

  private byte[] write(String topic, SchemaWriters entry, Target target, Object datum) {
    Buffers buffers = this.buffers.get();
    ByteSink sink = buffers.sink;
    sink.reset();
    if (target.idHeader() == null) {
      WireFormat.writeHeader(sink.buffer(), sink.reserve(WireFormat.HEADER_SIZE), target.id());
    }
    try {
      WritePlanner.WritePlan plan = entry.plan;
      if (target.projection() == null && plan.encoder() != null) {
        plan.encoder().encode(datum, sink);
      } else if (target.projection() == null) {
        encode(buffers, sink, plan.writer(), datum);
      } else if (target.projection().reader() == null) {
        encode(buffers, sink, target.projection().writer(), datum);
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
