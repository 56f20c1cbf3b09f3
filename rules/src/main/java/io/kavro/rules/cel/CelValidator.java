package io.kavro.rules.cel;

import com.google.protobuf.Timestamp;
import dev.cel.bundle.Cel;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructTypeReference;
import dev.cel.runtime.CelVariableResolver;
import io.kavro.serde.rules.CelRegexEngine;
import io.kavro.serde.rules.InlineBinding;
import io.kavro.serde.rules.InlineChecks;
import io.kavro.serde.rules.InlineValidator;
import io.kavro.serde.rules.RuleException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;

/**
 * Runs Confluent's inline validation rules ({@code confluent:rules}) with CEL, as Confluent's {@code CelValidator}
 * and {@code AvroSchema.validateMessage} do.
 *
 * <p>A rule is an object {@code {"name", "doc", "expr", "sql"}} in the {@code confluent:rules} array of a record
 * schema (then {@code this} is the record, typed as its CEL struct) or of a record's field ({@code this} is the
 * field's value); other entries are skipped. {@code this} is what Confluent's serializer binds, the application's
 * object, declared with its type ({@link InlineValues}): a logical type is declared {@code dyn} as in Confluent's,
 * and is its Java type ({@code timestamp.of(this)}, {@code decimal(this)}) where the serializer's data model has
 * its conversion (a generated class's own {@code MODEL$}, reflection's, generic data's with logical type
 * converters), else its underlying Avro value ({@code timestamp.of(this, "millis")}, {@code this > 0},
 * {@code decimal(this, 2)}), as {@link InlineBinding} says. {@code now} is the time of the check. The walk
 * descends the record's fields, arrays ({@code path[i]}), maps ({@code path[#i]}, the entry's position) and the
 * branch of unions, and only where the schema has a rule below (known once per schema version); a field whose
 * schema is a union with {@code null} and whose value is null skips its rules. A rule fails when it answers
 * {@code false} or a non-empty string, or cannot run (it does not compile, fails, answers anything else, or the
 * walk crosses {@code cel.max.cost} or {@code cel.timeout.ms}, which bound the check of one record). Unlike
 * Confluent's, a violation never quotes the string a rule answered, which may hold the value: it names the field
 * path (built only for a violation), the rule and its doc, else its expression.
 *
 * <p>Expressions are compiled once per schema version, in {@link #prepare}, a record's {@code this} type-checked
 * against its struct type ({@link InlineTypes}: its fields with their CEL types), as Confluent's validator does. A
 * rule whose result type is neither {@code bool} nor {@code string}, {@code dyn} included, is refused there
 * ({@link InlineResultTypeException}), as Confluent's validator refuses it when compiling; so is a rule that reads a
 * field its record does not have ({@link InlineUnknownFieldException}), but on a union of several records only a
 * field none of them has (a record that lacks it takes the map retry, as Confluent's). Either names the rule and its
 * expression, and no record is written under the schema version. The struct-typed environments only check a
 * schema version's rules and are dropped then: its programs run on the shared untyped runtime. Thread-safe.
 */
public final class CelValidator implements InlineValidator {
  /** The property of a record or a field that holds its inline rules. */
  public static final String RULES_PROPERTY = "confluent:rules";

  /**
   * One CEL environment per declared type of {@code this} other than a record's struct: a handful of types. Never a
   * record's struct, whose names are the schemas': kept here, they would grow with every record name ever prepared.
   */
  private static final Map<CelType, Cel> ENVIRONMENTS = new ConcurrentHashMap<>();
  private CelLimits limits = CelLimits.DEFAULTS;

  /**
   * Reads {@code cel.max.cost} and {@code cel.timeout.ms} ({@link CelLimits}), and {@code cel.regex.engine}
   * ({@link CelRegexEngine}): refused as the serde refuses it; inline rules run RE2, as Confluent's validator does
   * whatever the setting.
   */
  @Override
  public void configure(Map<String, ?> configs) {
    limits = CelLimits.from(configs);
    CelRegexEngine.of(configs);
  }

