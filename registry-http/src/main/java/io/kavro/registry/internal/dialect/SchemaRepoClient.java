package io.kavro.registry.internal.dialect;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.CompatibilityCheck;
import io.kavro.registry.CompatibilityInForce;
import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.InvalidSchemaException;
import io.kavro.registry.RegistryStats;
import io.kavro.registry.SchemaIncompatibilities;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaReference;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.internal.http.ErrorMapping;
import io.kavro.registry.internal.http.RegisteredSchemaParser;
import io.kavro.registry.internal.http.RestRequest;
import io.kavro.registry.internal.http.RestTransport;
import io.kavro.registry.internal.schema.SchemaDefaults;
import io.kavro.registry.internal.schema.SubjectNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import okhttp3.MediaType;
import org.apache.avro.Schema;

/**
 * A {@link SchemaRegistryClient} that speaks schema-repo's REST API (AVRO-1124, schema-repo 0.1.x), with no cache.
 * {@code schema.registry.url} is the repository's base URL ({@code http://host:port/schema-repo}).
 *
 * <p><b>Ids count per subject</b> ({@link #idsPerSubject()}): each subject numbers its schemas 0, 1, 2... So an id
 * means nothing without its subject: {@link #schemaById(int)} refuses, and {@link #forSubject} gives the client of
 * one subject's ids. Kavro calls the schema of id {@code n} the subject's version {@code n + 1}, which is its place
 * in the subject's history for every repository that schema-repo ships (in memory, local files, ZooKeeper).
 *
 * <p><b>Lookup</b> finds a schema by its parsed form, not only by its text: the repository matches texts exactly,
 * and a schema registered through its own REST API (a pretty-printed {@code .avsc}) is the same schema in another
 * text. So a lookup asks for the exact text first ({@code POST /{subject}/schema}), then reads the subject's
 * schemas ({@code GET /{subject}/all}) and compares each one's parsed form ({@link Schema#toString()} of the parsed
 * text) with the schema's; each registered text is parsed once, and kept (a text always parses the same).
 *
 * <p><b>Registration</b> first looks the schema up so, and answers the id found: a schema the repository holds in
 * another text gets no second id. Otherwise it creates a subject that does not exist yet, with the validators of
 * {@code schema.repo.validators}, then registers the schema's text ({@link Schema#toString()}). When the validators
 * refuse it (a 403 without a reason), the reason is Avro's, found as the seed's full-compatibility validator finds
 * it: the new schema against each version, newest first, each way.
 *
 * <p><b>Subjects</b> are checked ({@link SubjectNames}: not empty, {@code .} or {@code ..}) and sent percent-encoded
 * ({@link io.kavro.registry.internal.http.Urls#encode}), so {@code a;b} reaches the subject {@code a;b}, never {@code
 * a}.
 *
 * <p><b>What schema-repo does not have</b> is a missing optional API, an {@link UnsupportedRegistryApiException}
 * without a request: references, data contracts, GUIDs, metadata, compatibility levels (its validators are set when
 * a subject is created) and deletes.
 *
 * <p>Thread-safe.
 */
public final class SchemaRepoClient implements SchemaRegistryClient {
  private static final MediaType TEXT = MediaType.get("text/plain; charset=utf-8");
  private static final MediaType FORM = MediaType.get("application/x-www-form-urlencoded");
  private static final String VALIDATORS_FIELD = "repo.validators";

  private final RegistryHttp http;
  private final RestTransport transport;
  private final List<String> validators;
  /** Each registered text, parsed once: a text always parses the same, whatever subject or id holds it. */
  private final com.github.benmanes.caffeine.cache.Cache<String, ParsedText> parsed;
  /** How many registered texts were parsed: each once while it stays in {@link #parsed}. */
  private final java.util.concurrent.atomic.LongAdder parses = new java.util.concurrent.atomic.LongAdder();

  /** A client of schema-repo's protocol on {@code http}, which {@link #close()} closes. */
  public SchemaRepoClient(RegistryConfig config, RegistryHttp http) {
    this.http = http;
    this.transport = http.transport(SchemaRepoDialect.INSTANCE);
    this.validators = config.schemaRepoValidators();
    this.parsed = com.github.benmanes.caffeine.cache.Caffeine.newBuilder()
        .maximumSize(config.maxSchemasPerSubject()).build();
  }

  /**
   * A registered text as Avro reads it: its schema and parsed form ({@link Schema#toString()}), or, for a text Avro
   * cannot parse, Avro's reason.
   */
  private record ParsedText(Schema schema, String form, String failure) {}

