package io.kavro.rules.jsonata;

import com.dashjoin.jsonata.JException;
import com.dashjoin.jsonata.Jsonata;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleExecutor;
import io.kavro.serde.rules.RuleTarget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;

/**
 * Rules of type {@code JSONATA}: a JSONata expression over the message in Avro's JSON form, as Confluent's serdes
 * run them, most often as migration rules (UPGRADE, DOWNGRADE) between the major versions of a subject. A transform
 * gives the new message; a condition passes unless it gives {@code false}.
 *
 * <p>The engine is {@code com.dashjoin:jsonata}, a port of the JavaScript JSONata that Confluent's JavaScript client
 * runs. Settings: {@code jsonata.timeout.ms} (60000) and {@code jsonata.max.depth} (1000), or Confluent's older
 * names of them {@code timeout.ms} and {@code max.depth}, bound one evaluation,
 * with the expressions {@code $eval} runs in it; crossing one fails the rule, naming the setting. Regular
 * expressions run on RE2 ({@link JsonataRegex}), in time linear in the text, as Confluent's JavaScript client runs
 * them; one that RE2 cannot run (a backreference, lookaround) refuses the rule when it is prepared. A recursion
 * deeper than the thread's stack fails the rule, never with a {@code StackOverflowError}. The expression is parsed
 * once per rule and schema version, and once per thread that runs it.
 */
public final class JsonataExecutor implements RuleExecutor {
  /** The rule type. */
  public static final String TYPE = "JSONATA";
  static final String TIMEOUT_CONFIG = "jsonata.timeout.ms";
  static final String MAX_DEPTH_CONFIG = "jsonata.max.depth";
  /** Confluent's older names of {@link #TIMEOUT_CONFIG} and {@link #MAX_DEPTH_CONFIG}, read when those are unset. */
  static final String OLD_TIMEOUT_CONFIG = "timeout.ms";
  static final String OLD_MAX_DEPTH_CONFIG = "max.depth";

  private static final ObjectMapper JSON = new ObjectMapper();
  private long timeoutMs = 60_000;
  private int maxDepth = 1000;

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public void configure(Map<String, ?> configs) {
    timeoutMs = number(configs, either(configs, TIMEOUT_CONFIG, OLD_TIMEOUT_CONFIG), timeoutMs);
    maxDepth = (int) number(configs, either(configs, MAX_DEPTH_CONFIG, OLD_MAX_DEPTH_CONFIG), maxDepth);
  }

  /** {@code key} when it is set, else Confluent's older name of it, as Confluent's executor reads them. */
  private static String either(Map<String, ?> configs, String key, String oldKey) {
    return configs.get(key) == null && configs.get(oldKey) != null ? oldKey : key;
  }

  private static long number(Map<String, ?> configs, String key, long fallback) {
    Object value = configs.get(key);
    if (value == null) {
      return fallback;
    }
    try {
      long parsed = Long.parseLong(value.toString().trim());
      if (parsed <= 0 || parsed > Integer.MAX_VALUE && !key.endsWith("timeout.ms")) {
        throw new NumberFormatException();
      }
      return parsed;
    } catch (NumberFormatException e) {
      throw new org.apache.kafka.common.config.ConfigException(key, value, "must be a positive whole number");
    }
  }

  @Override
  public PreparedRule prepare(RuleTarget target) {
    Rule rule = target.rule();
    String expr = rule.expr();
    if (expr == null || expr.isBlank()) {
      throw new RuleException(target + " has no JSONata expression (expr)");
    }
    long timeout = timeoutMs;
    int depth = maxDepth;
    compile(target, expr, timeout, depth);
    ThreadLocal<JsonataProgram> compiled = ThreadLocal.withInitial(() -> compile(target, expr, timeout, depth));
    Schema schema = target.schema();
    boolean condition = rule.kind() == Rule.Kind.CONDITION;
    return (input, message) -> {
      boolean json = message instanceof JsonNode;
      JsonNode in = json ? (JsonNode) message : toJson(target, schema, message);
      Object result;
      JsonNode out;
      try {
        result = compiled.get().evaluate(JSON.convertValue(in, Object.class));
        if (condition) {
          return asBoolean(result);
        }
        out = result == null ? in : tree(result);
      } catch (JsonataProgram.BoundCrossedException e) {
        throw RuleException.hidingValues(target + ": the JSONata expression " + e.getMessage(), e.getCause());
      } catch (StackOverflowError e) {
        throw tooDeep(target);
      } catch (RuleException e) {
        throw e;
      } catch (RuntimeException e) {
        if (stackOverflow(e)) {
          throw tooDeep(target);
        }
        if (e instanceof JException jsonata) {
          // JSONata's message may quote a value: its error code and position only
          throw RuleException.hidingValues(target + ": the JSONata expression failed: error " + jsonata.getError()
              + " at position " + jsonata.getLocation(), e);
        }
        throw RuleException.hidingValues(target + ": the JSONata expression failed: " + e.getClass().getName(), e);
      }
      return json ? out : fromJson(target, schema, out);
    };
  }