  /** As {@link #prepare(Schema, InlineBinding)} with {@code this} bound to Java types. */
  @Override
  public InlineChecks prepare(Schema writer) {
    return prepare(writer, InlineBinding.JAVA_TYPES);
  }

  @Override
  public InlineChecks prepare(Schema writer, InlineBinding binding) {
    Map<Schema, RecordRules> records = new IdentityHashMap<>();
    collect(writer, records, new Environments(writer));
    Set<Schema> ruled = ruledRecords(records);
    return ruled.isEmpty() ? null : new Walk(records, ruled, writer, limits, binding);
  }

  /**
   * The records of {@code records} with a rule in or below them (recursive schemas included): a walk enters only
   * these, and the arrays, maps and unions that lead to one.
   */
  private static Set<Schema> ruledRecords(Map<Schema, RecordRules> records) {
    Set<Schema> ruled = Collections.newSetFromMap(new IdentityHashMap<>());
    records.forEach((schema, rules) -> {
      if (!rules.isEmpty()) {
        ruled.add(schema);
      }
    });
    boolean grown = !ruled.isEmpty();
    while (grown) {
      grown = false;
      for (Schema schema : records.keySet()) {
        if (!ruled.contains(schema)
            && schema.getFields().stream().anyMatch(field -> leadsTo(field.schema(), ruled))) {
          grown = ruled.add(schema);
        }
      }
    }
    return ruled;
  }

  /** Whether a value of {@code schema} may hold a record of {@code ruled}; allocates nothing (the walk asks it). */
  private static boolean leadsTo(Schema schema, Set<Schema> ruled) {
    switch (schema.getType()) {
      case RECORD:
        return ruled.contains(schema);
      case UNION:
        List<Schema> branches = schema.getTypes();
        for (int i = 0; i < branches.size(); i++) {
          if (leadsTo(branches.get(i), ruled)) {
            return true;
          }
        }
        return false;
      case ARRAY:
        return leadsTo(schema.getElementType(), ruled);
      case MAP:
        return leadsTo(schema.getValueType(), ruled);
      default:
        return false;
    }
  }

  private void collect(Schema schema, Map<Schema, RecordRules> records, Environments environments) {
    switch (schema.getType()) {
      case RECORD -> {
        if (records.containsKey(schema)) {
          return;
        }
        List<Schema.Field> fields = schema.getFields();
        List<List<Check>> byField = new ArrayList<>(fields.size());
        RecordRules rules = new RecordRules(checks(schema, schema, schema.getFullName(), environments), byField);
        records.put(schema, rules);
        for (Schema.Field field : fields) {
          byField.add(checks(field, field.schema(), schema.getFullName() + "." + field.name(), environments));
          collect(field.schema(), records, environments);
        }
      }
      case UNION -> schema.getTypes().forEach(branch -> collect(branch, records, environments));
      case ARRAY -> collect(schema.getElementType(), records, environments);
      case MAP -> collect(schema.getValueType(), records, environments);
      default -> {
        // a leaf holds no rules of its own: a field's are the field's
      }
    }
  }

  private List<Check> checks(JsonProperties source, Schema thisSchema, String where, Environments environments) {
    if (!(source.getObjectProp(RULES_PROPERTY) instanceof List<?> entries)) {
      return List.of();
    }
    List<Check> checks = new ArrayList<>();
    for (Object entry : entries) {
      if (entry instanceof Map<?, ?> map) {
        checks.add(Check.compile(text(map, "name"), text(map, "doc"), text(map, "expr"), text(map, "sql"), where,
            thisSchema, limits, environments));
      }
    }
    return List.copyOf(checks);
  }

  private static String text(Map<?, ?> map, String key) {
    return map.get(key) instanceof String text ? text : null;
  }

