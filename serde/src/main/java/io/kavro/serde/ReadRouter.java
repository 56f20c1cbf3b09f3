package io.kavro.serde;

import io.kavro.registry.ApicurioId;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.ReadPlanner.ReadRoute;
import io.kavro.serde.framing.ResolverKey;
import io.kavro.serde.framing.SchemaIdReader;
import io.kavro.serde.subject.SubjectNameStrategy;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;

/**
 * The deserializer's registry step: the read plan of a writer schema id or GUID, from the writer schema the
 * registry holds and the reader schema, first match wins: the generated class ({@code specific.avro.reader}) or
 * the configured reader schema; the subject's latest version with {@code use.latest.with.metadata}'s metadata;
 * its latest with {@code use.latest.version}; the writer's. Also the version the topic's subject gives a writer
 * schema, for the Connect converter. Immutable and thread-safe.
 */
final class ReadRouter {
  private final SchemaRegistryClient client;
  private final boolean isKey;
  private final boolean useLatestVersion;
  private final Map<String, String> latestWithMetadata;
  private final SubjectNameStrategy subjects;
  private final ReadPlanner planner;
  private final WriterVersions versions;
  private final SchemaIdReader framing;

  /** @param framing the framing whose resolver's keys it may be asked about */
  ReadRouter(SchemaRegistryClient client, AvroSerdeConfig config, SchemaIdReader framing) {
    this.client = client;
    this.framing = framing;
    this.isKey = config.isKey();
    this.useLatestVersion = config.useLatestVersion();
    this.latestWithMetadata = config.latestWithMetadata();
    this.subjects = config.subjectNameStrategy();
    this.planner = new ReadPlanner(config);
    this.versions = new WriterVersions(client, subjects, isKey);
  }

  /** Whether the reader schema can change while the deserializer lives: the plan is asked again per record. */
  boolean followsLatest() {
    return useLatestVersion || !latestWithMetadata.isEmpty();
  }

  /** The client's count of schemas it replaced: plans built before it moved are stale. */
  long replacedSchemas() {
    return client.replacedSchemas();
  }

  /**
   * The plan for schema {@code id}, or {@code key} when not {@code null} (a GUID, an Apicurio id, a framing
   * resolver's key): {@code known} itself when its reader schema still applies.
   *
   * @param known the plan cached for it, whose writer schema is not fetched again
   * @param record the record, for messages
   * @throws io.kavro.registry.SchemaRegistryException when the registry fails or knows no such schema
   * @throws SchemaResolutionException when the writer schema cannot be read as the reader schema
   */
  ReadRoute route(String topic, int id, Object key, ReadRoute known, String record) {
    Schema writer = known != null ? known.writerSchema() : writerSchema(id, key);
    Schema reader = readerSchema(topic, writer, record);
    if (known != null && known.readerSchema() == reader) {
      return known;
    }
    return planner.plan(id, writer, reader, record);
  }

  /** The writer schema of schema {@code id}, or of {@code key} when not {@code null}. */
  private Schema writerSchema(int id, Object key) {
    if (key == null) {
      return client.schemaById(id);
    }
    if (key instanceof UUID guid) {
      return client.schemaByGuid(guid);
    }
    if (key instanceof ApicurioId apicurioId) {
      return client.schemaByApicurioId(apicurioId);
    }
    return framing.writerSchema((ResolverKey) key);
  }

  /** See {@link KafkaAvroDeserializer#writerVersion}. */
  Integer writerVersion(String topic, AvroValue read) {
    return versions.of(topic, read);
  }

  private Schema readerSchema(String topic, Schema writer, String record) {
    Schema configured = planner.configuredReader(writer, record);
    if (configured != null) {
      return configured;
    }
    if (!latestWithMetadata.isEmpty()) {
      return client.latestWithMetadata(subjects.subjectName(topic, isKey, writer), latestWithMetadata).schema();
    }
    if (useLatestVersion) {
      return client.latestVersion(subjects.subjectName(topic, isKey, writer)).schema();
    }
    return writer;
  }
}
