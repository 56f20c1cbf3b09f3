package io.kavro.rules.cel;

import com.google.protobuf.Timestamp;
import dev.cel.bundle.Cel;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelVariableResolver;
import io.kavro.serde.rules.InlineChecks;
import io.kavro.serde.rules.InlineValidator;
import io.kavro.serde.rules.RuleException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;

/**
 * Runs Confluent's inline validation rules ({@code confluent:rules}) with CEL, as Confluent's {@code CelValidator}
 * and {@code AvroSchema.validateMessage} do.
 *
 * <p>A rule is an object {@code {"name", "doc", "expr", "sql"}} in the {@code confluent:rules} array of a record
 * schema (then {@code this} is the record, as a map) or of a record's field ({@code this} is the field's value);
 * other entries are skipped. {@code now} is the time of the check. The walk descends the record's fields, arrays
 * ({@code path[i]}), maps ({@code path["key"]}) and the branch of unions; a field whose schema is a union with
 * {@code null} and whose value is null skips its rules. A rule fails when it answers {@code false} or a non-empty
 * string, or cannot run (it does not compile, fails, answers anything else, or the walk crosses
 * {@code cel.max.cost} or {@code cel.timeout.ms}, which bound the check of one record). Unlike Confluent's, a
 * violation never quotes the string a rule answered, which may hold the value: it names the field path, the rule
 * and its doc, else its expression.
 *
 * <p>Expressions are compiled once per schema version, in {@link #prepare}. Thread-safe.
 */
public final class CelValidator implements InlineValidator {
  /** The property of a record or a field that holds its inline rules. */
  public static final String RULES_PROPERTY = "confluent:rules";

  private static final Cel CEL = CelScript.environment(Map.of("this", SimpleType.DYN));
  private CelLimits limits = CelLimits.DEFAULTS;

  /** Reads {@code cel.max.cost} and {@code cel.timeout.ms} ({@link CelLimits}). */
  @Override
  public void configure(Map<String, ?> configs) {
    limits = CelLimits.from(configs);
  }

  @Override
  public InlineChecks prepare(Schema writer) {
    Map<Schema, RecordRules> records = new IdentityHashMap<>();
    collect(writer, records);
    for (RecordRules rules : records.values()) {
      if (!rules.isEmpty()) {
        return new Walk(records, writer, limits);
      }
    }
    return null;
  }

  private void collect(Schema schema, Map<Schema, RecordRules> records) {
    switch (schema.getType()) {
      case RECORD -> {
        if (records.containsKey(schema)) {
          return;
        }
        List<Schema.Field> fields = schema.getFields();
        List<List<Check>> byField = new ArrayList<>(fields.size());
        RecordRules rules = new RecordRules(checks(schema, schema.getFullName()), byField);
        records.put(schema, rules);
        for (Schema.Field field : fields) {
          byField.add(checks(field, schema.getFullName() + "." + field.name()));
          collect(field.schema(), records);
        }
      }
      case UNION -> schema.getTypes().forEach(branch -> collect(branch, records));
      case ARRAY -> collect(schema.getElementType(), records);
      case MAP -> collect(schema.getValueType(), records);
      default -> {
        // a leaf holds no rules of its own: a field's are the field's
      }
    }
  }

