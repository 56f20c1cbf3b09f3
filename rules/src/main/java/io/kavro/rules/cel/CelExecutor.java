package io.kavro.rules.cel;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Timestamp;
import dev.cel.bundle.Cel;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelVariableResolver;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.CelRegexEngine;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleExecutor;
import io.kavro.serde.rules.RuleInput;
import io.kavro.serde.rules.RuleTarget;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;

/**
 * Runs {@code CEL} rules: a <a href="https://cel.dev">CEL</a> expression over the whole message, bound as
 * {@code message}, as Confluent's {@code CelExecutor} does.
 *
 * <p>{@code message} is a map of field name to value (records nested as maps, strings and enums as strings, every
 * integer a CEL int, floats doubles, bytes and fixed CEL bytes, null CEL null). CEL's standard macros and the
 * strings and math extensions are there. An expression {@code guard ; expr} runs {@code expr} only when
 * {@code guard} is {@code true} (set the rule parameter {@code cel.ignore.guard.separator} to {@code true} to
 * read a {@code ;} as part of the expression); otherwise a condition passes and a transform changes nothing.
 *
 * <p>A condition's result is passed on as it is: {@code false} fails, anything else passes. A transform's result
 * becomes a datum of the target schema: a map a record (fields by name, a missing field its default or null, else
 * an error naming it), integers narrowed to the field's type (an overflow is an error naming the field). A
 * transform that returns {@code message} itself returns the given datum.
 *
 * <p>A run on a message is bounded in cost and time ({@code cel.max.cost}, {@code cel.timeout.ms}:
 * {@link CelLimits}); crossing a bound fails the rule, naming it, the subject and the setting, and the rule's
 * {@code onFailure} follows.
 *
 * <p>Expressions are compiled once, in {@link #prepare}. Thread-safe.
 */
public final class CelExecutor implements RuleExecutor {
  /** The rule type. */
  public static final String TYPE = "CEL";

  private static final Cel CEL = CelScript.environment(Map.of("message", SimpleType.DYN));
  private static final ObjectMapper JSON = new ObjectMapper();
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
   * Compiles the rule's expression.
   *
   * @throws RuleException when the rule has no expression or it does not compile; the message names the rule and
   *     gives CEL's reason
   */
  @Override
  public PreparedRule prepare(RuleTarget target) {
    return new Prepared(target.rule(), target.schema(), CelScript.compile(CEL, target, limits));
  }

  /** A compiled CEL rule. */
  private record Prepared(Rule rule, Schema schema, CelScript script) implements PreparedRule {
    @Override
    public Object apply(RuleInput input, Object message) {
      Object bound = bind(message);
      CelVariableResolver variables = new MessageVariables(bound);
      boolean condition = rule.kind() == Rule.Kind.CONDITION;
      CelBudget budget = script.budget();
      if (!script.admits(variables, budget)) {
        return condition ? Boolean.TRUE : message;
      }
      Object result = script.evaluate(variables, budget);
      if (condition) {
        return result;
      }
      if (result == bound) {
        return message;
      }
      if (message instanceof byte[]) {
        byte[] bytes = CelValues.bytes(result);
        if (bytes == null) {
          throw new RuleException(rule + ": a CEL transform of the encoded body must return bytes, not "
              + result.getClass().getSimpleName());
        }
        return bytes;
      }
      if (message instanceof JsonNode) {
        return JSON.valueToTree(fromCel(rule, result));
      }
      return CelValues.toAvro(rule, result, schema, schema.getFullName());
    }

    private static Object bind(Object message) {
      if (message instanceof JsonNode json) {
        return CelValues.toCel(JSON.convertValue(json, Object.class));
      }
      return CelValues.toCel(message);
    }

    /** A CEL result as plain Java values for Jackson: null for CEL null, bytes as Avro JSON's ISO-8859-1 text. */
    private static Object fromCel(Rule rule, Object result) {
      if (CelValues.isNull(result)) {
        return null;
      }
      byte[] bytes = CelValues.bytes(result);
      if (bytes != null) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
      }
      if (result instanceof Variant) {
        throw new RuleException(rule + ": a CEL transform of a JSON message cannot return a variant "
            + "(confluent.type.Variant); return variants.toJson(v) for its JSON text, or a map");
      }
      if (result instanceof Map<?, ?> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((key, value) -> out.put(String.valueOf(key), fromCel(rule, value)));
        return out;
      }
      if (result instanceof List<?> list) {
        List<Object> out = new ArrayList<>(list.size());
        list.forEach(element -> out.add(fromCel(rule, element)));
        return out;
      }
      return result;
    }
  }

  /** The variables of one message: {@code message}, and {@code now}, read once. */
  private static final class MessageVariables implements CelVariableResolver {
    private final Object message;
    private Timestamp now;

    MessageVariables(Object message) {
      this.message = message;
    }

    @Override
    public Optional<Object> find(String name) {
      return switch (name) {
        case "message" -> Optional.of(message);
        case CelLibrary.NOW -> Optional.of(now = CelLibrary.now(now));
        default -> Optional.empty();
      };
    }
  }
}