  /** The rules of one record schema: its own, and each field's, by position. */
  private record RecordRules(List<Check> own, List<List<Check>> byField) {
    boolean isEmpty() {
      return own.isEmpty() && byField.stream().allMatch(List::isEmpty);
    }
  }

  /**
   * One rule, compiled with {@code this} declared as its schema's type; or why it cannot be (reported when a record
   * reaches it, as Confluent compiles on first use). On a union of several branches with a record, an enum, a fixed
   * or an array among them, compiled per branch ({@code branches}, by position), as Confluent's validator declares
   * such a value by its own schema.
   */
  private record Check(String shown, Schema schema, CelScript script, String broken, List<Check> branches) {
    static Check compile(String name, String doc, String expr, String sql, String where, Schema schema,
        CelLimits limits, Environments environments) {
      String label = (name == null || name.isEmpty() ? "unnamed" : name);
      String shown = label + ": " + (doc != null && !doc.isEmpty() ? doc : sql != null && !sql.isEmpty() ? sql
          : expr);
      if (expr == null || expr.isEmpty()) {
        return new Check(shown, schema, null, "has no expression", null);
      }
      String rule = "validation rule '" + label + "' of " + where;
      List<CelType> byBranch = InlineValues.branchTypes(schema);
      if (byBranch == null) {
        return compile(shown, schema, rule, expr, InlineValues.type(schema), limits, environments);
      }
      Map<CelType, Check> byType = new HashMap<>();
      long records = byBranch.stream().filter(StructTypeReference.class::isInstance).distinct().count();
      List<InlineUnknownFieldException> lacking = new ArrayList<>();
      for (CelType type : byBranch) {
        if (byType.containsKey(type)) {
          continue;
        }
        String onBranch = type == SimpleType.DYN ? rule : rule + " (on a " + type.name() + ")";
        Check check;
        try {
          check = compile(shown, schema, onBranch, expr, type, limits, environments);
        } catch (InlineUnknownFieldException e) {
          if (records < 2) {
            throw e;
          }
          // another record of the union may have the field: this one's value takes the map retry, as Confluent's
          lacking.add(e);
          check = compile(shown, schema, onBranch, expr, InlineValues.UNTYPED_MAP, limits, environments);
        }
        byType.put(type, check);
      }
      refuseIfNoRecordHas(lacking, records);
      List<Check> branches = new ArrayList<>(byBranch.size());
      byBranch.forEach(type -> branches.add(byType.get(type)));
      return new Check(shown, schema, null, null, List.copyOf(branches));
    }

    /**
     * Refuses a rule on a union of several records that reads a field none of them has, as a rule on one record is
     * refused: {@code lacking} says, per record that lacks a field the rule reads, which ones.
     */
    private static void refuseIfNoRecordHas(List<InlineUnknownFieldException> lacking, long records) {
      if (lacking.isEmpty() || lacking.size() < records) {
        return; // a record has every field the rule reads
      }
      Set<String> inNone = new HashSet<>(lacking.get(0).fields());
      lacking.forEach(e -> inNone.retainAll(e.fields()));
      if (!inNone.isEmpty()) {
        throw lacking.get(0);
      }
    }

    private static Check compile(String shown, Schema schema, String rule, String expr, CelType type,
        CelLimits limits, Environments environments) {
      try {
        Cel untyped = type instanceof StructTypeReference ? environment(InlineValues.UNTYPED_MAP) : null;
        return new Check(shown, schema, CelScript.inline(environments.of(type), untyped, rule, expr, limits), null,
            null);
      } catch (InlineResultTypeException | InlineUnknownFieldException e) {
        throw e; // refused when prepared: no record is written under it
      } catch (RuleException e) {
        return new Check(shown, schema, null, e.getMessage(), null);
      }
    }

    /** This rule as compiled for {@code value}, not null: of its branch, where it is compiled per branch. */
    Check of(Object value) {
      // throws AvroRuntimeException: of no branch (UnresolvedUnionException), or of no Avro type ("Unknown datum")
      return branches == null ? this : branches.get(GenericData.get().resolveUnion(schema, value));
    }
  }

