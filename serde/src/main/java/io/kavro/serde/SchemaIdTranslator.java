package io.kavro.serde;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.serde.framing.SchemaIdPrefix;
import io.kavro.serde.framing.SchemaIdWriter;
import io.kavro.serde.subject.SubjectNameStrategies;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.SerializationException;

/**
 * Rewrites the schema id of records copied byte for byte from one cluster to another (MirrorMaker 2, replicators),
 * whose registries give the same schema different ids: the source registry's id becomes the target registry's
 * id of the same schema, registered there under the subject the target configuration's strategy names for the
 * record's (target) topic, or only looked up there with {@code auto.register.schemas=false}. The framing is
 * kept: a prefix stays a prefix ({@code 0x00} and an id; {@code 0x01} and a GUID, or the id when the target
 * registry has no GUIDs), a {@code __key_schema_id} / {@code __value_schema_id} header value stays a header
 * value. The Avro body is not touched.
 *
 * <p>Each source id is translated once per topic and source context (a topic whose context moved has its ids
 * translated again) and cached (bounded by {@code max.schemas.per.subject}); the two registry clients cache the
 * schemas and registrations behind it. Thread-safe.
 *
 * <p>Failures are typed as the deserializer's are: a {@link MalformedPayloadException} for bytes that are not
 * framed, an {@link UnknownSchemaIdException} for an id the source registry does not know, a
 * {@link SchemaRegistrationException} when the target refuses the schema, a {@link RetriableSerdeException} while
 * either registry is unavailable.
 */
public final class SchemaIdTranslator implements AutoCloseable {
  private final boolean isKey;
  private final RegistryClientOwner sourceOwner = new RegistryClientOwner(null);
  private final RegistryClientOwner targetOwner = new RegistryClientOwner(null);
  private final SchemaRegistryClient source;
  private final SchemaRegistryClient target;
  private final AvroSerdeConfig targetConfig;
  /** The source's ids of each topic: within the context its {@code context.name.strategy} gives the topic. */
  private final TopicIds sourceIds;
  private final Cache<Translation, byte[]> translated;

  /**
   * A source prefix or header value, the topic whose subject it is registered under in the target, and the
   * qualifier of the source context the topic's ids were read in (null for a GUID, or where topics are in no
   * context): a topic whose context moved has its ids translated again, as they name other schemas there.
   */
  private record Translation(String topic, String context, ByteBuffer sourceId) {}

  /**
   * @param sourceConfigs the source registry's client settings ({@code schema.registry.url}, auth, TLS...)
   * @param targetConfigs the target registry's client settings, and {@code auto.register.schemas} and the
   *     subject name strategies for the target
   * @param isKey whether it translates record keys
   * @throws ConfigException when either configuration is invalid, or the source's reads Apicurio's prefixes, or
   *     a side's registry cannot serve its settings as a serde's configure refuses them (a
   *     {@code context.name.strategy} on Apicurio Registry, which has no schema contexts), naming the side
   */
  public SchemaIdTranslator(Map<String, ?> sourceConfigs, Map<String, ?> targetConfigs, boolean isKey) {
    this.isKey = isKey;
    AvroSerdeConfig sourceConfig = new AvroSerdeConfig(sourceConfigs, isKey);
    if (sourceConfig.schemaIdPrefix() != SchemaIdPrefix.CONFLUENT) {
      throw new ConfigException((isKey ? AvroSerdeConfig.KEY_SCHEMA_ID_PREFIX_CONFIG
          : AvroSerdeConfig.VALUE_SCHEMA_ID_PREFIX_CONFIG), sourceConfig.schemaIdPrefix().configValue(),
          "the translation rewrites Confluent's framing only");
    }
    this.targetConfig = new AvroSerdeConfig(targetConfigs, isKey);
    this.source = sourceOwner.client(sourceConfig);
    this.target = targetOwner.client(targetConfig);
    if (source.idsPerSubject() || target.idsPerSubject()) {
      String api = (source.idsPerSubject() ? sourceConfig : targetConfig).registryConfig().api().configName();
      close();
      throw new ConfigException(io.kavro.registry.config.RegistryConfig.SCHEMA_REGISTRY_API_CONFIG, api, "the "
          + (source.idsPerSubject() ? "source" : "target") + " registry numbers schemas per subject; translating "
          + "its ids is not supported: mirror such a topic's records as they are, with its registry beside");
    }
    // What a serde's configure refuses (a context.name.strategy on a registry without contexts) is refused here too,
    // at once: record by record, each would fail, and be skipped with errors.tolerance=all, lost from the mirror.
    check(source, sourceConfig, "source");
    check(target, targetConfig, "target");
    // Each side's strategy asks its own registry (associations): the source's names the subject, so the context,
    // a topic's source ids are read in; the target's the subject they are registered under. Both clients are this
    // translator's, closed with it.
    SubjectNameStrategies.useRegistry(sourceConfig.subjectNameStrategy(), source);
    SubjectNameStrategies.useRegistry(targetConfig.subjectNameStrategy(), target);
    this.sourceIds = new TopicIds(source, sourceConfig, isKey);
    this.translated = Caffeine.newBuilder().maximumSize(targetConfig.maxSchemasPerSubject()).build();
  }

