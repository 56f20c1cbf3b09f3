package io.kavro.registry;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.RuleSet;
import java.util.Set;

/**
 * A data contract written in Confluent's JSON, as Confluent's tools take its parts from files ({@code confluent
 * schema-registry schema create --ruleset FILE --metadata FILE}): a {@code ruleSet} object ({@code migrationRules},
 * {@code domainRules}, {@code encodingRules}, {@code enableAt}) and a {@code metadata} object ({@code tags},
 * {@code properties}, {@code sensitive}). Rules take Confluent's defaults: {@code kind} TRANSFORM, {@code mode}
 * WRITEREAD. Messages name the part and what is wrong, and quote nothing of the text but rule names.
 */
public final class DataContractJson {
  private static final Set<String> RULE_SET_FIELDS = Set.of("migrationRules", "domainRules", "encodingRules",
      "enableAt");
  private static final Set<String> METADATA_FIELDS = Set.of("tags", "properties", "sensitive");

  private DataContractJson() {}

  /**
   * The contract of these parts.
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
          : ContractJson.read(wrap("metadata", metadataNode), metadataLabel).metadata();
      RuleSet r = ruleSetNode == null ? RuleSet.EMPTY
          : ContractJson.read(wrap("ruleSet", ruleSetNode), ruleSetLabel).ruleSet();
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
}
