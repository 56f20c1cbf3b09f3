package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.serde.internal.avro.AvroDataModels;
import io.kavro.serde.internal.avro.BoundedBinaryDecoder;
import io.kavro.serde.internal.avro.JavaRecordReader;
import io.kavro.serde.internal.avro.LocalClasses;
import io.kavro.serde.internal.codec.DatumDecoder;
import io.kavro.serde.internal.codec.DecoderCompiler;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.DatumReader;
import org.apache.avro.reflect.ReflectDatumReader;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.errors.SerializationException;
import io.kavro.serde.subject.SubjectNameStrategy;

/**
 * The deserializer's immutable engine, built once by {@code configure()}. Thread-safe.
 *
 * <p>Per record, once warm: the header is read in place, the {@link DatumReader} for the writer id is found
 * in a bounded cache, and the body is decoded straight from the payload's array by a per-thread
 * {@link BoundedBinaryDecoder}. No copy of a heap payload, no registry call.
 *
 * <p>The reader schema, first match wins: the generated class ({@code specific.avro.reader}); the configured
 * reader schema; the subject's latest schema ({@code use.latest.version}); the writer schema.
 */
final class DeserializerEngine {
  private final SchemaRegistryClient client;
  private final boolean isKey;
  private final AvroSerdeConfig config;
  /** Copied from the config: read on every record. */
  private final boolean useLatestVersion;
  private final SubjectNameStrategy subjects;
  private final AvroDataModels models;
  private final Cache<Integer, Reader> readers;
  private volatile Reader last;
  private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(DeserializerEngine.class);

  /** A resolved reader for one writer id: Avro's, or the compiled decoder when there is one. */
  private record Reader(int id, Schema writer, Schema reader, DatumReader<Object> datumReader, DatumDecoder fast) {
    Object read(BoundedBinaryDecoder in) throws IOException {
      return fast != null ? fast.decode(in) : datumReader.read(null, in);
    }
  }

  /** Per thread: the decoder, and a copy buffer for direct (off-heap) payloads. */
  private static final class Scratch {
    final BoundedBinaryDecoder decoder = new BoundedBinaryDecoder();
    byte[] copy = new byte[0];
  }

  DeserializerEngine(SchemaRegistryClient client, AvroSerdeConfig config) {
    this.client = client;
    this.isKey = config.isKey();
    this.config = config;
    this.useLatestVersion = config.useLatestVersion();
    this.subjects = config.subjectNameStrategy();
    this.models = new AvroDataModels(config.useLogicalTypeConverters(), config.reflectionAllowNull());
    this.readers = Caffeine.newBuilder().maximumSize(config.maxSchemasPerSubject()).build();
  }

  /** The datum of a framed payload, or {@code null} for a {@code null} payload (a tombstone). */
  Object deserialize(String topic, byte[] payload) {
    return payload == null ? null : deserialize(topic, payload, 0, payload.length);
  }

  /** The datum of a framed payload, from its position to its limit, which are left as they are. */
  Object deserialize(String topic, ByteBuffer payload) {
    if (payload == null) {
      return null;
    }
    return deserialize(topic, bytesOf(payload), offsetOf(payload), payload.remaining());
  }

  private Object deserialize(String topic, byte[] payload, int offset, int length) {
    return read(topic, reader(topic, payload, offset, length), payload, offset, length);
  }

