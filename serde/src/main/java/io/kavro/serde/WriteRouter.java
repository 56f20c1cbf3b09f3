package io.kavro.serde;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.SubjectVersion;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.serde.framing.SchemaIdWriter;
import io.kavro.serde.rules.InlineBinding;
import io.kavro.serde.subject.RegistryAwareStrategy;
import io.kavro.serde.subject.StandingSubject;
import io.kavro.serde.subject.SubjectNameStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Conversion;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificRecordBase;
import org.apache.kafka.common.errors.SerializationException;

/**
 * The serializer's registry step: the route of a datum schema on a topic, from where its writer schema and id
 * come, in Confluent's order of precedence (auto-registration, a fixed id, a fixed GUID, the latest version with
 * metadata, the latest version, a lookup). Immutable and thread-safe.
 */
final class WriteRouter {
  private final SchemaRegistryClient client;
  private final boolean isKey;
  private final SubjectNameStrategy subjects;
  /** Stops the strategy's refreshes in the background ({@link RegistryAwareStrategy#refreshInBackground}). */
  private final AutoCloseable refreshes;
  private final Source source;
  private final int useSchemaId;
  private final UUID useSchemaGuid;
  private final RegistryConfig registry;
  private final boolean idCompatibilityStrict;
  private final Map<String, String> latestWithMetadata;
  private final boolean latestCompatibilityStrict;
  private final boolean idInHeader;
  private final WritePlanner planner;
  private final RuleEngine rules;
  /** Inline validation rules, or null when disabled. */
  private final InlineValidation inline;

  /** Where the writer schema and id of a route come from. */
  enum Source {
    REGISTER, SCHEMA_ID, SCHEMA_GUID, LATEST_WITH_METADATA, LATEST, LOOKUP;

    static Source of(AvroSerdeConfig config) {
      if (config.autoRegisterSchemas()) {
        return REGISTER;
      }
      if (config.useSchemaId() >= 0) {
        return SCHEMA_ID;
      }
      if (config.useSchemaGuid() != null) {
        return SCHEMA_GUID;
      }
      if (!config.latestWithMetadata().isEmpty()) {
        return LATEST_WITH_METADATA;
      }
      return config.useLatestVersion() ? LATEST : LOOKUP;
    }

    /** Whether the route can change while the serializer lives. */
    boolean followsLatest() {
      return this == LATEST || this == LATEST_WITH_METADATA;
    }
  }

  /**
   * Where a datum of one schema goes on one topic: the subject, the registered id and where it is put, and, when
   * the registered writer schema differs from the datum's, how to project onto it.
   */
  record WriteRoute(String subject, int id, WritePlanner.Projection projection, SchemaIdWriter placement,
      WriteRules rules, long refreshAt) {
    /**
     * Whether the route runs rules. The record path asks this rather than {@code rules() != null}: while no route
     * has rules, {@link WriteRules} is not loaded, and the JIT does not inline an accessor whose signature names a
     * class not loaded, so every record would pay a call.
     */
    boolean hasRules() {
      return rules != null;
    }

    /**
     * This route, to be asked again at {@code refreshAt} (the engine's clock, {@link System#nanoTime()}): when it
     * follows latest, or when its subject stands only so long; {@link Long#MAX_VALUE} for never.
     */
    WriteRoute refreshingAt(long refreshAt) {
      return new WriteRoute(subject, id, projection, placement, rules, refreshAt);
    }
  }

  WriteRouter(SchemaRegistryClient client, AvroSerdeConfig config, WritePlanner planner, RuleEngine rules,
      InlineValidation inline) {
    this.client = client;
    this.rules = rules;
    this.inline = inline;
    this.isKey = config.isKey();
    this.subjects = config.subjectNameStrategy();
    // A subject whose time is over is asked again off the record path: no record waits on the registry for it.
    this.refreshes = subjects instanceof RegistryAwareStrategy aware
        ? aware.refreshInBackground(RegistryRefresher.executor()) : () -> {};
    this.source = Source.of(config);
    this.useSchemaId = config.useSchemaId();
    this.useSchemaGuid = config.useSchemaGuid();
    this.registry = config.registryConfig();
    this.idCompatibilityStrict = config.idCompatibilityStrict();
    this.latestWithMetadata = config.latestWithMetadata();
    this.latestCompatibilityStrict = config.latestCompatibilityStrict();
    this.idInHeader = config.schemaIdInHeader();
    this.planner = planner;
  }

  /** Whether routes follow the latest version, which may move: they are asked again now and then. */
  boolean followsLatest() {
    return source.followsLatest();
  }

  /**
   * The subject that a datum schema has on a topic, with how long it stands in nanoseconds, from one answer: its
   * strategy's word when it asks the registry ({@link RegistryAwareStrategy#standingSubject}), else for good
   * ({@link Long#MAX_VALUE}).
   */
  StandingSubject subject(String topic, Schema schema) {
    return subjects instanceof RegistryAwareStrategy aware ? aware.standingSubject(topic, isKey, schema)
        : new StandingSubject(subjects.subjectName(topic, isKey, schema), Long.MAX_VALUE);
  }

  /** Stops the strategy's refreshes in the background: one still queued asks nothing. */
  void close() {
    try {
      refreshes.close();
    } catch (Exception e) {
      // the strategy's own: nothing of the record path depends on it
    }
  }

  /** Has {@code listener} run when every subject may have changed (see {@link RegistryAwareStrategy#onChange}). */
  AutoCloseable onSubjectsChange(Runnable listener) {
    return subjects instanceof RegistryAwareStrategy aware ? aware.onChange(listener) : () -> {};
  }