  /**
   * The environments of the rules of one schema version, made as its rules are prepared: one per record a rule's
   * {@code this} is, with the schema's records as struct types ({@link InlineTypes}, built once), which only checks
   * the rules and is dropped with this once they are prepared (their programs are the shared untyped runtime's); the
   * shared one of another type. Used by one thread, while preparing.
   */
  private static final class Environments {
    private final Schema writer;
    private final Map<CelType, Cel> records = new HashMap<>();
    private InlineTypes types;

    Environments(Schema writer) {
      this.writer = writer;
    }

    Cel of(CelType type) {
      if (!(type instanceof StructTypeReference)) {
        return environment(type);
      }
      if (types == null) {
        types = InlineTypes.of(writer);
      }
      // never the shared cache: kept there, one per record name would be kept forever (a compiler and a runtime)
      return records.computeIfAbsent(type, record -> CelScript.environment(Map.of("this", record), types));
    }
  }

  /** The shared environment of a {@code this} of {@code type}, no record's struct: a handful of types. */
  private static Cel environment(CelType type) {
    return ENVIRONMENTS.computeIfAbsent(type, declared -> CelScript.environment(Map.of("this", declared)));
  }

  /** How many shared environments there are: a handful, however many schemas (and record names) were prepared. */
  static int sharedEnvironments() {
    return ENVIRONMENTS.size();
  }

  /** The checks of one schema version. */
  private static final class Walk implements InlineChecks {
    private final Map<Schema, RecordRules> records;
    /** The records with a rule in or below them. */
    private final Set<Schema> ruled;
    private final Schema writer;
    private final CelLimits limits;
    /** Which logical types {@code this} holds as their Java types, the others as their underlying Avro values. */
    private final InlineBinding binding;

    Walk(Map<Schema, RecordRules> records, Set<Schema> ruled, Schema writer, CelLimits limits,
        InlineBinding binding) {
      this.records = records;
      this.ruled = ruled;
      this.writer = writer;
      this.limits = limits;
      this.binding = binding;
    }

    @Override
    public List<String> violations(Object message, boolean failFast) {
      List<String> out = new ArrayList<>(0);
      if (message != null) {
        new Run(failFast, limits.start(), out).visit(writer, message);
      }
      return out;
    }

    /** Whether a value of {@code schema} may hold a rule. */
    private boolean ruled(Schema schema) {
      return leadsTo(schema, ruled);
    }

    /** One record's check: the violations found, within one budget. */
    private final class Run {
      private final boolean failFast;
      private final CelBudget budget;
      private final List<String> out;
      /** Where the walk is: rendered only for a violation. */
      private final WalkPath path = new WalkPath();
      private Timestamp now;

      Run(boolean failFast, CelBudget budget, List<String> out) {
        this.failFast = failFast;
        this.budget = budget;
        this.out = out;
      }

      private boolean stop() {
        return failFast && !out.isEmpty();
      }

      void visit(Schema schema, Object value) {
        if (!ruled(schema)) {
          return;
        }
        switch (schema.getType()) {
          case UNION -> {
            if (value == null) {
              return;
            }
            Schema branch;
            try {
              branch = schema.getTypes().get(GenericData.get().resolveUnion(schema, value));
            } catch (AvroRuntimeException e) { // its message quotes the value, which may be secret
              out.add(path.render() + ": the value is of no branch of its union, so the rules below it cannot run");
              return;
            }
            if (branch.getType() != Schema.Type.NULL) {
              visit(branch, value);
            }
          }
          case ARRAY -> {
            if (!(value instanceof List<?> elements)) {
              return;
            }
            Schema elementType = schema.getElementType();
            for (int i = 0; i < elements.size() && !stop(); i++) {
              path.element(i);
              visit(elementType, elements.get(i));
              path.pop();
            }
          }
          case MAP -> {
            if (!(value instanceof Map<?, ?> entries)) {
              return;
            }
            Schema valueType = schema.getValueType();
            int i = 0;
            for (Object entry : entries.values()) {
              // the entry's position, not its key: a key is data, and a violation never quotes the message's data
              path.entry(i++);
              visit(valueType, entry);
              path.pop();
              if (stop()) {
                return;
              }
            }
          }
          case RECORD -> record(schema, value);
          default -> {
            // a leaf: its field's rules ran in the record
          }
        }
      }

