package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.registry.ApicurioId;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.serde.ReadPlanner.ReadPlan;
import io.kavro.serde.internal.avro.BoundedBinaryDecoder;
import io.kavro.serde.internal.avro.JavaRecordConstructionException;
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
final class DeserializerEngine {
  private final boolean isKey;
  private final boolean followsLatest;
  private final ReadRouter router;
  private final Cache<Integer, ReadPlan> plans;
  /** Plans by any other key: a GUID, an Apicurio id, a {@link FramingResolver}'s key. */
  private final Cache<Object, ReadPlan> keyedPlans;
  /** The client's count of replaced schemas when the plans were last checked against it. */
  private volatile long replacedSeen;
  private final SchemaIdSource idSource;
  /** Apicurio's id headers, read unless the prefix only is ({@code PrefixSchemaIdDeserializer}); or {@code null}. */
  private final ApicurioHeaders apicurioHeaders;
  private final SchemaIdPrefix idPrefix;
  private final FramingResolver resolver;
  private final boolean failOnTrailingData;
  private volatile ReadPlan last;
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);

  /** Per thread: the decoder, and a copy buffer for direct (off-heap) payloads. */
  private static final class Scratch {
    final BoundedBinaryDecoder decoder = new BoundedBinaryDecoder();
    byte[] copy = new byte[0];
  }

  DeserializerEngine(SchemaRegistryClient client, AvroSerdeConfig config) {
    this.isKey = config.isKey();
    this.resolver = ForeignFramings.resolver(config);
    this.router = new ReadRouter(client, config, resolver);
    this.followsLatest = router.followsLatest();
    this.plans = Caffeine.newBuilder().maximumSize(config.maxSchemasPerSubject()).build();
    this.keyedPlans = Caffeine.newBuilder().maximumSize(config.maxSchemasPerSubject()).build();
    this.idSource = SchemaIdSource.of(config);
    this.apicurioHeaders = config.schemaIdFromHeader() ? new ApicurioHeaders(isKey) : null;
    this.idPrefix = config.schemaIdPrefix();
    this.failOnTrailingData = config.failOnTrailingData();
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
    return deserialize(topic, headers, bytesOf(payload), offsetOf(payload), payload.remaining());
  }

  private Object deserialize(String topic, Headers headers, byte[] payload, int offset, int length) {
    return decode(topic, headers, payload, offset, length, false);
  }

  /** Like {@link #deserialize(String, Headers, ByteBuffer)}, with the schema id and the schema read as. */
  AvroValue deserializeWithSchema(String topic, Headers headers, ByteBuffer payload) {
    if (payload == null) {
      return null;
    }
    return (AvroValue) decode(topic, headers, bytesOf(payload), offsetOf(payload), payload.remaining(), true);
  }

  /**
   * Finds the writer schema's plan, first match wins: the schema id header (Confluent's); Apicurio's id headers;
   * the payload's prefix ({@code 0x00} and the configured id, or {@code 0x01} and a GUID); the
   * {@link FramingResolver}. Then decodes the body after the prefix.
   */
  private Object decode(String topic, Headers headers, byte[] payload, int offset, int length, boolean withSchema) {
    ReadPlan plan;
    int prefix = 0;
    byte[] idHeader = idSource.header(headers);
    ApicurioId headerId;
    if (idHeader != null) {
      plan = planOfHeader(topic, idHeader, length);
    } else if (apicurioHeaders != null && headers != null
        && (headerId = apicurioHeaders.id(headers, topic, length)) != null) {
      plan = keyedPlan(topic, headerId, length);
    } else if (length > 0 && payload[offset] != WireFormat.MAGIC_BYTE && payload[offset] != WireFormat.MAGIC_BYTE_GUID
        && (resolver != null || payload[offset] == ForeignFramings.GLUE_MAGIC_BYTE)) {
      FramingResolver.Framed framed = ForeignFramings.locate(resolver, topic, isKey, headers, payload, offset, length);
      plan = keyedPlan(topic, new ResolverKey(framed.key()), length);
      prefix = framed.prefixSize();
    } else {
      plan = plan(topic, payload, offset, length);
      prefix = payload[offset] == WireFormat.MAGIC_BYTE_GUID ? WireFormat.GUID_HEADER_SIZE : idPrefix.size();
    }
    Object datum = read(topic, plan, payload, offset + prefix, length - prefix, length);
    return withSchema ? new AvroValue(plan.id(), plan.readerSchema(), datum) : datum;
  }

  /** The read plan for the schema id or GUID in a header value: {@code [0x00][id]} or {@code [0x01][guid]}. */
  private ReadPlan planOfHeader(String topic, byte[] value, int length) {
    if (value.length >= WireFormat.HEADER_SIZE && value[0] == WireFormat.MAGIC_BYTE) {
      return plan(topic, WireFormat.schemaId(value, 0, value.length), length);
    }
    if (value.length >= WireFormat.GUID_HEADER_SIZE && value[0] == WireFormat.MAGIC_BYTE_GUID) {
      return keyedPlan(topic, WireFormat.guid(value, 0, value.length), length);
    }
    throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, -1, length)
        + ": its " + idSource.headerName() + " header holds " + value.length + " byte(s)"
        + (value.length > 0 ? String.format(" starting 0x%02x", value[0] & 0xff) : "")
        + ", not a schema id (0x00 and 4 bytes) or GUID (0x01 and 16 bytes)", null);
  }

  /**
   * The array holding the payload's bytes: its backing array, or for a direct (off-heap) payload a copy in
   * this thread's buffer. The bytes start there at {@link #offsetOf}.
   */
  private byte[] bytesOf(ByteBuffer payload) {
    if (payload.hasArray()) {
      return payload.array();
    }
    Scratch scratch = this.scratch.get();
    int length = payload.remaining();
    if (scratch.copy.length < length) {
      scratch.copy = new byte[length];
    }
    payload.get(payload.position(), scratch.copy, 0, length);
    return scratch.copy;
  }

  /** Where the payload's bytes start in {@link #bytesOf}'s array. */
  private static int offsetOf(ByteBuffer payload) {
    return payload.hasArray() ? payload.arrayOffset() + payload.position() : 0;
  }

  /** The read plan for the payload's schema id or GUID; checks the prefix. */
  private ReadPlan plan(String topic, byte[] payload, int offset, int length) {
    int id;
    try {
      if (length > 0 && payload[offset] == WireFormat.MAGIC_BYTE_GUID) {
        return keyedPlan(topic, WireFormat.guid(payload, offset, length), length);
      }
      if (idPrefix != SchemaIdPrefix.CONFLUENT) {
        return keyedPlan(topic, apicurioPrefix(payload, offset, length), length);
      }
      id = WireFormat.schemaId(payload, offset, length);
    } catch (MalformedPayloadException e) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, -1, length)
          + ": " + e.getMessage(), null);
    }
    return plan(topic, id, length);
  }

  /** The Apicurio id of a {@code 0x00} prefix of the configured form. */
  private ApicurioId apicurioPrefix(byte[] payload, int offset, int length) {
    if (length < idPrefix.size()) {
      throw new MalformedPayloadException("payload of " + length + " byte(s) is shorter than the " + idPrefix.size()
          + "-byte header (" + AvroSerdeConfig.VALUE_SCHEMA_ID_PREFIX_CONFIG.substring("value.".length()) + "="
          + idPrefix.configValue() + ")", null);
    }
    if (payload[offset] != WireFormat.MAGIC_BYTE) {
      WireFormat.schemaId(payload, offset, length); // throws the unknown magic byte's message
    }
    return idPrefix.apicurioId(payload, offset);
  }

  /** Decodes the Avro body of a payload of {@code length} bytes, which must be read to its last byte. */
  private Object read(String topic, ReadPlan plan, byte[] payload, int bodyOffset, int bodyLength, int length) {
    BoundedBinaryDecoder decoder = scratch.get().decoder.reset(payload, bodyOffset, bodyLength);
    Object datum;
    try {
      datum = plan.read(decoder);
    } catch (JavaRecordConstructionException e) {
      // Valid Avro that the application's class refuses: not a corrupt record.
      throw new SerializationException("cannot deserialize " + Failures.record(topic, isKey, plan.id(), length)
          + ": " + e.getMessage(), e.getCause());
    } catch (IOException | RuntimeException | LinkageError e) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, plan.id(), length)
          + ": truncated or corrupt Avro body for writer schema " + plan.writerSchema().getFullName() + ": " + e, e);
    } catch (StackOverflowError e) {
      // A recursive schema lets a small payload nest deeper than any stack: a bad record, not a dead consumer.
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, plan.id(), length)
          + ": the Avro body for writer schema " + plan.writerSchema().getFullName()
          + " nests deeper than this thread's stack can read", null);
    }
    if (failOnTrailingData && !decoder.isEnd()) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, plan.id(), length)
          + ": " + decoder.remaining() + " trailing byte(s) after the datum", null);
    }
    return datum;
  }

  private ReadPlan plan(String topic, int id, int length) {
    forgetPlansOfReplacedSchemas();
    // Most topics carry one schema: the last plan answers without boxing the id for the cache lookup.
    ReadPlan last = this.last;
    if (last != null && last.id() == id && !followsLatest) {
      return last;
    }
    ReadPlan known = plans.getIfPresent(id);
    if (known != null && !followsLatest) {
      this.last = known;
      return known;
    }
    return build(topic, id, null, known, length);
  }

  /**
   * Builds the plan for a schema id, or another key ({@code id} -1: see {@link #keyedPlans}), fetching the writer
   * schema unless {@code known} has it, and caches it; {@code known} itself when its reader schema still applies.
   */
  private ReadPlan build(String topic, int id, Object key, ReadPlan known, int length) {
    String record = Failures.record(topic, isKey, id, length) + (key == null ? "" : " (" + describe(key) + ")");
    try {
      ReadPlan plan = router.route(topic, id, key, known, record);
      if (plan == known) {
        return known;
      }
      if (key == null) {
        plans.put(id, plan);
        this.last = plan;
      } else {
        keyedPlans.put(key, plan);
      }
      return plan;
    } catch (SchemaRegistryException e) {
      throw Failures.whileReading(record, e);
    } catch (SerializationException e) {
      throw e;
    } catch (org.apache.kafka.common.errors.RetriableException e) {
      throw new RetriableSerdeException("cannot deserialize " + record + ": " + e.getMessage(), e);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw new SchemaResolutionException("cannot deserialize " + record + ": cannot build a read plan for "
          + (key == null ? "schema id " + id : "it") + ": " + e, e instanceof StackOverflowError ? null : e);
    }
  }

  /**
   * Drops every plan once the client has replaced a schema it had answered (one served from disk during an
   * outage, answered otherwise by the registry): a plan outlives no schema it was built from.
   */
  private void forgetPlansOfReplacedSchemas() {
    long replaced = router.replacedSchemas();
    if (replaced != replacedSeen) {
      plans.invalidateAll();
      keyedPlans.invalidateAll();
      last = null;
      replacedSeen = replaced;
    }
  }

  /**
   * The read plan for a schema GUID (Confluent 8), an Apicurio id or a {@link FramingResolver}'s key: cached like
   * ids, never asked again once known.
   */
  private ReadPlan keyedPlan(String topic, Object key, int length) {
    forgetPlansOfReplacedSchemas();
    ReadPlan known = keyedPlans.getIfPresent(key);
    if (known != null && !followsLatest) {
      return known;
    }
    return build(topic, -1, key, known, length);
  }

  private static String describe(Object key) {
    return key instanceof UUID guid ? "schema guid " + guid : key.toString();
  }

  /** Releases the {@link FramingResolver}, if any. */
  void close() {
    if (resolver != null) {
      ForeignFramings.close(resolver);
    }
  }

  /** A {@link FramingResolver}'s key, kept apart from Kavro's own keys. */
  record ResolverKey(Object key) {
    @Override
    public String toString() {
      return "schema " + key + " of the framing resolver";
    }
  }
}