  private static JsonataProgram compile(RuleTarget target, String expr, long timeoutMs, int maxDepth) {
    try {
      return JsonataProgram.compile(expr, timeoutMs, maxDepth);
    } catch (JException | IllegalArgumentException e) {
      throw new RuleException(target + ": cannot parse the JSONata expression: " + e.getMessage(), e);
    } catch (IllegalStateException e) {
      throw new RuleException(target + ": cannot prepare the JSONata expression: " + e.getMessage(), e);
    } catch (StackOverflowError e) {
      throw new RuleException(target + ": cannot parse the JSONata expression: it nests deeper than this "
          + "thread's stack", null);
    }
  }

  private static RuleException tooDeep(RuleTarget target) {
    return new RuleException(target + ": the JSONata expression nests deeper than this thread's stack (lower "
        + MAX_DEPTH_CONFIG + ")", null);
  }

  /** Whether a stack overflow is among the causes of {@code e}: the engine wraps what its functions throw. */
  private static boolean stackOverflow(Throwable e) {
    return Causes.find(e, StackOverflowError.class).isPresent();
  }

  /** As Jackson's {@code asBoolean(true)} reads a result, which Confluent's Java executor uses. */
  private static Boolean asBoolean(Object result) {
    if (result instanceof Boolean b) {
      return b;
    }
    if (result instanceof Number n) {
      return n.doubleValue() != 0;
    }
    if (result instanceof String s && s.trim().equalsIgnoreCase("false")) {
      return Boolean.FALSE;
    }
    return Boolean.TRUE;
  }

  /** A JSONata value as a JSON tree: maps, lists, strings, numbers, booleans and JSONata's null. */
  static JsonNode tree(Object value) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    if (value == null || value == Jsonata.NULL_VALUE) {
      return nodes.nullNode();
    }
    if (value instanceof Map<?, ?> map) {
      ObjectNode object = nodes.objectNode();
      map.forEach((k, v) -> object.set(String.valueOf(k), tree(v)));
      return object;
    }
    if (value instanceof List<?> list) {
      ArrayNode array = nodes.arrayNode();
      list.forEach(v -> array.add(tree(v)));
      return array;
    }
    if (value instanceof Boolean b) {
      return nodes.booleanNode(b);
    }
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return nodes.numberNode(((Number) value).longValue());
    }
    if (value instanceof BigInteger big) {
      return nodes.numberNode(big);
    }
    if (value instanceof BigDecimal decimal) {
      return nodes.numberNode(decimal);
    }
    if (value instanceof Number n) {
      double d = n.doubleValue();
      return d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15 ? nodes.numberNode((long) d)
          : nodes.numberNode(d);
    }
    if (value instanceof CharSequence text) {
      return nodes.textNode(text.toString());
    }
    throw new RuleException("a JSONata result holds a " + value.getClass().getName() + ", which is not JSON");
  }

  private static JsonNode toJson(RuleTarget target, Schema schema, Object message) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      JsonEncoder encoder = EncoderFactory.get().jsonEncoder(schema, out);
      new GenericDatumWriter<>(schema, GenericData.get()).write(message, encoder);
      encoder.flush();
      return JSON.readTree(out.toByteArray());
    } catch (IOException | RuntimeException e) {
      throw RuleException.hidingValues(target + ": the message does not match schema " + schema.getFullName() + ": "
          + e.getClass().getName(), e);
    }
  }

  private static Object fromJson(RuleTarget target, Schema schema, JsonNode json) {
    try {
      return new GenericDatumReader<>(schema, schema, GenericData.get()).read(null,
          DecoderFactory.get().jsonDecoder(schema, JSON.writeValueAsString(json)));
    } catch (IOException | RuntimeException e) {
      // Avro's JSON decoder quotes what it read (an unknown enum symbol): its class only
      throw RuleException.hidingValues(target + ": the JSONata result does not match schema "
          + schema.getFullName() + ": " + e.getClass().getName(), e);
    }
  }
}