  @Override
  public boolean idsPerSubject() {
    return true;
  }

  @Override
  public SchemaRegistryClient forSubject(String subject) {
    String checked = SubjectNames.checked(subject, "read the ids");
    // One subject's ids: schemaById answers that subject's schema of an id, every other call is this client's.
    return new SubjectRoutes(this, name -> this, id -> schemaById(checked, id));
  }

  @Override
  public int register(String subject, Schema schema, List<SchemaReference> references) {
    String operation = checked(subject, "register schema under subject '" + subject + "'");
    refuseReferences(references, operation);
    SchemaDefaults.check(schema, operation);
    try {
      return lookupId(subject, schema, operation);
    } catch (SchemaNotFoundException notThere) {
      // Not in the subject, in any text, or no such subject: registered below.
    }
    RestRequest request = RestRequest.put(operation, text(schema), subject, "register");
    try {
      return id(sendRegistration(request, subject), request);
    } catch (IncompatibleSchemaException refused) {
      throw withReason(refused, subject, schema);
    }
  }

  /** Registers, creating the subject first when the repository does not have it. */
  private String sendRegistration(RestRequest request, String subject) {
    try {
      return transport.sendText(request);
    } catch (SchemaNotFoundException noSubject) {
      createSubject(subject);
      return transport.sendText(request);
    }
  }

  /**
   * {@code PUT /{subject}} with the configured validators. Creating a subject that exists keeps its configuration
   * (the repository ignores the new one), so two clients creating it at once agree.
   */
  private void createSubject(String subject) {
    String form = validators.isEmpty() ? "" : VALIDATORS_FIELD + "="
        + java.net.URLEncoder.encode(String.join(",", validators), java.nio.charset.StandardCharsets.UTF_8);
    transport.sendText(RestRequest.put("create subject '" + subject + "'", new RestRequest.Body(form, FORM), subject));
  }

  /** The refusal, with Avro's reason when it finds one, against the versions the subject holds now. */
  private IncompatibleSchemaException withReason(IncompatibleSchemaException refused, String subject,
      Schema schema) {
    String reason;
    try {
      reason = firstProblem(history(subject), schema);
    } catch (SchemaRegistryException e) {
      refused.addSuppressed(e);
      return refused;
    }
    String why = reason != null ? reason + " (Kavro's reading: schema-repo gives no reason)"
        : "schema-repo gives no reason, and Avro finds none against the subject's versions: a validator of "
            + "its own refused it";
    IncompatibleSchemaException described = new IncompatibleSchemaException(refused.getMessage() + ": " + why, why,
        refused.status(), refused.errorCode(), refused.url(), null);
    described.addSuppressed(refused);
    return described;
  }

  /**
   * The first reason {@code candidate} cannot stand beside the subject's versions, as the seed's full-compatibility
   * validator checks it: against each version, newest first, the new schema reading the version's records, then
   * the version reading the new schema's; {@code null} when it can.
   */
  static String firstProblem(List<SubjectVersion> newestFirst, Schema candidate) {
    for (SubjectVersion version : newestFirst) {
      String reasons = SchemaIncompatibilities.summary(candidate, version.schema());
      if (reasons != null) {
        return "the new schema cannot read id " + version.id() + " (" + reasons + ")";
      }
      reasons = SchemaIncompatibilities.summary(version.schema(), candidate);
      if (reasons != null) {
        return "id " + version.id() + " cannot read the new schema (" + reasons + ")";
      }
    }
    return null;
  }

  @Override
  public SubjectVersion lookup(String subject, Schema schema, List<SchemaReference> references) {
    String operation = checked(subject, "look up schema in subject '" + subject + "'");
    refuseReferences(references, operation);
    int id = lookupId(subject, schema, operation);
    return new SubjectVersion(subject, id + 1, id, schema, DataContract.NONE);
  }

  /**
   * The id of {@code schema} in the subject: the one of its exact text, else the oldest whose registered text parses
   * to the same schema ({@link Schema#toString()} of both alike).
   *
   * @throws SchemaNotFoundException the repository's answer to the exact text, when no text of the subject is the
   *     schema (or there is no such subject)
   */
  private int lookupId(String subject, Schema schema, String operation) {
    RestRequest request = RestRequest.post(operation, text(schema), subject, "schema");
    try {
      return id(transport.sendText(request), request);
    } catch (SchemaNotFoundException notByText) {
      String form = schema.toString();
      int found = -1;
      try {
        for (Entry entry : entries(subject, operation + ", by its parsed form")) {
          ParsedText text = parse(entry.text());
          if (form.equals(text.form()) && (found < 0 || entry.id() < found)) {
            found = entry.id();
          }
        }
      } catch (SchemaNotFoundException noSubject) {
        throw notByText;
      }
      if (found < 0) {
        throw notByText;
      }
      return found;
    }
  }