  /**
   * The route of {@code plan}'s datums on {@code topic}: {@code known} itself when the latest version has not
   * moved.
   *
   * @param record the record, for messages
   * @throws SchemaRegistryException when the registry refuses or fails
   * @throws SerializationException when the datum's schema does not fit the registered one
   */
  WriteRoute route(String subject, WritePlanner.WritePlan plan, WriteRoute known, Object datum, String record) {
    int id;
    WritePlanner.Projection projection = null;
    Schema target = plan.registered();
    DataContract contract = null;
    UUID guid = null;
    switch (source) {
      case REGISTER -> {
        id = Registration.register(client, subject, plan.registered());
        contract = rules.ignoresRules() ? null : TopicIds.ofSubject(client, subject).registeredContract(id);
      }
      case LOOKUP -> {
        SubjectVersion found = client.lookup(subject, plan.registered());
        id = found.id();
        contract = found.contract();
      }
      case SCHEMA_ID -> {
        id = useSchemaId;
        target = TopicIds.ofSubject(client, subject).schemaById(useSchemaId);
        projection = projection(record, plan, datum, target, idCompatibilityStrict,
            "the schema of id " + useSchemaId + " (use.schema.id), as id.compatibility.strict=true requires");
      }
      case SCHEMA_GUID -> {
        guid = useSchemaGuid;
        target = SchemaGuids.schema(client, guid, registry, record);
        projection = projection(record, plan, datum, target, idCompatibilityStrict,
            "the schema of GUID " + guid + " (use.schema.guid), as id.compatibility.strict=true requires");
        id = SchemaGuids.idUnder(client, subject, guid, target, record);
        contract = client.contractOf(guid);
      }
      default -> {
        boolean withMetadata = source == Source.LATEST_WITH_METADATA;
        SubjectVersion latest = withMetadata ? client.latestWithMetadata(subject, latestWithMetadata)
            : client.latestVersion(subject);
        if (known != null && known.id() == latest.id()) {
          return known;
        }
        id = latest.id();
        target = latest.schema();
        contract = latest.contract();
        projection = projection(record, plan, datum, latest.schema(), !withMetadata && latestCompatibilityStrict,
            "the latest schema of subject '" + subject + "' (version " + latest.version() + ", id " + latest.id()
                + "), as latest.compatibility.strict=true requires");
      }
    }
    SchemaIdWriter placement = idInHeader
        ? SchemaIdWriter.header(id, guid != null ? guid : TopicIds.ofSubject(client, subject).guidOf(id), isKey)
        : SchemaIdWriter.prefix(id, isKey);
    return new WriteRoute(subject, id, projection, placement,
        rules(subject, id, target, contract, record, plan, datum), Long.MAX_VALUE);
  }

  /** The rules of the schema version a route writes with, prepared once; null when it has none. */
  private WriteRules rules(String subject, int id, Schema target, DataContract known, String record,
      WritePlanner.WritePlan plan, Object datum) {
    String at = "schema id " + id + " of " + record;
    WriteRules.Inline checks = inline == null ? null : WriteRules.Inline.of(inline, target, at, binding(plan, datum));
    if (rules.ignoresRules()) {
      rules.ignoring(Rule.Mode.WRITE, () -> subject,
          () -> known != null ? known : TopicIds.ofSubject(client, subject).registeredContract(id));
      return WriteRules.of(target, null, null, checks);
    }
    DataContract contract = known != null ? known : TopicIds.ofSubject(client, subject).contractOf(id);
    if (!contract.hasRules()) {
      return WriteRules.of(target, null, null, checks);
    }
    RuleSet ruleSet = contract.ruleSet();
    return WriteRules.of(target,
        rules.plan(Rule.Mode.WRITE, subject, target, contract, ruleSet.domainRules(), ruleSet.enableAt(), at),
        rules.plan(Rule.Mode.WRITE, subject, target, contract, ruleSet.encodingRules(), ruleSet.enableAt(), at),
        checks);
  }

  /**
   * What inline rules' {@code this} is for the datums of {@code plan}: the application's object, as Confluent's
   * serializer binds it. Per logical type, by the conversions it is written with (the model's: a generated class's
   * own {@code MODEL$}, reflection's, generic data's only under {@code avro.use.logical.type.converters}; and a
   * generated record's fields' own), less those whose value a generated or reflected class declares as the
   * underlying type (a {@code ByteBuffer} decimal, a {@code long} timestamp); never by the kind of datum alone. Per
   * logical type: a class holding one both ways has it bound as the underlying value throughout.
   */
  private static InlineBinding binding(WritePlanner.WritePlan plan, Object datum) {
    List<Conversion<?>> conversions = new ArrayList<>(plan.model().getConversions());
    if (plan.kind() != WritePlanner.DatumKind.GENERIC && datum != null) {
      // a class's field declared as the underlying type holds it so: a long of a timestamp-millis (reflection), a
      // ByteBuffer decimal generated with enableDecimalLogicalType=false, whose MODEL$ has the decimal conversion
      java.util.Set<String> underlying = DeclaredConversions.heldUnderlying(plan.schema(), datum.getClass(),
          plan.model());
      conversions.removeIf(conversion -> underlying.contains(conversion.getLogicalTypeName()));
    }
    if (datum instanceof SpecificRecordBase record) {
      for (int field = 0; field < record.getSchema().getFields().size(); field++) {
        Conversion<?> own = record.getConversion(field);
        if (own != null) {
          conversions.add(own);
        }
      }
    }
    return InlineBinding.of(conversions);
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
}
