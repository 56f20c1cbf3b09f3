package io.kavro.rules.cel;

import com.google.protobuf.Timestamp;
import dev.cel.bundle.Cel;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelVariableResolver;
import io.kavro.registry.contract.Rule;
import io.kavro.rules.field.FieldContext;
import io.kavro.rules.field.FieldTransform;
import io.kavro.rules.field.FieldType;
import io.kavro.rules.field.FieldWalker;
import io.kavro.serde.rules.CelRegexEngine;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleExecutor;
import io.kavro.serde.rules.RuleInput;
import io.kavro.serde.rules.RuleTarget;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Runs {@code CEL_FIELD} rules: a CEL expression per field, on the fields the rule's tags select
 * ({@link FieldWalker}), as Confluent's {@code CelFieldExecutor} does.
 *
 * <p>Bound: {@code value} (the field's value, converted as {@link CelExecutor} converts {@code message}),
 * {@code fullName} ({@code com.acme.User.ssn}), {@code name}, {@code typeName} (a {@link FieldType} name such as
 * {@code STRING}, the branch of the value in a union), {@code tags} (a list) and {@code message} (the record
 * holding the field, as a map). Fields of enum and fixed type are left as they are. A guard
 * ({@code typeName == 'STRING' ; value + '-x'}) skips the field unless it is {@code true}.
 *
 * <p>A condition fails on the first field whose result is {@code false}, naming it. A transform's result is
 * converted to the field's type (integers narrowed, an overflow an error naming the field; bytes as bytes).
 * A run on a message, over all its fields, is bounded in cost and time as {@link CelExecutor}'s is
 * ({@link CelLimits}). Expressions are compiled once, in {@link #prepare}. Thread-safe.
 */
public final class CelFieldExecutor implements RuleExecutor {
  /** The rule type. */
  public static final String TYPE = "CEL_FIELD";

  private static final Cel CEL = CelScript.environment(variables());
  private static final Map<FieldType, Schema> PRIMITIVES = primitives();
  private CelLimits limits = CelLimits.DEFAULTS;

  @Override
  public String type() {
    return TYPE;
  }

  /**
   * Reads {@code cel.max.cost} and {@code cel.timeout.ms} ({@link CelLimits}), and checks Confluent's
   * {@code cel.regex.engine} ({@link CelRegexEngine}: the serde's parsed value, or a value given by hand, refused
   * as the serde refuses it; the serde warns of {@code pcre}, once).
   */
  @Override
  public void configure(Map<String, ?> configs) {
    limits = CelLimits.from(configs);
    CelRegexEngine.of(configs);
  }

  /**
   * Compiles the rule's expression and plans the walk of its fields.
   *
   * @throws io.kavro.serde.rules.RuleException when the rule has no expression or it does not compile; the
   *     message names the rule and gives CEL's reason
   */
  @Override
  public PreparedRule prepare(RuleTarget target) {
    FieldWalker walker = FieldWalker.of(target);
    Rule rule = target.rule();
    CelScript script = CelScript.compile(CEL, target, limits);
    return (RuleInput input, Object message) -> walker.walk(message, new CelFieldTransform(rule, script,
        script.budget()));
  }

  private static Map<String, CelType> variables() {
    Map<String, CelType> variables = new LinkedHashMap<>();
    variables.put("value", SimpleType.DYN);
    variables.put("fullName", SimpleType.STRING);
    variables.put("name", SimpleType.STRING);
    variables.put("typeName", SimpleType.STRING);
    variables.put("tags", ListType.create(SimpleType.STRING));
    variables.put("message", SimpleType.DYN);
    return variables;
  }

  private static Map<FieldType, Schema> primitives() {
    Map<FieldType, Schema> schemas = new EnumMap<>(FieldType.class);
    for (FieldType type : FieldType.values()) {
      if (type.isPrimitive()) {
        schemas.put(type, Schema.create(Schema.Type.valueOf(type.name())));
      }
    }
    return schemas;
  }

  /** The expression, applied to the fields of one message, within one budget. */
  private record CelFieldTransform(Rule rule, CelScript script, CelBudget budget) implements FieldTransform {
    @Override
    public Object apply(FieldContext field, Object value) {
      if (!field.type().isPrimitive()) {
        return value;
      }
      Variables variables = new Variables(field, value);
      boolean condition = rule.kind() == Rule.Kind.CONDITION;
      if (!script.admits(variables, budget)) {
        return condition ? Boolean.TRUE : value;
      }
      Object result = script.evaluate(variables, budget);
      if (condition) {
        return result;
      }
      if (CelValues.isNull(result)) {
        return null;
      }
      if (field.type() == FieldType.NULL) {
        // a null in a union: the result may be of any branch, which the walk does not know
        byte[] bytes = CelValues.bytes(result);
        return bytes != null ? bytes : result;
      }
      return CelValues.toAvro(rule, result, PRIMITIVES.get(field.type()), field.fullName());
    }
  }

  /** The variables of one field, converted when the expression reads them. */
  private static final class Variables implements CelVariableResolver {
    private final FieldContext field;
    private final Object value;
    private Object message;
    private Timestamp now;

    Variables(FieldContext field, Object value) {
      this.field = field;
      this.value = value;
    }

    @Override
    public Optional<Object> find(String name) {
      return switch (name) {
        case "value" -> Optional.of(CelValues.toCel(value));
        case "fullName" -> Optional.of(field.fullName());
        case "name" -> Optional.of(field.name());
        case "typeName" -> Optional.of(field.type().name());
        case "tags" -> Optional.of(List.copyOf(field.tags()));
        case "message" -> Optional.of(message());
        case CelLibrary.NOW -> Optional.of(now = CelLibrary.now(now));
        default -> Optional.empty();
      };
    }

    private Object message() {
      if (message == null) {
        message = CelValues.toCel(field.record());
      }
      return message;
    }
  }
}