  /** Refused: schema-repo's ids mean a schema only with their subject. */
  @Override
  public Schema schemaById(int id) {
    throw new UnsupportedRegistryApiException("get schema by id " + id + " failed: schema-repo numbers schemas per "
        + "subject, so an id needs its subject (SchemaRegistryClient.forSubject); Kavro reads its records with the "
        + "subject of their topic", -1, -1, null, null);
  }

  /** The schema of id {@code id} in {@code subject}. */
  Schema schemaById(String subject, int id) {
    RestRequest request = RestRequest.get(checked(subject, "get schema id " + id + " of subject '" + subject + "'"),
        subject, "id", Integer.toString(id));
    return RegisteredSchemaParser.parseText(transport.sendText(request), request.operation());
  }

  @Override
  public SubjectVersion latestVersion(String subject) {
    RestRequest request = RestRequest.get(checked(subject, "get latest version of subject '" + subject + "'"),
        subject, "latest");
    String answer = transport.sendText(request);
    int tab = answer.indexOf('\t');
    if (tab < 1) {
      throw malformed(request, answer);
    }
    int id = id(answer.substring(0, tab), request);
    return new SubjectVersion(subject, id + 1, id, RegisteredSchemaParser.parseText(answer.substring(tab + 1),
        request.operation()), DataContract.NONE);
  }

  @Override
  public SubjectVersion version(String subject, int version) {
    checked(subject, "get version " + version + " of subject '" + subject + "'");
    if (version < 1) {
      throw new SchemaNotFoundException("get version " + version + " of subject '" + subject + "' failed: "
          + "schema-repo's versions are its ids plus one, from 1", 404, -1, null, null);
    }
    return new SubjectVersion(subject, version, version - 1, schemaById(subject, version - 1), DataContract.NONE);
  }

  @Override
  public List<String> subjects() {
    RestRequest request = RestRequest.get("list subjects", "");
    List<String> subjects = new ArrayList<>();
    for (JsonNode subject : array(transport.send(request), request)) {
      subjects.add(subject.path("name").asText());
    }
    subjects.sort(null);
    return List.copyOf(subjects);
  }

  @Override
  public List<Integer> versions(String subject) {
    List<Integer> versions = new ArrayList<>();
    history(subject).forEach(version -> versions.add(version.version()));
    versions.sort(null);
    return List.copyOf(versions);
  }

  /** The subject's versions, newest first, as {@code GET /{subject}/all} lists them. */
  List<SubjectVersion> history(String subject) {
    String operation = checked(subject, "list the schemas of subject '" + subject + "'");
    List<SubjectVersion> versions = new ArrayList<>();
    for (Entry entry : entries(subject, operation)) {
      ParsedText text = parse(entry.text());
      if (text.schema() == null) {
        throw new InvalidSchemaException(operation + ", id " + entry.id() + " failed: " + text.failure());
      }
      versions.add(new SubjectVersion(subject, entry.id() + 1, entry.id(), text.schema(), DataContract.NONE));
    }
    return List.copyOf(versions);
  }

  /** One schema of a subject as {@code GET /{subject}/all} lists it: its id and registered text. */
  private record Entry(int id, String text) {}

  /** The subject's schemas, newest first, as {@code GET /{subject}/all} lists them, unparsed. */
  private List<Entry> entries(String subject, String operation) {
    RestRequest request = RestRequest.get(operation, subject, "all");
    List<Entry> entries = new ArrayList<>();
    for (JsonNode entry : array(transport.send(request), request)) {
      entries.add(new Entry(id(entry.path("id").asText(), request), entry.path("schema").asText()));
    }
    return entries;
  }

  /** How many registered texts this client has parsed. */
  long parses() {
    return parses.sum();
  }

  /** {@code text} as Avro reads it, parsed once and kept. */
  private ParsedText parse(String text) {
    return parsed.get(text, key -> {
      parses.increment();
      try {
        Schema schema = RegisteredSchemaParser.parseText(key, "parse a registered schema");
        return new ParsedText(schema, schema.toString(), null);
      } catch (InvalidSchemaException e) {
        return new ParsedText(null, null, e.getMessage());
      }
    });
  }