  private List<Check> checks(JsonProperties source, String where) {
    if (!(source.getObjectProp(RULES_PROPERTY) instanceof List<?> entries)) {
      return List.of();
    }
    List<Check> checks = new ArrayList<>();
    for (Object entry : entries) {
      if (entry instanceof Map<?, ?> map) {
        checks.add(Check.compile(text(map, "name"), text(map, "doc"), text(map, "expr"), text(map, "sql"), where,
            limits));
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
   * One rule, compiled; or why it cannot be (reported when a record reaches it, as Confluent compiles on first use).
   */
  private record Check(String shown, CelScript script, String broken) {
    static Check compile(String name, String doc, String expr, String sql, String where, CelLimits limits) {
      String label = (name == null || name.isEmpty() ? "unnamed" : name);
      String shown = label + ": " + (doc != null && !doc.isEmpty() ? doc : sql != null && !sql.isEmpty() ? sql
          : expr);
      if (expr == null || expr.isEmpty()) {
        return new Check(shown, null, "has no expression");
      }
      try {
        return new Check(shown, CelScript.inline(CEL, "validation rule '" + label + "' of " + where, expr,
            limits), null);
      } catch (RuleException e) {
        return new Check(shown, null, e.getMessage());
      }
    }
  }

  /** The checks of one schema version. */
  private static final class Walk implements InlineChecks {
    private final Map<Schema, RecordRules> records;
    private final Schema writer;
    private final CelLimits limits;

    Walk(Map<Schema, RecordRules> records, Schema writer, CelLimits limits) {
      this.records = records;
      this.writer = writer;
      this.limits = limits;
    }

    @Override
    public List<String> violations(Object message, boolean failFast) {
      List<String> out = new ArrayList<>(0);
      if (message != null) {
        new Run(failFast, limits.start(), out).visit(writer, message, "");
      }
      return out;
    }

    /** One record's check: the violations found, within one budget. */
    private final class Run {
      private final boolean failFast;
      private final CelBudget budget;
      private final List<String> out;
      private Timestamp now;

      Run(boolean failFast, CelBudget budget, List<String> out) {
        this.failFast = failFast;
        this.budget = budget;
        this.out = out;
      }

      private boolean stop() {
        return failFast && !out.isEmpty();
      }

      void visit(Schema schema, Object value, String path) {
        switch (schema.getType()) {
          case UNION -> {
            if (value == null) {
              return;
            }
            Schema branch = schema.getTypes().get(org.apache.avro.generic.GenericData.get()
                .resolveUnion(schema, value));
            if (branch.getType() != Schema.Type.NULL) {
              visit(branch, value, path);
            }
          }
          case ARRAY -> {
            if (!(value instanceof Iterable<?> elements)) {
              return;
            }
            int i = 0;
            for (Object element : elements) {
              visit(schema.getElementType(), element, path + "[" + i + "]");
              if (stop()) {
                return;
              }
              i++;
            }
          }
          case MAP -> {
            if (!(value instanceof Map<?, ?> entries)) {
              return;
            }
            int i = 0;
            for (Object entry : entries.values()) {
              // the entry's position, not its key: a key is data, and a violation never quotes the message's data
              visit(schema.getValueType(), entry, path + "[#" + i + "]");
              if (stop()) {
                return;
              }
              i++;
            }
          }
          case RECORD -> record(schema, value, path);
          default -> {
            // a leaf: its field's rules ran in the record
          }
        }
      }

      private void record(Schema schema, Object value, String path) {
        if (!(value instanceof IndexedRecord record)) {
          return;
        }
        RecordRules rules = records.get(schema);
        for (Check check : rules.own()) {
          evaluate(check, record, path);
          if (stop()) {
            return;
          }
        }
        List<Schema.Field> fields = schema.getFields();
        for (int pos = 0; pos < fields.size(); pos++) {
          Schema.Field field = fields.get(pos);
          Object fieldValue = record.get(pos);
          String child = path.isEmpty() ? field.name() : path + "." + field.name();
          if (fieldValue != null || !isNullable(field.schema())) {
            for (Check check : rules.byField().get(pos)) {
              evaluate(check, fieldValue, child);
              if (stop()) {
                return;
              }
            }
          }
          visit(field.schema(), fieldValue, child);
          if (stop()) {
            return;
          }
        }
      }

      private void evaluate(Check check, Object value, String path) {
        String where = (path.isEmpty() ? "<root>" : path) + ": " + check.shown();
        if (check.broken() != null) {
          out.add(where + " (caused by: " + check.broken() + ")");
          return;
        }
        if (value == null) {
          out.add(where + " (caused by: the value is null)");
          return;
        }
        Object result;
        try {
          result = check.script().evaluate(new Variables(value), budget);
        } catch (RuleException e) {
          out.add(where + " (caused by: " + e.getMessage() + ")");
          return;
        }
        if (result instanceof Boolean passed) {
          if (!passed) {
            out.add(where);
          }
        } else if (result instanceof String message) {
          if (!message.isEmpty()) {
            out.add(where + " (the rule's own message is not shown: it may quote the value)");
          }
        } else {
          out.add(where + " (caused by: it answered a " + (result == null ? "null" : result.getClass().getName())
              + ", not a bool or a string)");
        }
      }

      /** {@code this} and {@code now}, converted when the expression reads them. */
      private final class Variables implements CelVariableResolver {
        private final Object value;

        Variables(Object value) {
          this.value = value;
        }

        @Override
        public Optional<Object> find(String name) {
          return switch (name) {
            case "this" -> Optional.of(CelValues.toCel(value));
            case CelLibrary.NOW -> Optional.of(now = CelLibrary.now(now));
            default -> Optional.empty();
          };
        }
      }
    }
  }

  private static boolean isNullable(Schema schema) {
    return schema.getType() == Schema.Type.UNION
        && schema.getTypes().stream().anyMatch(branch -> branch.getType() == Schema.Type.NULL);
  }
}
