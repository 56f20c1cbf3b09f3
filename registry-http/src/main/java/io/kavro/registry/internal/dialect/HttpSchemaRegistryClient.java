package io.kavro.registry.internal.dialect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.ApicurioId;
import io.kavro.registry.Association;
import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaContexts;
import io.kavro.registry.SchemaIncompatibilities;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.internal.http.ContractJson;
import io.kavro.registry.internal.http.Endpoint;
import io.kavro.registry.internal.http.ErrorMapping;
import io.kavro.registry.internal.http.JsonBodies;
import io.kavro.registry.internal.http.NoSuchApiAnswerException;
import io.kavro.registry.internal.http.OptionalApi;
import io.kavro.registry.internal.http.RegisteredSchemaParser;
import io.kavro.registry.internal.http.RegistryDialect;
import io.kavro.registry.internal.http.RestRequest;
import io.kavro.registry.internal.http.RestTransport;
import io.kavro.registry.internal.http.UnprovenNotFoundException;
import io.kavro.registry.internal.http.Urls;
import io.kavro.registry.internal.schema.ReferencedTypes;
import io.kavro.registry.internal.schema.SchemaDefaults;
import io.kavro.registry.internal.schema.SubjectNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import okhttp3.OkHttpClient;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link SchemaRegistryClient} that speaks the Confluent REST API over OkHttp, with no cache.
 *
 * <p>Use {@link io.kavro.registry.factory.SchemaRegistryClients#create(java.util.Map)} to get one behind a cache.
 * Responses are read leniently: only the fields that Confluent, Apicurio, Karapace and Redpanda all send are
 * used, and both {@code application/json} and {@code application/vnd.schemaregistry.v1+json} are accepted.
 *
 * <p>Thread-safe.
 */
public final class HttpSchemaRegistryClient implements SchemaRegistryClient {
  private static final Logger log = LoggerFactory.getLogger(HttpSchemaRegistryClient.class);

  private final RegistryHttp http;
  private final RestTransport transport;
  private final boolean normalize;
  /** Whether a subject's level {@code NONE} means it sets none (Apicurio): see {@link #compatibilityInForce}. */
  private final boolean noneMeansUnset;
  private final RegisteredSchemaParser schemas;
  /** What the answers about each schema id said of its contract ({@link ContractJson#part}). */
  private final com.github.benmanes.caffeine.cache.Cache<Integer, JsonNode> contracts;
  private final com.github.benmanes.caffeine.cache.Cache<UUID, JsonNode> guidContracts;
  /** What the answers to this client's registrations said of each id's contract, empty when nothing. */
  private final com.github.benmanes.caffeine.cache.Cache<Integer, JsonNode> registrations;
  /**
   * The optional APIs this registry has said it lacks: not asked again for {@link OptionalApi#MISSING_TTL}, then
   * asked again (never the DEK registry: see {@link OptionalApi}).
   */
  private final com.github.benmanes.caffeine.cache.Cache<OptionalApi, Boolean> missingApis;
  /** Confluent's DEK registry, on this client's transport: any 404 but its own is an outage. */
  private final HttpDekRegistry dekRegistry = new HttpDekRegistry(this::send);
  /**
   * The schema context whose ids this client's id calls ask for ({@link SchemaContexts#qualifier}): {@link
   * SchemaContexts#DEFAULT} for the client itself, else one of its {@link #inContext} views.
   */
  private final String context;
  /** Whether every URL is Apicurio's Confluent-compatible API, which has no schema contexts. */
  private final boolean apicurio;
  private final int cacheSize;
  /** The client of the default context, which made this one and owns the connections: this one, or a view's. */
  private final HttpSchemaRegistryClient root;
  /**
   * The views of other contexts, at most {@code schema.registry.contexts.cache.size}; the root's, shared by its
   * views. A view holds no resource of its own (the connections are the root's), so an evicted one is dropped, not
   * closed, and a caller that still holds it keeps using it.
   */
  private final com.github.benmanes.caffeine.cache.Cache<String, HttpSchemaRegistryClient> contexts;

  /** A client configured from {@code config}, with its own OkHttp client, which {@link #close()} shuts down. */
  public HttpSchemaRegistryClient(RegistryConfig config) {
    this(config, RegistryHttp.of(config, null));
  }

  /**
   * A client configured from {@code config} whose HTTP client derives from {@code base} (sharing its
   * connection pool and dispatcher), with timeouts, TLS and retries set from the config. {@link #close()}
   * leaves {@code base}'s pool and dispatcher to their owner.
   */
  public HttpSchemaRegistryClient(RegistryConfig config, OkHttpClient base) {
    this(config, RegistryHttp.of(config, base));
  }

  /** A client of Confluent's protocol on {@code http}, which {@link #close()} closes. */
  public HttpSchemaRegistryClient(RegistryConfig config, RegistryHttp http) {
    this(config, http, com.github.benmanes.caffeine.cache.Ticker.systemTicker());
  }

  /** As {@link #HttpSchemaRegistryClient(RegistryConfig, RegistryHttp)}, timing what it remembers by {@code ticker}. */
  public HttpSchemaRegistryClient(RegistryConfig config, RegistryHttp http,
      com.github.benmanes.caffeine.cache.Ticker ticker) {
    this.http = http;
    this.missingApis = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().ticker(ticker)
        .expireAfterWrite(OptionalApi.MISSING_TTL).build();
    this.transport = http.transport(RegistryDialect.CONFLUENT);
    List<Endpoint> endpoints = http.endpoints();
    this.normalize = config.normalizeSchemas();
    this.noneMeansUnset = endpoints.stream().allMatch(endpoint -> Urls.root(endpoint.base()) != null);
    this.apicurio = noneMeansUnset;
    this.schemas = new RegisteredSchemaParser(transport::send, RegisteredSchemaParser.MAX_REFERENCES);
    this.cacheSize = config.maxSchemasPerSubject();
    this.contracts = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(cacheSize).build();
    this.guidContracts = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(cacheSize).build();
    this.registrations = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(cacheSize).build();
    this.context = SchemaContexts.DEFAULT;
    this.root = this;
    this.contexts = com.github.benmanes.caffeine.cache.Caffeine.newBuilder()
        .maximumSize(config.contextsCacheSize()).executor(Runnable::run).build();
  }

  /** The view of {@code root} whose id calls ask within context {@code context}, with caches of its own. */
  private HttpSchemaRegistryClient(HttpSchemaRegistryClient root, String context) {
    this.http = root.http;
    this.transport = root.transport;
    this.missingApis = root.missingApis;
    this.normalize = root.normalize;
    this.noneMeansUnset = root.noneMeansUnset;
    this.apicurio = root.apicurio;
    this.schemas = root.schemas;
    this.cacheSize = root.cacheSize;
    this.contracts = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(cacheSize).build();
    this.guidContracts = root.guidContracts; // a GUID is one schema in every context
    this.registrations = com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumSize(cacheSize).build();
    this.context = context;
    this.root = root;
    this.contexts = root.contexts;
  }

  /** {@code false} for Apicurio Registry (a URL ending in {@code /apis/ccompat/v<n>}). */
  @Override
  public boolean hasContexts() {
    return !apicurio;
  }

  /**
   * {@inheritDoc}
   *
   * <p>The view shares this client's connections, and holds no resource of its own: at most {@code
   * schema.registry.contexts.cache.size} views are kept, and an evicted one is dropped (never closed; a caller that
   * holds it keeps using it), a new one made on the context's next use. Its id calls send the context as
   * Confluent's deserializer does, {@code GET /schemas/ids/{id}?subject=:.ctx:}. A registry URL that already ends in
   * a context path ({@code .../contexts/.ctx}) is that context's, and the registry itself qualifies what is sent
   * there.
   *
   * @throws UnsupportedRegistryApiException for Apicurio Registry (a URL ending in {@code /apis/ccompat/v<n>}),
   *     which has no schema contexts
   */
  @Override
  public SchemaRegistryClient inContext(String context) {
    String qualifier = SchemaContexts.qualifier(context);
    if (qualifier.equals(SchemaContexts.DEFAULT)) {
      return root;
    }
    if (apicurio) {
      throw noContexts("use schema context '" + qualifier + "'", "context '" + qualifier + "'");
    }
    return contexts.get(qualifier, c -> new HttpSchemaRegistryClient(root, c));
  }

  /** The contexts whose views are kept now, for tests that check the bound. */
  java.util.Set<String> contextViews() {
    contexts.cleanUp();
    return java.util.Set.copyOf(contexts.asMap().keySet());
  }

  private UnsupportedRegistryApiException noContexts(String operation, String what) {
    return new UnsupportedRegistryApiException(operation + " failed: Apicurio Registry has no schema contexts; "
        + what + " needs Confluent's registry (or another that has them, such as Redpanda 26.1+)", -1, -1, null,
        null);
  }

  /**
   * {@inheritDoc}
   *
   * <p>A 409 is checked with a lookup before it is reported: some registries (Apicurio) answer 409 to the
   * loser of two concurrent registrations of the same schema, which is in fact registered.
   */
  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    return register(subject, schema, references, null);
  }

  /**
   * {@inheritDoc}
   *
   * <p>The contract goes in the body as Confluent's registry takes it ({@code metadata}, {@code ruleSet});
   * a registry that keeps no contracts (Apicurio) ignores them, and the ids it answers then have none.
   */
  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references, DataContract contract) {
    String operation = operation(subject, "register schema under subject '" + subject + "'");
    ObjectNode body = schemaBody(schema, references, operation);
    if (contract != null) {
      ContractJson.write(body, contract);
    }
    RestRequest request = RestRequest.post(operation, body, "subjects", subject, "versions");
    SchemaDefaults.check(schema, request.operation());
    try {
      JsonNode json = send(normalized(request));
      int id = requiredInt(json, "id", request);
      // Confluent's registry gives a new version the contract of the one before, and says so in its answer.
      // Kept by the client of the subject's context: the id of another context names another schema.
      HttpSchemaRegistryClient owner = (HttpSchemaRegistryClient) inContext(SchemaContexts.of(subject));
      owner.remember(subject, id, json);
      owner.registrations.put(id, ContractJson.part(json));
      return id;
    } catch (IncompatibleSchemaException e) {
      try {
        return lookup(subject, schema, references).id();
      } catch (SchemaRegistryException lookupFailed) {
        e.addSuppressed(lookupFailed);
        throw e;
      }
    }
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    String operation = operation(subject, "look up schema in subject '" + subject + "'");
    RestRequest request = RestRequest.post(operation, schemaBody(schema, references, operation), "subjects", subject);
    JsonNode json = send(normalized(request));
    int id = requiredInt(json, "id", request);
    remember(subject, id, json);
    // Some registries omit the schema in this answer; the caller's schema is the one found.
    return new SubjectVersion(subject, requiredInt(json, "version", request), id, schema,
        ContractJson.read(json, request.operation()));
  }

  @Override
  public Schema schemaById(int id) {
    RestRequest request = byId("get schema by id " + id, id);
    JsonNode json = send(request);
    Schema schema = avroSchema(json, request, "schema id " + id);
    contracts.put(id, ContractJson.part(json));
    return schema;
  }

  /**
   * {@inheritDoc}
   *
   * <p>From the answer about the id that this client last had (by id, or a registration, lookup or version that
   * said its contract), else from {@code GET /schemas/ids/{id}}.
   */
  @Override
  public DataContract contractOf(int id) {
    JsonNode part = contracts.getIfPresent(id);
    if (part == null) {
      schemaById(id);
      part = contracts.getIfPresent(id);
    }
    return ContractJson.read(part == null ? JsonBodies.object() : part, "the contract of schema id " + id);
  }

  /** As the registration's answer gave it; else as {@link #contractOf(int)}. */
  @Override
  public DataContract registeredContract(int id) {
    JsonNode part = registrations.getIfPresent(id);
    return part == null ? contractOf(id) : ContractJson.read(part, "the contract of schema id " + id);
  }

  /**
   * Keeps what an answer about schema {@code id} of {@code subject} says of its contract, when it says anything and
   * the subject is in this client's context: the id of another context names another schema.
   */
  private void remember(String subject, int id, JsonNode answer) {
    if (ContractJson.present(answer) && ownContext(subject)) {
      contracts.put(id, ContractJson.part(answer));
    }
  }

  /** Whether {@code subject} is in this client's context, whose ids this client's caches hold. */
  private boolean ownContext(String subject) {
    return SchemaContexts.of(subject).equals(context);
  }

  /**
   * {@code GET /schemas/ids/{id}}, within this client's context: {@code ?subject=:.ctx:} as Confluent's deserializer
   * asks (the registry reads the context from it), nothing in the default context.
   */
  private RestRequest byId(String operation, int id) {
    RestRequest request = RestRequest.get(context.isEmpty() ? operation : operation + " in context '" + context + "'",
        "schemas", "ids", Integer.toString(id));
    return context.isEmpty() ? request : request.withQuery("subject", context);
  }

  @Override
  public Schema schemaByGuid(UUID guid) {
    RestRequest request = RestRequest.get("get schema by guid " + guid, "schemas", "guids", guid.toString());
    JsonNode json = sendOptional(OptionalApi.GUIDS, request);
    Schema schema = avroSchema(json, request, "schema guid " + guid);
    guidContracts.put(guid, ContractJson.part(json));
    return schema;
  }

  /** From the answer that gave the GUID's schema, else from {@code GET /schemas/guids/{guid}}. */
  @Override
  public DataContract contractOf(UUID guid) {
    JsonNode part = guidContracts.getIfPresent(guid);
    if (part == null) {
      schemaByGuid(guid);
      part = guidContracts.getIfPresent(guid);
    }
    return ContractJson.read(part == null ? JsonBodies.object() : part, "the contract of schema guid " + guid);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Apicurio 3's API first, then 2's; the one that is missing is learned, and remembered for
   * {@link OptionalApi#MISSING_TTL} (5 minutes). A global id's schema comes with
   * its references resolved by the registry ({@code references=DEREFERENCE}, {@code dereference=true}); a content
   * id has no such option, and a schema whose references are not resolved fails to parse, naming the id.
   */
  @Override
  public Schema schemaByApicurioId(ApicurioId id) {
    if (!missing(OptionalApi.APICURIO_V3)) {
      try {
        return apicurioSchema(OptionalApi.APICURIO_V3, "v3", id);
      } catch (UnsupportedRegistryApiException e) {
        if (!missing(OptionalApi.APICURIO_V3)) {
          throw e; // not learned: no Apicurio API can be found from the URL
        }
      }
    }
    return apicurioSchema(OptionalApi.APICURIO_V2, "v2", id);
  }

  private Schema apicurioSchema(OptionalApi api, String version, ApicurioId id) {
    RestRequest request = RestRequest.getFromRoot("get schema by " + id, "apis", "registry", version, "ids",
        id.kind().pathSegment(), Long.toString(id.value()));
    if (id.kind() == ApicurioId.Kind.GLOBAL_ID) {
      request = api == OptionalApi.APICURIO_V3 ? request.withQuery("references", "DEREFERENCE")
          : request.withQuery("dereference", "true");
    }
    RestTransport.Content content = sendOptional(api, request, transport::sendContent);
    // The content as uploaded, which Avro's parser reads (comments included), not as JSON: a text Avro cannot
    // parse is the registry's answer, an invalid schema, named by its id and the registry's URL; never an outage.
    return RegisteredSchemaParser.parseText(content.text(), request.operation() + " (" + content.url() + ")");
  }

  /** The Avro schema of an answer by id or GUID; another format is refused, naming {@code what}. */
  private Schema avroSchema(JsonNode json, RestRequest request, String what) {
    String type = json.path("schemaType").asText("AVRO");
    if (!"AVRO".equalsIgnoreCase(type)) {
      throw new InvalidSchemaException(what + " is a " + type + " schema; Kavro reads Avro only");
    }
    return schemas.parse(json, request);
  }

  @Override
  public UUID guidOf(int id) {
    JsonNode guid = send(byId("get guid of schema id " + id, id)).path("guid");
    if (!guid.isTextual()) {
      return null;
    }
    try {
      return UUID.fromString(guid.asText());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Sends a call of an optional API. A registry's answer that may say it lacks the API (for Confluent's GUID,
   * metadata and associations APIs, {@link OptionalApi#knownAnswersOnly()}, only a shape known for the kind of
   * registry the URL leads to, Apicurio 3's 204 without a body on its URL included; for Apicurio's own APIs, a JSON
   * or empty 404 without a registry error code) is asked about once; any other 404 (a proxy's page, a load
   * balancer's empty 404) is an outage, retried and failed over as ever. If the core API answers, the registry lacks
   * the optional one, which is remembered for {@link OptionalApi#MISSING_TTL} (no request is sent to it meanwhile),
   * then asked again; if the core API answers such a 404 too, the URL is wrong ({@link WrongRegistryUrlException},
   * at once); if it does not answer, the registry is unavailable, and that is retried and failed over as ever.
   * Neither is remembered. A success without JSON is an outage, retried and failed over by the transport (a login
   * page, a proxy), from Apicurio's own APIs too (for a schema's content, which is its text as uploaded, comments
   * and all, a page or no body: {@link RestTransport#sendContent}), but for Apicurio 3's 204 without a body on its
   * URL, which is asked about as above.
   *
   * @throws UnsupportedRegistryApiException when the registry lacks {@code api}
   */
  private JsonNode sendOptional(OptionalApi api, RestRequest request) {
    return sendOptional(api, request, this::send);
  }

  /** {@link #sendOptional(OptionalApi, RestRequest)}, with {@code send} reading the answer. */
  private <T> T sendOptional(OptionalApi api, RestRequest request, Function<RestRequest, T> send) {
    if (missing(api)) {
      throw unsupported(api, request.operation(), "as it answered before, less than "
          + OptionalApi.MISSING_TTL.toMinutes() + " minutes ago", null);
    }
    try {
      return sendFirst(request.of(api), send);
    } catch (NoSuchApiAnswerException e) {
      probeCoreApi();
      missingApis.put(api, Boolean.TRUE);
      throw unsupported(api, request.operation(), "it answered " + e.getMessage() + ", while its core API answers",
          e);
    }
  }

  /**
   * Sends a call of an optional API whose 404 from a URL that never answered as a registry (the serde's first call
   * may be one: the default subject name strategy's, a GUID-framed record's reader) is sent on once the core API
   * answers: a wrong URL ({@link WrongRegistryUrlException}) when the core API answers such a 404 too; else the
   * call goes on with its retries and failover, as an outage, since something in between answered for its path.
   */
  private <T> T sendFirst(RestRequest call, Function<RestRequest, T> send) {
    try {
      return send.apply(call);
    } catch (UnprovenNotFoundException e) {
      probeCoreApi();
      // Even when the core API's answer (a 401, a 403) proved no URL, the call goes on as an outage, retried and
      // failed over: the transport no longer takes its 404 for a sign of a wrong URL.
      return send.apply(call.afterCoreApiAnswered());
    }
  }

  /**
   * Asks the core API whether the registry answers at all: any answer of the registry's own (a 2xx, or an
   * error with its error code, a 401 or a 403 included) says yes, and is no failed call of the client's
   * ({@link RestTransport#probe}: not counted in {@link RegistryStats#errors()}).
   *
   * @throws RegistryUnavailableException when it does not answer, after retries and failover
   * @throws WrongRegistryUrlException when it answers a 404 that is not the registry's own: the URL is wrong
   * @throws RegistryInterruptedException when the calling thread is interrupted meanwhile
   */
  private void probeCoreApi() {
    transport.probe(RestRequest.get("check that the registry answers", "config"));
  }

  /** Whether the registry said it lacks {@code api} less than {@link OptionalApi#MISSING_TTL} ago. */
  private boolean missing(OptionalApi api) {
    return missingApis.getIfPresent(api) != null;
  }

  private UnsupportedRegistryApiException unsupported(OptionalApi api, String operation, String how,
      SchemaRegistryException cause) {
    return new UnsupportedRegistryApiException(operation + " failed: the registry does not have "
        + api.description + " (" + how + "); Kavro asks it again after " + OptionalApi.MISSING_TTL.toMinutes()
        + " minutes", cause == null ? 404 : cause.status(),
        cause == null ? -1 : cause.errorCode(), cause == null ? null : cause.url(), cause);
  }

  /**
   * {@inheritDoc}
   *
   * <p>An answer of the registry's own "not found" (a 404xx code, such as Confluent's 40410 "association not
   * found") is no association; an answer that is not a JSON array, or an entry without a subject, is refused. The
   * registry lacks the API only by its own answer for a path it does not serve, in a shape known for the kind of
   * registry the URL leads to (the list is {@code MissingApiAnswers}'s), while its core API answers: remembered for
   * {@link OptionalApi#MISSING_TTL}. Any other 404 (an empty body, a page of text, JSON without Confluent's error code
   * from a URL of Confluent's kind: a proxy's, a load balancer's), and a success without JSON (a login page's 200, a
   * proxy's 204), is an outage, retried and failed over; from a URL that never answered as a registry, whose core API
   * answers such a 404 too, the URL is wrong ({@link WrongRegistryUrlException}), as the serde's first call of the
   * core API would say.
   */
  @Override
  public List<Association> associations(String resourceNamespace, String resourceName, String resourceType,
      String associationType) {
    RestRequest request = RestRequest.get("get the " + associationType + " associations of " + resourceType + " '"
        + resourceName + "' (namespace '" + resourceNamespace + "')", "associations", "resources",
        resourceNamespace, resourceName).withQuery("resourceType", resourceType)
        .withQuery("associationType", associationType);
    JsonNode json;
    try {
      json = sendOptional(OptionalApi.ASSOCIATIONS, request);
    } catch (SchemaNotFoundException e) {
      return List.of();
    }
    if (!json.isArray()) {
      throw new SchemaRegistryException(request.operation() + " failed: the registry's answer is not a JSON array");
    }
    List<Association> associations = new ArrayList<>();
    for (JsonNode entry : json) {
      String subject = entry.path("subject").asText("");
      if (subject.isBlank()) {
        throw malformed(request, "subject");
      }
      associations.add(new Association(subject, textOr(entry, "resourceName", resourceName),
          textOr(entry, "resourceNamespace", resourceNamespace), textOr(entry, "resourceType", resourceType),
          textOr(entry, "associationType", associationType)));
    }
    return List.copyOf(associations);
  }

  /** The field's text, or {@code otherwise} when it is missing or blank. */
  private static String textOr(JsonNode json, String field, String otherwise) {
    String text = json.path(field).asText("");
    return text.isBlank() ? otherwise : text;
  }

  /** {@inheritDoc} Uncached: see {@link HttpDekRegistry}. */
  @Override
  public io.kavro.registry.DekRegistry dekRegistry() {
    return dekRegistry;
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    return subjectVersion(RestRequest.get(operation(subject, "get latest version of subject '" + subject + "'"),
        "subjects", subject, "versions", "latest"), subject);
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    RestRequest request = RestRequest.get(operation(subject, "get latest version of subject '" + subject
        + "' with metadata " + metadata), "subjects", subject, "metadata");
    for (Map.Entry<String, String> entry : new java.util.TreeMap<>(metadata).entrySet()) {
      request = request.withQuery("key", entry.getKey()).withQuery("value", entry.getValue());
    }
    return subjectVersion(sendOptional(OptionalApi.METADATA, request), request, subject);
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    return subjectVersion(RestRequest.get(operation(subject, "get version " + version + " of subject '" + subject
        + "'"), "subjects", subject, "versions", Integer.toString(version)), subject);
  }

  @Override
  public List<String> subjects() {
    JsonNode json = send(RestRequest.get("list subjects", "subjects"));
    List<String> subjects = new ArrayList<>();
    json.forEach(node -> subjects.add(node.asText()));
    return List.copyOf(subjects);
  }

  @Override
  public List<Integer> versions(String subject) {
    return intList(send(RestRequest.get(operation(subject, "list versions of subject '" + subject + "'"),
        "subjects", subject, "versions")));
  }

  @Override
  public boolean isCompatible(String subject, Schema schema) {
    return compatibility(subject, schema, false).compatible();
  }

  /** {@inheritDoc} Asks with {@code verbose=true}, for the registry's messages. */
  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    return compatibility(subject, schema, true);
  }

  private CompatibilityCheck compatibility(String subject, Schema schema, boolean verbose) {
    String operation = operation(subject, "test compatibility with subject '" + subject + "'");
    RestRequest plain = RestRequest.post(operation, schemaBody(schema, List.of(), operation), "compatibility",
        "subjects", subject, "versions", "latest");
    RestRequest request = verbose ? plain.withQuery("verbose", "true") : plain;
    JsonNode json = send(request);
    JsonNode answer = json.get("is_compatible");
    if (answer == null || !answer.isBoolean()) {
      throw malformed(request, "is_compatible");
    }
    if (answer.booleanValue()) {
      // Some registries (Apicurio 3) call any schema compatible with a subject that does not exist: it must
      // exist to say so (SchemaNotFoundException, 40401, otherwise).
      versions(subject);
    }
    List<String> messages = new ArrayList<>(CompatibilityReasons.fromAnswer(json));
    if (verbose && !answer.booleanValue() && messages.isEmpty()) {
      // A registry that gives no reason: Avro's own, against the versions the level in force names.
      CompatibilityInForce level = compatibilityInForce(subject);
      String reason = SchemaIncompatibilities.firstProblem(this, subject, level.level(), schema).orElse(null);
      messages.add(reason != null ? reason + " (Kavro's reading; the registry gave no reason)"
          : "the registry gave no reason, and Avro finds none against the subject's versions at " + level);
    }
    return new CompatibilityCheck(answer.booleanValue(), messages);
  }


  @Override
  public CompatibilityLevel compatibility() {
    return level(send(RestRequest.get("get global compatibility", "config")), "global");
  }

  /**
   * {@inheritDoc}
   *
   * <p>One request, {@code GET /config/{subject}?defaultToGlobal=true}: the registry answers the subject's level, or
   * its global one when the subject sets none. The registry's own "not found" (40401, 40408: registries that ignore
   * {@code defaultToGlobal}) and an answer without a level (a subject config that holds only other settings) mean the
   * global level applies, from {@code GET /config}.
   *
   * <p>The Apicurio rule of {@link #compatibilityInForce} holds here too: from Apicurio's Confluent-compatible API a
   * {@code NONE} may be a subject that sets none from a version that ignores {@code defaultToGlobal}, so only then is
   * the global level asked for as well (a second request, which answers {@code NONE} again when that is the global
   * level).
   */
  @Override
  public CompatibilityLevel compatibility(String subject) {
    Optional<CompatibilityLevel> answered;
    try {
      answered = subjectLevel(RestRequest.get(operation(subject, "get compatibility of subject '" + subject + "'"),
          "config", subject).withQuery("defaultToGlobal", "true"));
    } catch (SchemaNotFoundException e) {
      return compatibility();
    }
    if (answered.isEmpty() || (answered.get() == CompatibilityLevel.NONE && noneMeansUnset)) {
      return compatibility();
    }
    return answered.get();
  }

  /**
   * {@inheritDoc}
   *
   * <p>Asks {@code GET /config/{subject}} without {@code defaultToGlobal}, so that the answer says whose level it
   * is. The registry's own "not found" (Confluent's 40408: the subject sets no level; 40401: no such subject)
   * means the global level applies, from {@code GET /config}, and so does an answer without a level (Confluent 7.x
   * and later keep a subject config that holds only {@code normalize}, {@code metadata}, {@code ruleSets} or
   * {@code alias}). Any other failure is reported as it is: a 404 from something that is no registry is not "the
   * subject sets none". {@link #compatibility(String)} asks with {@code defaultToGlobal} instead, in one request
   * where it can.
   *
   * <p>Apicurio answers {@code NONE} for a subject that sets no level, and keeps no subject level {@code NONE}
   * (setting one removes the subject's rule, and the global one applies). So a {@code NONE} from a registry whose
   * URL is Apicurio's Confluent-compatible API ({@code .../apis/ccompat/v<n>}) means the subject sets none; from
   * any other registry it is the subject's own, as Confluent's contract has it. The limit of this rule: Apicurio
   * reached under another path (a proxy that rewrites it) has its {@code NONE} taken as the subject's own, and a
   * rule of {@code NONE} set through Apicurio's own API is taken as unset.
   */
  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    Optional<CompatibilityLevel> own;
    try {
      own = subjectLevel(RestRequest.get(operation(subject, "get compatibility of subject '" + subject + "'"),
          "config", subject));
    } catch (SchemaNotFoundException e) {
      return new CompatibilityInForce(compatibility(), CompatibilityInForce.Scope.GLOBAL);
    }
    if (own.isEmpty() || (own.get() == CompatibilityLevel.NONE && noneMeansUnset)) {
      return new CompatibilityInForce(compatibility(), CompatibilityInForce.Scope.GLOBAL);
    }
    return new CompatibilityInForce(own.get(), CompatibilityInForce.Scope.SUBJECT);
  }

  /** The level a subject's config answers, empty when it holds none (only other settings). */
  private Optional<CompatibilityLevel> subjectLevel(RestRequest request) {
    return levelName(send(request)).map(CompatibilityLevel::parse);
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    send(RestRequest.put("set global compatibility", levelBody(level), "config"));
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    send(RestRequest.put(operation(subject, "set compatibility of subject '" + subject + "'"), levelBody(level),
        "config", subject));
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    return intList(send(RestRequest.delete(operation(subject, "delete subject '" + subject + "'"), "subjects",
        subject)));
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    return intList(send(RestRequest.delete(operation(subject, "permanently delete subject '" + subject + "'"),
        "subjects", subject).withQuery("permanent", "true")));
  }

  @Override
  public int deleteVersion(String subject, int version) {
    return send(RestRequest.delete(operation(subject, "delete version " + version + " of subject '" + subject + "'"),
        "subjects", subject, "versions", Integer.toString(version))).asInt(version);
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    return send(RestRequest.delete(operation(subject, "permanently delete version " + version + " of subject '"
        + subject + "'"), "subjects", subject, "versions", Integer.toString(version)).withQuery("permanent", "true"))
        .asInt(version);
  }

  @Override
  public RegistryStats stats() {
    return transport.stats();
  }

  /** Closes the connections, on the client itself; a context's view leaves them to it. */
  @Override
  public void close() {
    if (root == this) {
      http.close();
    }
  }

  private JsonNode send(RestRequest request) {
    return transport.send(request);
  }

  /**
   * {@code operation}, once {@code subject} is one a request can carry ({@link SubjectNames#checked}), and one this
   * registry can hold: a context-qualified subject is refused by name on Apicurio Registry, which has no contexts.
   */
  private String operation(String subject, String operation) {
    SubjectNames.checked(subject, operation);
    if (apicurio && !SchemaContexts.of(subject).isEmpty()) {
      throw noContexts(operation, "subject '" + subject + "' is in schema context '" + SchemaContexts.of(subject)
          + "', which");
    }
    return operation;
  }

  private RestRequest normalized(RestRequest request) {
    return normalize ? request.withQuery("normalize", "true") : request;
  }

  private SubjectVersion subjectVersion(RestRequest request, String subject) {
    return subjectVersion(send(request), request, subject);
  }

  private SubjectVersion subjectVersion(JsonNode json, RestRequest request, String subject) {
    int id = requiredInt(json, "id", request);
    SubjectVersion version = new SubjectVersion(json.path("subject").asText(subject),
        requiredInt(json, "version", request), id, schemas.parse(json, request),
        ContractJson.read(json, request.operation()));
    if (ownContext(subject)) {
      contracts.put(id, ContractJson.part(json));
    }
    return version;
  }

  private static ObjectNode schemaBody(Schema schema, List<SchemaReference> references, String operation) {
    ObjectNode body = JsonBodies.object().put("schema", ReferencedTypes.text(schema, references, operation));
    if (!references.isEmpty()) {
      ArrayNode array = body.putArray("references");
      references.forEach(r -> array.addObject().put("name", r.name()).put("subject", r.subject())
          .put("version", r.version()));
    }
    return body;
  }

  private static ObjectNode levelBody(CompatibilityLevel level) {
    return JsonBodies.object().put("compatibility", level.name());
  }

  private static CompatibilityLevel level(JsonNode json, String scope) {
    return levelName(json).map(CompatibilityLevel::parse).orElseThrow(() -> new SchemaRegistryException(
        "the registry's " + scope + " config has no compatibility level: " + ErrorMapping.shorten(json.toString())));
  }

  /** The level a config answer names: Confluent's {@code compatibilityLevel}, or others' {@code compatibility}. */
  private static Optional<String> levelName(JsonNode json) {
    return Optional.ofNullable(json.path("compatibilityLevel").asText(json.path("compatibility").asText(null)));
  }

  private static int requiredInt(JsonNode json, String field, RestRequest request) {
    JsonNode node = json.get(field);
    if (node == null || !node.canConvertToInt()) {
      throw malformed(request, field);
    }
    return node.intValue();
  }

  private static List<Integer> intList(JsonNode json) {
    List<Integer> values = new ArrayList<>();
    json.forEach(node -> values.add(node.asInt()));
    return List.copyOf(values);
  }

  private static SchemaRegistryException malformed(RestRequest request, String field) {
    return new SchemaRegistryException(request.operation() + " failed: the registry's answer has no valid '"
        + field + "' field");
  }
}
