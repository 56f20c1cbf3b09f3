package io.kavro.registry.internal.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.registry.SchemaRegistryException;
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
 * A data contract in Confluent's JSON, the one reader of it: the {@code metadata} and {@code ruleSet} of a registry
 * answer, read with Confluent's defaults (a rule's {@code kind} TRANSFORM, {@code mode} WRITEREAD), and written into
 * a registration's body; and the same parts from files ({@link #parse}, which {@link
 * io.kavro.registry.factory.ContractFiles}
 * offers the tools
 * that register). An answer without them has {@link DataContract#NONE}.
 */
public final class ContractJson {
  private static final Set<String> RULE_SET_FIELDS = Set.of("migrationRules", "domainRules", "encodingRules",
      "enableAt");
  private static final Set<String> METADATA_FIELDS = Set.of("tags", "properties", "sensitive");

  private ContractJson() {}

  /**
   * The contract of these parts, as Confluent's tools take them from files ({@code confluent schema-registry schema
   * create --ruleset FILE --metadata FILE}): a {@code ruleSet} object ({@code migrationRules}, {@code domainRules},
   * {@code encodingRules}, {@code enableAt}) and a {@code metadata} object ({@code tags}, {@code properties},
   * {@code sensitive}), read as an answer's are (Confluent's defaults), and stricter: a field Confluent's shape
   * does not have is refused. Messages name the part and what is wrong, and quote nothing of the text but rule
   * names.
   *
   * @param metadata the {@code metadata} object's JSON, or null for none
   * @param ruleSet the {@code ruleSet} object's JSON, or null for none
   * @param metadataLabel how the caller names the metadata's source, for messages ({@code --metadata m.json})
   * @param ruleSetLabel how the caller names the rule set's source, for messages
   * @throws IllegalArgumentException when a part is not JSON, not an object, has a field Confluent's shape does
   *     not, or holds a rule without a name or type, or of an unknown kind or mode
   */
  public static DataContract parse(String metadata, String ruleSet, String metadataLabel, String ruleSetLabel) {
    JsonNode metadataNode = metadata == null ? null : object(metadata, metadataLabel, METADATA_FIELDS);
    JsonNode ruleSetNode = ruleSet == null ? null : object(ruleSet, ruleSetLabel, RULE_SET_FIELDS);
    if (ruleSetNode != null) {
      for (String list : new String[] {"migrationRules", "domainRules", "encodingRules"}) {
        JsonNode rules = ruleSetNode.path(list);
        if (rules.isMissingNode() || rules.isNull()) {
          continue;
        }
        if (!rules.isArray()) {
          throw new IllegalArgumentException(ruleSetLabel + ": " + list + " must be a JSON array of rules");
        }
        int index = 0;
        for (JsonNode rule : rules) {
          if (!rule.isObject() || rule.path("name").asText("").isEmpty() || rule.path("type").asText("").isEmpty()) {
            throw new IllegalArgumentException(ruleSetLabel + ": " + list + "[" + index + "] must be a rule with a "
                + "name and a type");
          }
          index++;
        }
      }
    }
    try {
      Metadata m = metadataNode == null ? Metadata.EMPTY
          : read(wrap("metadata", metadataNode), metadataLabel).metadata();
      RuleSet r = ruleSetNode == null ? RuleSet.EMPTY
          : read(wrap("ruleSet", ruleSetNode), ruleSetLabel).ruleSet();
      return m.isEmpty() && r.isEmpty() && r.enableAt() == null ? DataContract.NONE : new DataContract(m, r);
    } catch (SchemaRegistryException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static JsonNode wrap(String field, JsonNode part) {
    return JsonBodies.object().set(field, part);
  }

  private static JsonNode object(String text, String label, Set<String> fields) {
    JsonNode node;
    try {
      node = JsonBodies.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      JsonLocation at = e.getLocation();
      throw new IllegalArgumentException(label + " is not JSON" + (at == null ? ""
          : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")"));
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException(label + " must hold a JSON object, of the fields " + new java.util.TreeSet<>(
          fields));
    }
    node.fieldNames().forEachRemaining(name -> {
      if (!fields.contains(name)) {
        throw new IllegalArgumentException(label + " has the field '" + ErrorMapping.shorten(name) + "', which "
            + "Confluent's shape does not: it holds " + new java.util.TreeSet<>(fields));
      }
    });
    return node;
  }

  /** Whether the answer says anything of its contract. */
  public static boolean present(JsonNode answer) {
    return answer.hasNonNull("metadata") || answer.hasNonNull("ruleSet");
  }

  /** The part of an answer that holds its contract: what {@link #read} reads, kept small. */
  public static JsonNode part(JsonNode answer) {
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
  public static DataContract read(JsonNode answer, String what) {
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
  public static void write(ObjectNode body, DataContract contract) {
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