  /**
   * Refuses one side's configuration that its registry cannot serve, as a serde's configure does
   * ({@link TopicIds#check}), naming the side; closes both clients first.
   */
  private void check(SchemaRegistryClient client, AvroSerdeConfig config, String side) {
    try {
      TopicIds.check(client, config);
    } catch (ConfigException e) {
      close();
      throw new ConfigException("the " + side + " registry's settings: " + e.getMessage());
    }
  }

  /** The record header that may hold this side's schema id ({@code __key_schema_id} / {@code __value_schema_id}). */
  public String headerName() {
    return isKey ? WireFormat.KEY_SCHEMA_ID_HEADER : WireFormat.VALUE_SCHEMA_ID_HEADER;
  }

  /**
   * The record headers that carry another registry's schema id (Apicurio's), which this translation does not
   * rewrite: a record that has one cannot be translated.
   */
  public java.util.List<String> foreignIdHeaders() {
    return SchemaIdWriter.apicurioIdHeaders(isKey);
  }

  /**
   * The payload with the target registry's id in its prefix; {@code null} for {@code null} (a tombstone).
   *
   * @throws SerializationException (a subclass) when it cannot be translated; see the class comment
   */
  public byte[] translatePayload(String topic, byte[] payload) {
    if (payload == null) {
      return null;
    }
    int prefix = prefixSize(topic, payload, "payload");
    byte[] targetPrefix = translate(topic, payload, prefix);
    byte[] result = new byte[targetPrefix.length + payload.length - prefix];
    System.arraycopy(targetPrefix, 0, result, 0, targetPrefix.length);
    System.arraycopy(payload, prefix, result, targetPrefix.length, payload.length - prefix);
    return result;
  }

  /**
   * A schema id header's value ({@code 0x00} and an id, or {@code 0x01} and a GUID) with the target registry's.
   * A header whose value is null is absent, as the deserializer reads it: translate the payload's prefix
   * ({@link #translatePayload}) instead.
   *
   * @throws MalformedPayloadException when {@code value} is null, or not exactly an id or a GUID (naming the
   *     header and its length)
   * @throws SerializationException (a subclass) when it cannot be translated; see the class comment
   */
  public byte[] translateHeader(String topic, byte[] value) {
    if (value == null || prefixSize(topic, value, headerName() + " header") != value.length) {
      throw new MalformedPayloadException("cannot translate " + Failures.record(topic, isKey, -1, -1) + ": its "
          + headerName() + " header holds " + (value == null ? "nothing" : value.length + " byte(s)"
              + String.format(" starting 0x%02x", value[0] & 0xff))
          + ", not a schema id (0x00 and 4 bytes) or GUID (0x01 and 16 bytes)", null);
    }
    return translate(topic, value, value.length).clone();
  }

