package io.kavro.registry;

import io.kavro.registry.contract.DataContract;
import java.io.Closeable;
import java.util.List;
import org.apache.avro.Schema;

/**
 * A client of a schema registry that speaks the Confluent REST API (Confluent, Apicurio's
 * {@code /apis/ccompat/v7}, Karapace, Redpanda), or of the in-memory {@code mock://} registry.
 *
 * <p><b>Thread safety.</b> Implementations are thread-safe: share one instance between threads, and between
 * a serializer and a deserializer. Create it with
 * {@link io.kavro.registry.factory.SchemaRegistryClients#create(java.util.Map)}, which also puts a cache in front of
 * the registry.
 *
 * <p><b>Errors.</b> Every method throws a subclass of {@link SchemaRegistryException}: {@link
 * SchemaNotFoundException} for an unknown subject, version or id; {@link IncompatibleSchemaException} when
 * the compatibility level rejects a schema; {@link InvalidSchemaException} for a schema that cannot be
 * parsed; {@link RegistryAccessDeniedException} for refused credentials; {@link WrongRegistryUrlException}
 * when the URL does not lead to a registry's API (a 404 without the registry's own error code); {@link
 * RegistryUnavailableException} when no registry answered within the retry budget.
 */
public interface SchemaRegistryClient extends Closeable {

  /**
   * Registers a schema under a subject, or finds it if it is already there.
   *
   * @return the registry-wide schema id; the same schema always gets the same id
   * @throws IncompatibleSchemaException if the subject's compatibility level rejects the schema
   */
  default int register(String subject, Schema schema) {
    return register(subject, schema, List.of());
  }

  /**
   * Registers a schema that uses types defined by other subjects' versions (schema references), or finds it if it
   * is already there. {@code schema} is the whole schema, as parsed with the referenced types known; the
   * registry is sent its text with each referenced type, and what that type defines, written by name only.
   *
   * @param references the types the schema takes from other subjects; empty for a schema that defines all it uses
   * @return the registry-wide schema id
   * @throws InvalidSchemaException if a reference names a type that the schema does not use
   * @throws SchemaNotFoundException if a referenced subject version does not exist
   * @throws IncompatibleSchemaException if the subject's compatibility level rejects the schema
   */
  int register(String subject, Schema schema, List<SchemaReference> references);

  /**
   * Finds a schema that is already registered under a subject, without registering it.
   *
   * @return the version of the subject that holds this schema
   * @throws SchemaNotFoundException if the subject does not exist or does not hold this schema
   */
  default SubjectVersion lookup(String subject, Schema schema) {
    return lookup(subject, schema, List.of());
  }

