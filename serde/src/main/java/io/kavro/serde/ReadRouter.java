package io.kavro.serde;

import io.kavro.registry.ApicurioId;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.serde.ReadPlanner.ReadRoute;
import io.kavro.serde.framing.ResolverKey;
import io.kavro.serde.framing.SchemaIdReader;
import io.kavro.serde.subject.SubjectNameStrategy;
import java.util.ArrayList;
import java.util.List;
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
  /** The client of a topic's ids: {@link #client}, or its subject's where ids count per subject. */
  private final TopicIds ids;
  private final boolean isKey;
  private final boolean useLatestVersion;
  private final Map<String, String> latestWithMetadata;
  private final SubjectNameStrategy subjects;
  private final ReadPlanner planner;
  private final WriterVersions versions;
  private final SchemaIdReader framing;
  private final RuleEngine rules;

  /**
   * @param framing the framing whose resolver's keys it may be asked about
   * @param nanoClock the clock of the topics' contexts ({@link TopicIds})
   * @param contextStats where reads of the topics' contexts are counted, or {@code null} (production): for tests
   */
  ReadRouter(SchemaRegistryClient client, AvroSerdeConfig config, SchemaIdReader framing, RuleEngine rules,
      java.util.function.LongSupplier nanoClock, com.github.benmanes.caffeine.cache.stats.StatsCounter contextStats) {
    this.client = client;
    this.rules = rules;
    this.framing = framing;
    this.isKey = config.isKey();
    this.useLatestVersion = config.useLatestVersion();
    this.latestWithMetadata = config.latestWithMetadata();
    this.subjects = config.subjectNameStrategy();
    this.planner = new ReadPlanner(config);
    this.ids = new TopicIds(client, subjects, isKey,
        io.kavro.serde.subject.AssociatedNameStrategy.cacheSize(config.originals()), nanoClock, contextStats);
    this.versions = new WriterVersions(ids, config.registryConfig().missingCacheSize());
  }

  /** See {@link TopicIds#contextual}. */
  boolean contextual() {
    return ids.contextual();
  }

  /** The owner of each topic's context: see {@link TopicIds#context} and {@link TopicIds#stands}. */
  TopicIds ids() {
    return ids;
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
   * @param context the topic's context its route table was chosen for, whose ids {@code id} names; {@code null}:
   *     asked of {@link TopicIds#of(String)}
   * @throws io.kavro.registry.SchemaRegistryException when the registry fails or knows no such schema
   * @throws SchemaResolutionException when the writer schema cannot be read as the reader schema
   */
  ReadRoute route(String topic, int id, Object key, ReadRoute known, String record,
      TopicIds.TopicContext context) {
    Schema writer = known != null ? known.writerSchema() : writerSchema(topic, id, key, context, record);
    SubjectVersion latest = latestVersion(topic, writer, record);
    Schema reader = latest != null ? latest.schema() : readerSchema(writer, record);
    if (known != null && known.readerSchema() == reader) {
      return known;
    }
    // Apicurio's ids and a resolver's keys name schemas of registries that keep no contracts.
    ReadRules rules = key == null || key instanceof UUID ? rules(topic, id, (UUID) key, writer, latest, record,
        context) : null;
    if (rules == null) {
      return planner.plan(id, writer, reader, record);
    }
    return planner.plan(id, rules.output(), reader, record).withRules(writer, rules);
  }

  /**
   * The rules of the versions a route reads: the writer's encoding rules, the migrations to the reader's version
   * when it is the subject's latest ({@code use.latest.*}), and the domain rules of the target version (that
   * one, else the writer's); null when none runs.
   */
  private ReadRules rules(String topic, int id, UUID guid, Schema writer, SubjectVersion latest, String record,
      TopicIds.TopicContext context) {
    if (rules.ignoresRules()) {
      rules.ignoring(Rule.Mode.READ, () -> subjects.subjectName(topic, isKey, writer),
          () -> guid != null ? client.contractOf(guid) : ids.of(topic, context).contractOf(id));
      return null;
    }
    DataContract written = guid != null ? client.contractOf(guid) : ids.of(topic, context).contractOf(id);
    DataContract target = latest != null ? latest.contract() : written;
    if (!written.hasRules() && !target.hasRules() && latest == null) {
      return null;
    }
    String subject = subjects.subjectName(topic, isKey, writer);
    String at = (guid != null ? "schema guid " + guid : "schema id " + id) + " of " + record;
    List<RulePlan> migrations = latest == null || latest.schema().equals(writer) ? List.of()
        : migrations(subject, writer, latest, at);
    if (!written.hasRules() && !target.hasRules() && migrations.isEmpty()) {
      return null;
    }
    Schema targetSchema = latest != null ? latest.schema() : writer;
    RulePlan encoding = rules.plan(Rule.Mode.READ, subject, writer, written, written.ruleSet().encodingRules(),
        written.ruleSet().enableAt(), at);
    RulePlan domain = rules.plan(Rule.Mode.READ, subject, targetSchema, target, target.ruleSet().domainRules(),
        target.ruleSet().enableAt(), at);
    return ReadRules.of(writer, targetSchema, encoding, migrations, domain);
  }

  /**
   * The migrations from the writer's version to the latest, as Confluent walks them: every version in between,
   * each step running the migration rules of the newer version (UPGRADE) or of the older one, newest first
   * (DOWNGRADE).
   */
  private List<RulePlan> migrations(String subject, Schema writer, SubjectVersion latest, String record) {
    int from = writerVersion(subject, writer);
    if (from < 0) {
      return List.of(); // not a version of this subject (another subject's schema): nothing to migrate from
    }
    int to = latest.version();
    if (from == to) {
      return List.of();
    }
    boolean upgrade = from < to;
    List<RulePlan> steps = new ArrayList<>();
    SubjectVersion previous = client.version(subject, from);
    for (int v = upgrade ? from + 1 : from - 1; upgrade ? v <= to : v >= to; v += upgrade ? 1 : -1) {
      SubjectVersion current = v == to ? latest : client.version(subject, v);
      // Both run the newer version's rules: UPGRADE the one walked up to, DOWNGRADE the one walked down from.
      SubjectVersion holder = upgrade ? current : previous;
      RuleSet ruleSet = holder.contract().ruleSet();
      RulePlan step = rules.plan(upgrade ? Rule.Mode.UPGRADE : Rule.Mode.DOWNGRADE, subject, holder.schema(),
          holder.contract(), ruleSet.migrationRules(), ruleSet.enableAt(), record);
      if (step != null) {
        steps.add(step);
      }
      previous = current;
    }
    return steps;
  }

  /**
   * The version of {@code subject} that holds {@code writer}, or -1: by a lookup, else (a registry that matches a
   * lookup on the exact text, as Apicurio does, where the schema was registered in another form) by comparing the
   * parsed schemas of its versions, newest first. At plan time only.
   */
  private int writerVersion(String subject, Schema writer) {
    try {
      return client.lookup(subject, writer).version();
    } catch (io.kavro.registry.SchemaNotFoundException e) {
      List<Integer> versions;
      try {
        versions = client.versions(subject);
      } catch (io.kavro.registry.SchemaNotFoundException none) {
        return -1;
      }
      for (int i = versions.size() - 1; i >= 0; i--) {
        if (client.version(subject, versions.get(i)).schema().equals(writer)) {
          return versions.get(i);
        }
      }
      return -1;
    }
  }

  /**
   * The subject's latest version that the reader takes ({@code use.latest.with.metadata}, then
   * {@code use.latest.version}), unless the configuration names a reader schema itself; null when it does not.
   */
  private SubjectVersion latestVersion(String topic, Schema writer, String record) {
    if (planner.configuredReader(writer, record) != null) {
      return null;
    }
    if (!latestWithMetadata.isEmpty()) {
      return client.latestWithMetadata(subjects.subjectName(topic, isKey, writer), latestWithMetadata);
    }
    if (useLatestVersion) {
      return client.latestVersion(subjects.subjectName(topic, isKey, writer));
    }
    return null;
  }

  /**
   * The writer schema of {@code topic}'s schema {@code id}, or of {@code key} when not {@code null}; a framing
   * resolver that cannot run is named as {@code record}'s failure.
   */
  private Schema writerSchema(String topic, int id, Object key, TopicIds.TopicContext context, String record) {
    if (key == null) {
      return ids.of(topic, context).schemaById(id);
    }
    if (key instanceof UUID guid) {
      return client.schemaByGuid(guid);
    }
    if (key instanceof ApicurioId apicurioId) {
      return client.schemaByApicurioId(apicurioId);
    }
    try {
      return framing.writerSchema((ResolverKey) key);
    } catch (SchemaResolutionException | UnsupportedFramingException e) {
      throw DeserializerEngine.onRecord(record, e); // a MalformedPayloadException is named by the engine
    }
  }

  /** See {@link KafkaAvroDeserializer#writerVersion}. */
  Integer writerVersion(String topic, AvroValue read) {
    return versions.of(topic, read);
  }

  private Schema readerSchema(Schema writer, String record) {
    Schema configured = planner.configuredReader(writer, record);
    return configured != null ? configured : writer;
  }
}
