package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;

/**
 * The data contracts (a schema's {@code metadata} and {@code ruleSet}) that {@link DataContractLayer} remembers, and
 * the schema ids it answers for them. As in Confluent's registry, an id stands for a schema <em>and</em> its
 * contract: the registry behind the layer gives the same schema text one id whatever its contract, so the layer
 * answers that id for the schema's first contract and an id of its own ({@link #FIRST_LAYER_ID} and up) for each
 * other contract it meets with that schema: the same schema under another subject with other rules (or none) is
 * another id, and leaves the first subject's untouched. Thread-safe: every method holds the instance's lock. The
 * nodes it holds are private copies, and it hands out copies.
 */
final class Contracts {
  /**
   * The first id the layer makes up for a schema the registry already answered an id for, with another contract:
   * far above the ids of a test registry, which count from 1.
   */
  static final int FIRST_LAYER_ID = 1_000_000_001;

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

  /** What an id of the layer stands for: the registry's id of the schema, and the contract. */
  private record Identity(int registryId, Contract contract) {}

  private record SubjectVersion(String subject, int version) {}

  /** Every id the layer has answered for a contract, by that id. */
  private final Map<Integer, Identity> byId = new HashMap<>();
  /** The id the layer answers for each subject version registered through it. */
  private final Map<SubjectVersion, Integer> byVersion = new HashMap<>();
  private int nextLayerId = FIRST_LAYER_ID;

  /**
   * Remembers {@code contract} for the subject's version, whose schema the registry gave {@code registryId}, and
   * answers the id that stands for that schema with that contract: the registry's own id if it stands for no
   * other contract, an id already given to the same schema and contract, else a new one. The version's former
   * contract is replaced (the registry keeps one version for one schema text); its id keeps its contract, for the
   * records written with it.
   */
  synchronized int put(String subject, int version, int registryId, Contract contract) {
    Identity identity = new Identity(registryId, contract);
    Integer id = identity.equals(byId.get(registryId)) || !byId.containsKey(registryId) ? Integer.valueOf(registryId)
        : byId.entrySet().stream().filter(e -> e.getValue().equals(identity)).map(Map.Entry::getKey).findFirst()
            .orElse(null);
    if (id == null) {
      id = nextLayerId++;
    }
    byId.put(id, identity);
    byVersion.put(new SubjectVersion(subject, version), id);
    return id;
  }

  /** The contract that schema id {@code id} (the layer's) stands for, or none. */
  synchronized Contract ofId(int id) {
    Identity identity = byId.get(id);
    return identity == null ? Contract.NONE : identity.contract();
  }

  /** The registry's id of the schema that the layer's {@code id} stands for: {@code id} itself unless it made it up. */
  synchronized int registryId(int id) {
    Identity identity = byId.get(id);
    return identity == null ? id : identity.registryId();
  }

  /**
   * The id the layer answers for the subject's version whose schema the registry gave {@code registryId}: the one
   * it gave the version when it was registered through it, else the registry's.
   */
  synchronized int idOf(String subject, int version, int registryId) {
    return byVersion.getOrDefault(new SubjectVersion(subject, version), registryId);
  }

  /** The contract of the subject's version, or none when it was not registered through the layer. */
  synchronized Contract of(String subject, int version) {
    Integer id = byVersion.get(new SubjectVersion(subject, version));
    return id == null ? Contract.NONE : ofId(id);
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