  /** The bytes of the id or GUID prefix at the start of {@code bytes}. */
  private int prefixSize(String topic, byte[] bytes, String where) {
    if (bytes.length >= WireFormat.HEADER_SIZE && bytes[0] == WireFormat.MAGIC_BYTE) {
      return WireFormat.HEADER_SIZE;
    }
    if (bytes.length >= WireFormat.GUID_HEADER_SIZE && bytes[0] == WireFormat.MAGIC_BYTE_GUID) {
      return WireFormat.GUID_HEADER_SIZE;
    }
    throw new MalformedPayloadException("cannot translate " + Failures.record(topic, isKey, -1, bytes.length) + ": its "
        + where + (bytes.length == 0 ? " is empty" : String.format(" starts with 0x%02x", bytes[0] & 0xff))
        + ", not a schema id (0x00 and 4 bytes) or GUID (0x01 and 16 bytes)", null);
  }

  /** The target's prefix for the source prefix in the first {@code size} bytes; the cached array itself. */
  private byte[] translate(String topic, byte[] bytes, int size) {
    TopicIds.TopicContext context = sourceContext(topic, bytes, size);
    String qualifier = context == null ? null : context.qualifier();
    Translation key = new Translation(topic, qualifier, ByteBuffer.wrap(bytes, 0, size));
    byte[] known = translated.getIfPresent(key);
    if (known != null) {
      return known;
    }
    byte[] made = targetPrefix(topic, bytes, size, context);
    translated.put(new Translation(topic, qualifier, ByteBuffer.wrap(java.util.Arrays.copyOf(bytes, size))), made);
    return made;
  }

  /**
   * The source context {@code topic}'s schema id in {@code bytes} is read in; {@code null} for a GUID (one schema in
   * the whole registry), or where topics are in no context.
   */
  private TopicIds.TopicContext sourceContext(String topic, byte[] bytes, int size) {
    if (bytes[0] == WireFormat.MAGIC_BYTE_GUID || !sourceIds.contextual()) {
      return null;
    }
    try {
      return sourceIds.context(topic);
    } catch (SchemaRegistryException e) {
      throw Failures.whileReading("cannot translate the schema id of ", Failures.record(topic, isKey,
          WireFormat.schemaId(bytes, 0, size), -1) + " from the source registry", e);
    }
  }

  /** The source topics' contexts: for tests. */
  TopicIds sourceIds() {
    return sourceIds;
  }

  private byte[] targetPrefix(String topic, byte[] bytes, int size, TopicIds.TopicContext context) {
    boolean guid = bytes[0] == WireFormat.MAGIC_BYTE_GUID;
    UUID sourceGuid = guid ? WireFormat.guid(bytes, 0, size) : null;
    int sourceId = guid ? -1 : WireFormat.schemaId(bytes, 0, size);
    String record = Failures.record(topic, isKey, sourceId, -1) + (guid ? " (schema guid " + sourceGuid + ")" : "");
    Schema schema;
    try {
      schema = guid ? source.schemaByGuid(sourceGuid) : sourceIds.of(topic, context).schemaById(sourceId);
    } catch (SchemaRegistryException e) {
      throw Failures.whileReading("cannot translate the schema id of ", record + " from the source registry", e);
    }
    String subject;
    int targetId;
    try {
      subject = targetConfig.subjectNameStrategy().subjectName(topic, isKey, schema);
    } catch (SchemaRegistryException e) {
      throw Failures.whileChoosingSubject("cannot translate the schema id of ", record + " in the target registry",
          e);
    }
    try {
      targetId = targetConfig.autoRegisterSchemas() ? Registration.register(target, subject, schema)
          : target.lookup(subject, schema).id();
      if (guid) {
        UUID targetGuid = TopicIds.ofSubject(target, subject).guidOf(targetId);
        if (targetGuid != null) {
          return WireFormat.guidPrefix(targetGuid);
        }
      }
    } catch (SchemaRegistryException e) {
      throw Failures.whileWriting(record + " in the target registry", subject, e);
    }
    return WireFormat.idPrefix(targetId);
  }

  /** Closes both registry clients. Idempotent. */
  @Override
  public void close() {
    if (sourceIds != null) {
      sourceIds.close();
    }
    sourceOwner.close();
    targetOwner.close();
  }
}