  /**
   * Finds a schema registered with these references under a subject, without registering it. A registry tells a
   * schema registered with references from the same schema registered whole.
   *
   * @return the version of the subject that holds this schema
   * @throws SchemaNotFoundException if the subject does not exist or does not hold this schema
   */
  SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references);

  /**
   * The schema with this registry-wide id.
   *
   * @throws SchemaNotFoundException if no schema has this id (error code 40403)
   * @throws UnsupportedRegistryApiException when this registry's ids count per subject ({@link #idsPerSubject()}):
   *     ask {@link #forSubject} of the subject instead
   */
  Schema schemaById(int id);

  /**
   * Whether this registry numbers schemas per subject (schema-repo: every subject's ids start at 0), rather than
   * once for the whole registry (Confluent's ids). An id then means a schema only together with its subject, so a
   * record's id is read through {@link #forSubject}. {@code false} unless a protocol says otherwise.
   */
  default boolean idsPerSubject() {
    return false;
  }

  /**
   * Whether this registry has schema contexts ({@link #inContext}, context-qualified subjects): {@code true} unless
   * the client knows it has none (Apicurio Registry, detected by its URL, {@code /apis/ccompat/v<n>}), so that a
   * serde configured with a context is refused at configure, naming the registry, rather than per record.
   */
  default boolean hasContexts() {
    return true;
  }

  /**
   * The client whose ids are {@code subject}'s: this client itself when ids are the registry's
   * ({@link #idsPerSubject()} is {@code false}, the default); else a client, cached as this one is, whose {@link
   * #schemaById} answers the subject's schema of that id. Its other calls are this client's. The same one for a
   * subject while this client keeps it: a client made by {@code SchemaRegistryClients} keeps at most {@code
   * schema.registry.subjects.cache.size} subjects' clients; an evicted one is dropped, not closed (it holds nothing
   * of its own: its connections and thread are this client's), so a caller that holds it keeps using it, and the
   * subject's next call gets a new one, which asks the registry again. Closing this client closes them all.
   */
  default SchemaRegistryClient forSubject(String subject) {
    return this;
  }

  /**
   * The client whose ids are those of schema context {@code context} (Confluent's contexts: each numbers its
   * schemas apart, so id 1 of {@code :.a:} and id 1 of {@code :.b:} are two schemas): its {@link #schemaById},
   * {@link #contractOf(int)}, {@link #registeredContract} and {@link #guidOf} ask within that context (Confluent's
   * {@code GET /schemas/ids/{id}?subject=:.ctx:}), and cache apart from this client's. Its calls that take a subject
   * are this client's: a context-qualified subject ({@code :.ctx:orders-value}) names its context itself. This client
   * itself for the default context. The same one for a context while this client keeps it: a client made by {@code
   * SchemaRegistryClients} keeps at most {@code schema.registry.contexts.cache.size} contexts' clients; an evicted one
   * is dropped, never closed (it holds nothing of its own: its connections, thread and disk folder are this
   * client's), so a caller that still holds it keeps reading through it, and the context's next call gets a new,
   * empty one, which asks the registry again. Closing this client closes what they all share.
   *
   * @param context a context name as {@link SchemaContexts#qualifier} reads it ({@code ctx}, {@code .ctx} or
   *     {@code :.ctx:})
   * @throws UnsupportedRegistryApiException when the registry has no schema contexts, naming it and the context
   * @throws IllegalArgumentException when the context name holds a colon
   */
  default SchemaRegistryClient inContext(String context) {
    String qualifier = SchemaContexts.qualifier(context);
    if (qualifier.equals(SchemaContexts.DEFAULT)) {
      return this;
    }
    throw new UnsupportedRegistryApiException("use schema context '" + qualifier + "' failed: this registry client ("
        + getClass().getSimpleName() + ") has no schema contexts", -1, -1, null, null);
  }

  /**
   * The metadata and rules that the schema of this id carries ({@code metadata}, {@code ruleSet} of Confluent's
   * {@code GET /schemas/ids/{id}}). A registry that keeps no data contracts answers {@link DataContract#NONE}.
   * Cached as the schema is: an id's contract never changes.
   *
   * @throws SchemaNotFoundException if no schema has this id
   */
  default DataContract contractOf(int id) {
    schemaById(id);
    return DataContract.NONE;
  }

  /**
   * The contract of {@code id} as the answer to registering it gave it: what a serializer that registers its
   * schemas writes with, as Confluent's serializer runs the rules of its registration's answer. Confluent 8
   * answers a registration with the version's metadata and rules; a registry that answers with the id alone
   * (Apicurio, Confluent 7) gives none, and then none run, as in Confluent's serializer. Costs no request of its
   * own after {@link #register}; for an id this client did not register, it is {@link #contractOf(int)}.
   */
  default DataContract registeredContract(int id) {
    return contractOf(id);
  }

  /**
   * The metadata and rules of the schema with this GUID (Confluent 8's {@code GET /schemas/guids/{guid}}), as
   * {@link #contractOf(int)} gives an id's.
   *
   * @throws SchemaNotFoundException if no schema has this GUID
   */
  default DataContract contractOf(java.util.UUID guid) {
    schemaByGuid(guid);
    return DataContract.NONE;
  }

  /**
   * Registers a schema with its data contract (metadata and rules), as Confluent's registry takes them in the
   * body of {@code POST /subjects/{subject}/versions}: the same schema with another contract is a new version.
   *
   * @throws UnsupportedRegistryApiException when the registry keeps no data contracts and {@code contract} is
   *     not {@link DataContract#NONE}
   */
  default int register(String subject, Schema schema, List<SchemaReference> references, DataContract contract) {
    if (!contract.equals(DataContract.NONE)) {
      throw new UnsupportedRegistryApiException("register schema under subject '" + subject + "' with a data "
          + "contract: this client keeps no metadata or rules", -1, -1, null, null);
    }
    return register(subject, schema, references);
  }

  /**
   * The DEK registry at this registry's URLs, which field encryption keeps its keys in.
   *
   * @throws UnsupportedRegistryApiException when this client has none
   */
  default DekRegistry dekRegistry() {
    throw new UnsupportedRegistryApiException("this registry client has no DEK registry (Confluent's "
        + "/dek-registry/v1)", -1, -1, null, null);
  }

  /**
   * How many times this client has replaced a schema it had answered for an id by another answer: a schema it
   * served from its disk cache during an outage, which the registry, once back, answers otherwise or not at all.
   * Whatever was built from this client's schemas is stale once the count moves: the deserializer rebuilds its
   * read plans then. A client that never replaces a schema answers 0.
   */
  default long replacedSchemas() {
    return 0;
  }

  /**
   * Tells {@code listener} whenever an answer this client gave may no longer hold: a schema it served from its
   * disk cache replaced (see {@link #replacedSchemas()}), or a subject's latest version changed by a refresh or
   * forgotten after a change made through this client. Whatever was built from its answers can then be rebuilt;
   * until then the answers stand, so a caller that caches them need not ask again per use. The listener runs on
   * the thread that saw the change (a background refresh, or a caller's) and must be quick and must not throw. A
   * client whose answers never change (the default) never calls it.
   *
   * @return what removes the listener; idempotent
   */
  default AutoCloseable onChange(Runnable listener) {
    return () -> { };
  }

  /**
   * The schema with this globally unique id (Confluent 8's {@code GET /schemas/guids/{guid}}), as a payload
   * framed with magic byte 1, or a {@code __value_schema_id} header, names it.
   *
   * @throws SchemaNotFoundException if no schema has this GUID
   * @throws UnsupportedRegistryApiException when the registry has no GUID API (it answers 404 without its own
   *     error code while its core API answers); remembered, so that no further request is sent
   */
  Schema schemaByGuid(java.util.UUID guid);

  /**
   * The schema with this id of Apicurio Registry's own API (v3, else v2: {@code GET /ids/globalIds/{id}} or
   * {@code GET /ids/contentIds/{id}}), as Apicurio's serdes frame records with it. The API is found beside the
   * Confluent-compatible one that {@code schema.registry.url} names ({@code .../apis/ccompat/v7} → {@code
   * .../apis/registry/v3}).
   *
   * @throws SchemaNotFoundException if the registry has no schema with this id
   * @throws UnsupportedRegistryApiException when the registry has no such API (it is not Apicurio, or its URL
   *     does not end in {@code /apis/ccompat/v<n>}); remembered, so that no further request is sent. This
   *     default answers so for every id: a client that is not Apicurio's has none
   */
  default Schema schemaByApicurioId(ApicurioId id) {
    throw new UnsupportedRegistryApiException("get schema by " + id + " failed: this registry client ("
        + getClass().getSimpleName() + ") has no Apicurio API", -1, -1, null, null);
  }

  /**
   * The globally unique id of the schema with this id, or {@code null} when the registry gives none (registries
   * before Confluent 8, Apicurio).
   *
   * @throws SchemaNotFoundException if no schema has this id
   */
  java.util.UUID guidOf(int id);

  /**
   * The latest live version of a subject.
   *
   * @throws SchemaNotFoundException if the subject does not exist (40401)
   */
  SubjectVersion latestVersion(String subject);

  /**
   * The latest version of a subject whose metadata properties hold every entry of {@code metadata}
   * (Confluent's {@code GET /subjects/{subject}/metadata}; {@code use.latest.with.metadata}).
   *
   * @throws SchemaNotFoundException if the subject does not exist or no version matches (40401, 40403)
   * @throws UnsupportedRegistryApiException when the registry has no metadata API; remembered
   */
  SubjectVersion latestWithMetadata(String subject, java.util.Map<String, String> metadata);

  /**
   * One version of a subject.
   *
   * @throws SchemaNotFoundException if the subject (40401) or the version (40402) does not exist
   */
  SubjectVersion version(String subject, int version);

  /** The names of all subjects that have at least one live version. */
  List<String> subjects();

  /**
   * The live version numbers of a subject, in ascending order.
   *
   * @throws SchemaNotFoundException if the subject does not exist
   */
  List<Integer> versions(String subject);

  /**
   * Whether a schema could be registered under a subject: tested against the subject's latest version and
   * its compatibility level.
   *
   * @throws SchemaNotFoundException if the subject does not exist (40401), as Confluent's registry answers: a
   *     misspelled subject is an error that names it, never "compatible"
   */
  default boolean isCompatible(String subject, Schema schema) {
    return checkCompatibility(subject, schema).compatible();
  }

  /**
   * Like {@link #isCompatible}, with the registry's reasons when the schema is not compatible.
   *
   * @throws SchemaNotFoundException if the subject does not exist (40401)
   */
  CompatibilityCheck checkCompatibility(String subject, Schema schema);

  /** The registry's global compatibility level. */
  CompatibilityLevel compatibility();

  /** The compatibility level that applies to a subject: its own, or the global one when it has none. */
  default CompatibilityLevel compatibility(String subject) {
    return compatibilityInForce(subject).level();
  }

  /**
   * The compatibility level that applies to a subject, and whether it is the subject's own or the global one (the
   * subject sets none). A subject that does not exist has no level of its own.
   */
  CompatibilityInForce compatibilityInForce(String subject);

  /** Sets the registry's global compatibility level. */
  void setCompatibility(CompatibilityLevel level);

  /** Sets one subject's compatibility level. */
  void setCompatibility(String subject, CompatibilityLevel level);

  /**
   * Soft-deletes a subject: its versions are no longer listed, but ids keep resolving.
   *
   * @return the version numbers that were deleted
   */
  List<Integer> deleteSubject(String subject);

  /**
   * Permanently deletes a subject that was soft-deleted before.
   *
   * @return the version numbers that were deleted
   */
  List<Integer> deleteSubjectPermanently(String subject);

  /**
   * Soft-deletes one version of a subject.
   *
   * @return the deleted version number
   */
  int deleteVersion(String subject, int version);

  /**
   * Permanently deletes one version of a subject that was soft-deleted before.
   *
   * @return the deleted version number
   */
  int deleteVersionPermanently(String subject, int version);

  /**
   * The associations of a resource (Confluent 8.3's {@code GET /associations/resources/{namespace}/{name}}): the
   * subject that a topic's keys or values are associated with, which Confluent's default subject name strategy
   * ({@code AssociatedNameStrategy}) writes under. Uncached: the strategy keeps what it learned per topic.
   *
   * @param resourceNamespace the Kafka cluster id, or {@link Association#ANY_NAMESPACE} for any
   * @param resourceName the topic's name
   * @param resourceType {@link Association#TOPIC}
   * @param associationType {@link Association#KEY} or {@link Association#VALUE}
   * @return the matching associations; empty when the resource has none
   * @throws UnsupportedRegistryApiException when the registry lacks the API (it answers 404 without its own error
   *     code while its core API answers: Apicurio, Karapace, Confluent before 8.3); remembered for five minutes,
   *     sending no request meanwhile, then asked again. This default answers so: a client without the API
   */
  default List<Association> associations(String resourceNamespace, String resourceName, String resourceType,
      String associationType) {
    throw new UnsupportedRegistryApiException("get associations of " + resourceType + " '" + resourceName
        + "' failed: this registry client (" + getClass().getSimpleName() + ") has no associations API", -1, -1,
        null, null);
  }

  /**
   * What the registry last answered this client for {@link #associations} with these arguments, as kept on disk
   * ({@code schema.cache.dir}), read back for a caller that cannot reach the registry: a consumer restarted during
   * an outage learns its topics' subjects (and so their schema contexts) as it learns their schemas. Only for when
   * the registry is unavailable ({@link RegistryUnavailableException}): a live answer always wins, and replaces the
   * kept one. The registry's answer that it lacks the API is kept as an empty answer (no association): either way
   * the topic's subject is the fallback's. Never a request.
   *
   * @return the kept answer, or {@code null} when there is none that can be trusted, or no disk cache (this
   *     default)
   */
  default List<Association> storedAssociations(String resourceNamespace, String resourceName, String resourceType,
      String associationType) {
    return null;
  }

  /** Counters for tests and metrics. */
  default RegistryStats stats() {
    return RegistryStats.EMPTY;
  }

  /** Releases connections and threads. Idempotent; never throws. */
  @Override
  void close();
}