      private void record(Schema schema, Object value) {
        if (!(value instanceof IndexedRecord record)) {
          return;
        }
        RecordRules rules = records.get(schema);
        List<Check> own = rules.own();
        for (int i = 0; i < own.size(); i++) { // index loops: the walk allocates nothing of its own
          evaluate(own.get(i), record);
          if (stop()) {
            return;
          }
        }
        List<Schema.Field> fields = schema.getFields();
        for (int pos = 0; pos < fields.size(); pos++) {
          Schema.Field field = fields.get(pos);
          List<Check> checks = rules.byField().get(pos);
          if (checks.isEmpty() && !ruled(field.schema())) {
            continue;
          }
          Object fieldValue = record.get(pos);
          path.field(field.name());
          if (fieldValue != null || !isNullable(field.schema())) {
            for (int i = 0; i < checks.size(); i++) {
              evaluate(checks.get(i), fieldValue);
              if (stop()) {
                path.pop();
                return;
              }
            }
          }
          visit(field.schema(), fieldValue);
          path.pop();
          if (stop()) {
            return;
          }
        }
      }

      private void evaluate(Check rule, Object value) {
        Check check;
        try {
          check = value == null ? rule : rule.of(value);
        } catch (AvroRuntimeException e) { // its message quotes the value
          out.add(where(rule) + " (caused by: the value is of no branch of its union)");
          return;
        }
        if (check.broken() != null) {
          out.add(where(check) + " (caused by: " + check.broken() + ")");
          return;
        }
        if (value == null) {
          out.add(where(check) + " (caused by: the value is null)");
          return;
        }
        Object result;
        try {
          result = check.script().evaluate(new Variables(check.schema(), value), budget);
        } catch (RuleException e) {
          out.add(where(check) + " (caused by: " + e.getMessage() + ")");
          return;
        }
        if (result instanceof Boolean passed) {
          if (!passed) {
            out.add(where(check));
          }
        } else if (result instanceof String message) {
          if (!message.isEmpty()) {
            out.add(where(check) + " (the rule's own message is not shown: it may quote the value)");
          }
        } else {
          out.add(where(check) + " (caused by: it answered a " + (result == null ? "null"
              : result.getClass().getName()) + ", not a bool or a string)");
        }
      }

      private String where(Check check) {
        return path.render() + ": " + check.shown();
      }

      /** {@code this} and {@code now}, converted when the expression reads them. */
      private final class Variables implements CelVariableResolver {
        private final Schema schema;
        private final Object value;

        Variables(Schema schema, Object value) {
          this.schema = schema;
          this.value = value;
        }

        @Override
        public Optional<Object> find(String name) {
          return switch (name) {
            case "this" -> Optional.of(InlineValues.value(schema, value, binding));
            case CelLibrary.NOW -> Optional.of(now = CelLibrary.now(now));
            default -> Optional.empty();
          };
        }
      }
    }
  }

  /** Whether {@code schema} is a union with {@code null}; allocates nothing (the walk asks it per field). */
  private static boolean isNullable(Schema schema) {
    if (schema.getType() != Schema.Type.UNION) {
      return false;
    }
    List<Schema> branches = schema.getTypes();
    for (int i = 0; i < branches.size(); i++) {
      if (branches.get(i).getType() == Schema.Type.NULL) {
        return true;
      }
    }
    return false;
  }
}
