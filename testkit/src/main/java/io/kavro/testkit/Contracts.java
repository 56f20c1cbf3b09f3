package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;

/**
 * The data contracts (a schema's {@code metadata} and {@code ruleSet}) that {@link DataContractLayer} remembers, by
 * schema id and by subject and version. Thread-safe: every method holds the instance's lock. The nodes it holds
 * are private copies, and it hands out copies.
 */
final class Contracts {

  /** A schema's contract: each part is an object node, or null when the schema has none. */
  record Contract(ObjectNode metadata, ObjectNode ruleSet) {
    static final Contract NONE = new Contract(null, null);

    /** Each part of this contract, or else the same part of {@code previous}, as Confluent inherits them. */
    Contract orElse(Contract previous) {
      return new Contract(metadata != null ? metadata : previous.metadata,
          ruleSet != null ? ruleSet : previous.ruleSet);
    }

    /** Adds the parts this contract has to a registry answer about a schema. */
    void addTo(ObjectNode answer) {
      if (metadata != null) {
        answer.set("metadata", metadata.deepCopy());
      }
      if (ruleSet != null) {
        answer.set("ruleSet", ruleSet.deepCopy());
      }
    }

    /** True when every {@code key=value} pair is among the metadata's properties. */
    boolean hasProperties(Map<String, String> pairs) {
      JsonNode properties = metadata == null ? null : metadata.get("properties");
      for (Map.Entry<String, String> pair : pairs.entrySet()) {
        JsonNode value = properties == null ? null : properties.get(pair.getKey());
        if (value == null || !value.isTextual() || !value.asText().equals(pair.getValue())) {
          return false;
        }
      }
      return true;
    }
  }

  private record SubjectVersion(String subject, int version) {}

  private final Map<Integer, Contract> byId = new HashMap<>();
  private final Map<SubjectVersion, Contract> byVersion = new HashMap<>();

  /** Remembers {@code contract} for the schema id and for the subject's version, replacing what was there. */
  synchronized void put(String subject, int version, int id, Contract contract) {
    byId.put(id, contract);
    byVersion.put(new SubjectVersion(subject, version), contract);
  }

  synchronized Contract ofId(int id) {
    return byId.getOrDefault(id, Contract.NONE);
  }

  synchronized Contract of(String subject, int version) {
    return byVersion.getOrDefault(new SubjectVersion(subject, version), Contract.NONE);
  }

  /**
   * Normalizes a rule set as Confluent's registry stores it: a rule without {@code kind} is a TRANSFORM, one
   * without {@code mode} is WRITEREAD, and {@code disabled} is written as false. (Clients such as Confluent's
   * JavaScript one rely on {@code kind} being there.)
   */
  static ObjectNode normalizeRuleSet(ObjectNode ruleSet) {
    ObjectNode copy = ruleSet.deepCopy();
    for (String list : new String[] {"migrationRules", "domainRules", "encodingRules"}) {
      JsonNode rules = copy.get(list);
      if (rules == null || !rules.isArray()) {
        continue;
      }
      for (JsonNode rule : rules) {
        if (rule instanceof ObjectNode object) {
          if (!object.hasNonNull("kind")) {
            object.put("kind", "TRANSFORM");
          }
          if (!object.hasNonNull("mode")) {
            object.put("mode", "WRITEREAD");
          }
          if (!object.hasNonNull("disabled")) {
            object.put("disabled", false);
          }
        }
      }
    }
    return copy;
  }
}