  /**
   * {@inheritDoc}
   *
   * <p>schema-repo has no such API: Kavro checks as the seed's full-compatibility validator does, against every
   * version of the subject, newest first, each way. A subject without such a validator may take the schema all
   * the same.
   */
  @Override
  public CompatibilityCheck checkCompatibility(String subject, Schema schema) {
    checked(subject, "test compatibility with subject '" + subject + "'");
    String problem = firstProblem(history(subject), schema);
    return new CompatibilityCheck(problem == null, problem == null ? List.of() : List.of(problem));
  }

  @Override
  public CompatibilityLevel compatibility() {
    throw missing("get global compatibility", "compatibility levels: its subjects' validators, set when a subject "
        + "is created (schema.repo.validators), decide what a subject takes");
  }

  @Override
  public CompatibilityInForce compatibilityInForce(String subject) {
    throw missing(checked(subject, "get compatibility of subject '" + subject + "'"), "compatibility levels: its "
        + "subjects' validators, set when a subject is created (schema.repo.validators), decide what a subject takes");
  }

  @Override
  public void setCompatibility(CompatibilityLevel level) {
    throw missing("set global compatibility", "compatibility levels: validators are set per subject when it is "
        + "created (schema.repo.validators)");
  }

  @Override
  public void setCompatibility(String subject, CompatibilityLevel level) {
    throw missing(checked(subject, "set compatibility of subject '" + subject + "'"), "compatibility levels: a "
        + "subject's validators are set when it is created (schema.repo.validators), and cannot change");
  }

  @Override
  public Schema schemaByGuid(UUID guid) {
    throw missing("get schema by guid " + guid, "GUIDs");
  }

  /** {@inheritDoc} schema-repo gives none. */
  @Override
  public UUID guidOf(int id) {
    return null;
  }

  @Override
  public SubjectVersion latestWithMetadata(String subject, Map<String, String> metadata) {
    throw missing(checked(subject, "get latest version of subject '" + subject + "' with metadata " + metadata),
        "metadata");
  }

  @Override
  public List<Integer> deleteSubject(String subject) {
    throw missing(checked(subject, "delete subject '" + subject + "'"), "deletes");
  }

  @Override
  public List<Integer> deleteSubjectPermanently(String subject) {
    throw missing(checked(subject, "permanently delete subject '" + subject + "'"), "deletes");
  }

  @Override
  public int deleteVersion(String subject, int version) {
    throw missing(checked(subject, "delete version " + version + " of subject '" + subject + "'"), "deletes");
  }

  @Override
  public int deleteVersionPermanently(String subject, int version) {
    throw missing(checked(subject, "permanently delete version " + version + " of subject '" + subject + "'"),
        "deletes");
  }

  @Override
  public RegistryStats stats() {
    return transport.stats();
  }

  @Override
  public void close() {
    http.close();
  }

  /** {@code operation}, once {@code subject} is one a request can carry: {@link SubjectNames#checked}. */
  private static String checked(String subject, String operation) {
    SubjectNames.checked(subject, operation);
    return operation;
  }

  private static void refuseReferences(List<SchemaReference> references, String operation) {
    if (!references.isEmpty()) {
      throw missing(operation + " with references " + references, "schema references");
    }
  }

  private static UnsupportedRegistryApiException missing(String operation, String what) {
    return new UnsupportedRegistryApiException(operation + " failed: schema-repo has no " + what, -1, -1, null,
        null);
  }

  private static RestRequest.Body text(Schema schema) {
    return new RestRequest.Body(schema.toString(), TEXT);
  }

  private static Iterable<JsonNode> array(JsonNode json, RestRequest request) {
    if (!json.isArray()) {
      throw malformed(request, json.toString());
    }
    return json;
  }

  /** A schema-repo id: a decimal number from 0, as every repository it ships makes them. */
  private static int id(String text, RestRequest request) {
    String trimmed = text.strip();
    try {
      int id = Integer.parseInt(trimmed);
      if (id >= 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new SchemaRegistryException(request.operation() + " failed: schema-repo answered the id '"
        + ErrorMapping.shorten(trimmed) + "', which is not a number from 0: Kavro reads repositories whose ids "
        + "are (in memory, local files, ZooKeeper)");
  }

  private static SchemaRegistryException malformed(RestRequest request, String answer) {
    return new SchemaRegistryException(request.operation() + " failed: schema-repo's answer is not what its API "
        + "gives: " + ErrorMapping.shorten(answer));
  }
}