  /** Like {@link #deserialize(String, ByteBuffer)}, with the schema id and the schema read as. */
  AvroValue deserializeWithSchema(String topic, ByteBuffer payload) {
    if (payload == null) {
      return null;
    }
    int length = payload.remaining();
    byte[] array = bytesOf(payload);
    int offset = offsetOf(payload);
    Reader reader = reader(topic, array, offset, length);
    return new AvroValue(reader.id(), reader.reader(), read(topic, reader, array, offset, length));
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

  /** The reader for the payload's schema id; checks the header. */
  private Reader reader(String topic, byte[] payload, int offset, int length) {
    int id;
    try {
      id = WireFormat.schemaId(payload, offset, length);
    } catch (MalformedPayloadException e) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, -1, length)
          + ": " + e.getMessage(), null);
    }
    return reader(topic, id, length);
  }

  /** Decodes the body of a framed payload, which must be read to its last byte. */
  private Object read(String topic, Reader reader, byte[] payload, int offset, int length) {
    BoundedBinaryDecoder decoder = scratch.get().decoder.reset(payload, offset + WireFormat.HEADER_SIZE,
        length - WireFormat.HEADER_SIZE);
    Object datum;
    try {
      datum = reader.read(decoder);
    } catch (IOException | RuntimeException | LinkageError e) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, reader.id(), length)
          + ": truncated or corrupt Avro body for writer schema " + reader.writer().getFullName() + ": " + e, e);
    } catch (StackOverflowError e) {
      // A recursive schema lets a small payload nest deeper than any stack: a bad record, not a dead consumer.
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, reader.id(), length)
          + ": the Avro body for writer schema " + reader.writer().getFullName()
          + " nests deeper than this thread's stack can read", null);
    }
    if (!decoder.isEnd()) {
      throw new MalformedPayloadException("cannot deserialize " + Failures.record(topic, isKey, reader.id(), length)
          + ": " + decoder.remaining() + " trailing byte(s) after the datum", null);
    }
    return datum;
  }

  private Reader reader(String topic, int id, int length) {
    // Most topics carry one schema: the last reader answers without boxing the id for the cache lookup.
    Reader last = this.last;
    if (last != null && last.id() == id && !useLatestVersion) {
      return last;
    }
    Reader reader = readers.getIfPresent(id);
    if (reader != null && !useLatestVersion) {
      this.last = reader;
      return reader;
    }
    String record = Failures.record(topic, isKey, id, length);
    try {
      Schema writer = reader != null ? reader.writer() : client.schemaById(id);
      Schema target = readerSchema(topic, writer, record);
      if (reader != null && reader.reader() == target) {
        return reader;
      }
      Reader built = build(id, writer, target, record);
      readers.put(id, built);
      this.last = built;
      return built;
    } catch (SchemaRegistryException e) {
      throw Failures.whileReading(record, e);
    } catch (SerializationException e) {
      throw e;
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw new SchemaResolutionException("cannot deserialize " + record + ": cannot build a reader for schema id "
          + id + ": " + e, e instanceof StackOverflowError ? null : e);
    }
  }

  private Schema readerSchema(String topic, Schema writer, String record) {
    if (config.specificAvroReader() && isNamed(writer)) {
      return SpecificData.get().getSchema(specificClass(writer, record));
    }
    if (config.readerSchema() != null) {
      return config.readerSchema();
    }
    if (useLatestVersion) {
      return client.latestVersion(subjects.subjectName(topic, isKey, writer)).schema();
    }
    return writer;
  }

  private Reader build(int id, Schema writer, Schema reader, String record) {
    if (reader != writer) {
      SchemaCompatibility.SchemaPairCompatibility result =
          SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
      if (result.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
        throw new SchemaResolutionException("cannot deserialize " + record + ": writer schema "
            + writer.getFullName() + " cannot be read as " + reader.getFullName() + ": "
            + result.getDescription(), null);
      }
    }
    DatumReader<Object> datumReader;
    GenericData fastModel = null;
    if (config.specificAvroReader() && isNamed(writer)) {
      Class<?> type = specificClass(writer, record);
      SpecificData specific = AvroDataModels.specific(type);
      fastModel = specific;
      datumReader = new SpecificDatumReader<>(writer, reader, specific);
    } else if (config.schemaReflection()) {
      Class<?> type = isNamed(reader) ? LocalClasses.find(reader.getFullName()) : null;
      if (type != null && type.isRecord()) {
        datumReader = new JavaRecordReader(writer, reader, type, models.generic());
      } else {
        ReflectDatumReader<Object> reflect = new ReflectDatumReader<>(writer, reader, models.reflect());
        // Avro trusts no class named in a schema by default; trust those the application's own class names.
        if (type != null) {
          reflect.getTrustedClasses().addAll(LocalClasses.namedBy(models.reflect().getSchema(type)));
        }
        datumReader = reflect;
      }
    } else {
      fastModel = models.generic();
      datumReader = new GenericDatumReader<>(writer, reader, fastModel);
    }
    DatumDecoder fast = null;
    if (config.fastCodec() && fastModel != null) {
      fast = DecoderCompiler.compile(writer, reader, fastModel);
      if (fast == null) {
        log.debug("No compiled decoder for {} as {}; using Avro's reader", writer.getFullName(), reader.getFullName());
      }
    }
    return new Reader(id, writer, reader, datumReader, fast);
  }

  private Class<? extends SpecificRecord> specificClass(Schema writer, String record) {
    Class<? extends SpecificRecord> configured = config.specificType();
    if (configured != null) {
      return configured;
    }
    String className = SpecificData.getClassName(writer);
    Class<?> type = LocalClasses.find(className);
    if (type != null && SpecificRecord.class.isAssignableFrom(type)) {
      return type.asSubclass(SpecificRecord.class);
    }
    throw new SchemaResolutionException("cannot deserialize " + record + ": specific.avro.reader=true but no "
        + "generated SpecificRecord class " + className + " is on the classpath; generate it, set "
        + (isKey ? AvroSerdeConfig.SPECIFIC_AVRO_KEY_TYPE_CONFIG : AvroSerdeConfig.SPECIFIC_AVRO_VALUE_TYPE_CONFIG)
        + ", or turn specific.avro.reader off", null);
  }

  private static boolean isNamed(Schema schema) {
    return schema.getType() == Schema.Type.RECORD;
  }
}
