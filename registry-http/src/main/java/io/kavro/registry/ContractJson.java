package io.kavro.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A data contract in Confluent's JSON: the {@code metadata} and {@code ruleSet} of a registry answer, read with
 * Confluent's defaults (a rule's {@code kind} TRANSFORM, {@code mode} WRITEREAD), and written into a registration's
 * body. An answer without them has {@link DataContract#NONE}.
 */
final class ContractJson {
  private ContractJson() {}

  /** Whether the answer says anything of its contract. */
  static boolean present(JsonNode answer) {
    return answer.hasNonNull("metadata") || answer.hasNonNull("ruleSet");
  }

  /** The part of an answer that holds its contract: what {@link #read} reads, kept small. */
  static JsonNode part(JsonNode answer) {
    ObjectNode part = JsonBodies.object();
    if (answer.hasNonNull("metadata")) {
      part.set("metadata", answer.get("metadata"));
    }
    if (answer.hasNonNull("ruleSet")) {
      part.set("ruleSet", answer.get("ruleSet"));
    }
    return part;
  }

  /**
   * The contract of an answer.
   *
   * @param what the answer's subject, for messages
   * @throws SchemaRegistryException when a rule is not one Confluent's registry would hold: no name or type, an
   *     unknown kind or mode
   */
  static DataContract read(JsonNode answer, String what) {
    JsonNode metadata = answer.path("metadata");
    JsonNode ruleSet = answer.path("ruleSet");
    if (!metadata.isObject() && !ruleSet.isObject()) {
      return DataContract.NONE;
    }
    Metadata m = metadata.isObject() ? new Metadata(tags(metadata.path("tags")), strings(metadata.path("properties")),
        set(metadata.path("sensitive"))) : Metadata.EMPTY;
    RuleSet r = ruleSet.isObject() ? new RuleSet(rules(ruleSet.path("migrationRules"), what),
        rules(ruleSet.path("domainRules"), what), rules(ruleSet.path("encodingRules"), what),
        ruleSet.hasNonNull("enableAt") ? ruleSet.get("enableAt").asText() : null) : RuleSet.EMPTY;
    return m.isEmpty() && r.isEmpty() && r.enableAt() == null ? DataContract.NONE : new DataContract(m, r);
  }

  private static List<Rule> rules(JsonNode array, String what) {
    List<Rule> rules = new ArrayList<>();
    if (!array.isArray()) {
      return rules;
    }
    for (JsonNode rule : array) {
      String name = rule.path("name").asText("");
      String type = rule.path("type").asText("");
      if (name.isEmpty() || type.isEmpty()) {
        throw new SchemaRegistryException(what + ": the registry's answer has a rule without a name or type: "
            + ErrorMapping.shorten(rule.path("name").asText("?") + " (" + type + ")"));
      }
      rules.add(new Rule(name, text(rule, "doc"),
          choice(Rule.Kind.class, rule.path("kind"), Rule.Kind.TRANSFORM, name, what),
          choice(Rule.Mode.class, rule.path("mode"), Rule.Mode.WRITEREAD, name, what),
          type.toUpperCase(Locale.ROOT), set(rule.path("tags")), strings(rule.path("params")), text(rule, "expr"),
          text(rule, "onSuccess"), text(rule, "onFailure"), rule.path("disabled").asBoolean(false)));
    }
    return rules;
  }

  private static <E extends Enum<E>> E choice(Class<E> type, JsonNode value, E fallback, String rule, String what) {
    if (value.isMissingNode() || value.isNull()) {
      return fallback;
    }
    try {
      return Enum.valueOf(type, value.asText().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new SchemaRegistryException(what + ": rule '" + rule + "' has " + type.getSimpleName().toLowerCase(
          Locale.ROOT) + " '" + ErrorMapping.shorten(value.asText()) + "', which is none of "
          + java.util.Arrays.toString(type.getEnumConstants()));
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    return value == null || value.isNull() ? null : value.asText();
  }

  private static Set<String> set(JsonNode array) {
    Set<String> values = new LinkedHashSet<>();
    array.forEach(v -> values.add(v.asText()));
    return values;
  }

  private static Map<String, String> strings(JsonNode object) {
    Map<String, String> values = new LinkedHashMap<>();
    object.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().asText()));
    return values;
  }

  private static Map<String, Set<String>> tags(JsonNode object) {
    Map<String, Set<String>> values = new LinkedHashMap<>();
    object.fields().forEachRemaining(e -> values.put(e.getKey(), set(e.getValue())));
    return values;
  }

  /** Puts {@code contract} into a registration's body, as Confluent's registry takes it; nothing for NONE. */
  static void write(ObjectNode body, DataContract contract) {
    Metadata m = contract.metadata();
    if (!m.isEmpty()) {
      ObjectNode metadata = body.putObject("metadata");
      if (!m.tags().isEmpty()) {
        ObjectNode tags = metadata.putObject("tags");
        m.tags().forEach((path, values) -> values.forEach(tags.withArray(path)::add));
      }
      if (!m.properties().isEmpty()) {
        ObjectNode properties = metadata.putObject("properties");
        m.properties().forEach(properties::put);
      }
      if (!m.sensitive().isEmpty()) {
        ArrayNode sensitive = metadata.putArray("sensitive");
        m.sensitive().forEach(sensitive::add);
      }
    }
    RuleSet r = contract.ruleSet();
    if (!r.isEmpty() || r.enableAt() != null) {
      ObjectNode ruleSet = body.putObject("ruleSet");
      putRules(ruleSet, "migrationRules", r.migrationRules());
      putRules(ruleSet, "domainRules", r.domainRules());
      putRules(ruleSet, "encodingRules", r.encodingRules());
      if (r.enableAt() != null) {
        ruleSet.put("enableAt", r.enableAt());
      }
    }
  }

  private static void putRules(ObjectNode ruleSet, String field, List<Rule> rules) {
    if (rules.isEmpty()) {
      return;
    }
    ArrayNode array = ruleSet.putArray(field);
    for (Rule rule : rules) {
      ObjectNode json = array.addObject().put("name", rule.name());
      if (rule.doc() != null) {
        json.put("doc", rule.doc());
      }
      json.put("kind", rule.kind().name()).put("mode", rule.mode().name()).put("type", rule.type());
      if (!rule.tags().isEmpty()) {
        ArrayNode tags = json.putArray("tags");
        new java.util.TreeSet<>(rule.tags()).forEach(tags::add);
      }
      if (!rule.params().isEmpty()) {
        ObjectNode params = json.putObject("params");
        new java.util.TreeMap<>(rule.params()).forEach(params::put);
      }
      if (rule.expr() != null) {
        json.put("expr", rule.expr());
      }
      if (rule.onSuccess() != null) {
        json.put("onSuccess", rule.onSuccess());
      }
      if (rule.onFailure() != null) {
        json.put("onFailure", rule.onFailure());
      }
      json.put("disabled", rule.disabled());
    }
  }
}
