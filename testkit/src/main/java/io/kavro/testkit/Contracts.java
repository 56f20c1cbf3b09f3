package io.kavro.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.Map;

/**
 * The data contracts (a schema's {@code metadata} and {@code ruleSet}) that {@link DataContractLayer} remembers, and
 * the schema ids it answers for them. As in Confluent's registry, an id stands for a schema <em>and</em> its
 * contract: the registry behind the layer gives the same schema text one id whatever its contract, so the layer
 * keeps the registry's id for the schema without a contract (a version registered at the registry directly has
 * none) and answers an id of its own for each schema with a contract: the same schema under another subject with
 * other rules (or none) is another id, and leaves the first subject's untouched.
 *
 * <p>The ids of one instance count up from a base drawn at random in [{@link #LOWEST_LAYER_ID}, 2<sup>31</sup> -
 * {@link #IDS_PER_LAYER}): far above the ids of a test registry, and unlike those of another instance, so that a
 * layer started again in front of a registry that outlives it (or a client's schema cache on disk that outlives
 * both) does not meet an id it gave before standing for another schema or contract. Limits: the instances do not
 * coordinate, so two of them give one id with a chance of about (a + b) / 1.1 &times; 10<sup>9</sup>, a and b the
 * ids each made up; and an instance makes up at most {@link #IDS_PER_LAYER} ids.
 *
 * <p>Thread-safe: every method holds the instance's lock. The nodes it holds are private copies, and it hands out
 * copies.
 */
final class Contracts {
  /** The lowest id a layer makes up: far above the ids of a test registry, which count from 1. */
  static final int LOWEST_LAYER_ID = 1_000_000_000;
  /** How many ids one layer may make up. */
  static final int IDS_PER_LAYER = 10_000_000;

  /** A schema's contract: each part is an object node, or null when the schema has none. */
  record Contract(ObjectNode metadata, ObjectNode ruleSet) {
    static final Contract NONE = new Contract(null, null);

    /** True when this contract has neither part: a schema without a contract. */
    boolean isEmpty() {
      return metadata == null && ruleSet == null;
    }

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

  /** Every id the layer has made up for a contract, by that id. */
  private final Map<Integer, Identity> byId = new HashMap<>();
  /** The id the layer answers for each subject version registered through it. */
  private final Map<SubjectVersion, Integer> byVersion = new HashMap<>();
  private final int firstLayerId;
  private int nextLayerId;

  /** Ids from a base drawn at random. */
  Contracts() {
    this(LOWEST_LAYER_ID + new SecureRandom().nextInt(Integer.MAX_VALUE - IDS_PER_LAYER - LOWEST_LAYER_ID));
  }

  /** Ids from {@code firstLayerId} on. */
  Contracts(int firstLayerId) {
    if (firstLayerId < LOWEST_LAYER_ID || firstLayerId > Integer.MAX_VALUE - IDS_PER_LAYER) {
      throw new IllegalArgumentException("A layer's first id must be from " + LOWEST_LAYER_ID + " to "
          + (Integer.MAX_VALUE - IDS_PER_LAYER) + ", was " + firstLayerId);
    }
    this.firstLayerId = firstLayerId;
    this.nextLayerId = firstLayerId;
  }

  /**
   * Remembers {@code contract} for the subject's version, whose schema the registry gave {@code registryId}, and
   * answers the id that stands for that schema with that contract: the registry's own id when the contract is
   * empty, an id already made up for the same schema and contract, else a new one. The version's former contract
   * is replaced (the registry keeps one version for one schema text); its id keeps its contract, for the records
   * written with it.
   *
   * @throws IllegalStateException when this layer has made up all the ids it may
   */
  synchronized int put(String subject, int version, int registryId, Contract contract) {
    Integer id;
    if (contract.isEmpty()) {
      id = registryId;
    } else {
      Identity identity = new Identity(registryId, contract);
      id = byId.entrySet().stream().filter(e -> e.getValue().equals(identity)).map(Map.Entry::getKey).findFirst()
          .orElse(null);
      if (id == null) {
        if (nextLayerId - firstLayerId >= IDS_PER_LAYER) {
          throw new IllegalStateException("DataContractLayer has made up all the " + IDS_PER_LAYER
              + " schema ids it may; start another layer");
        }
        id = nextLayerId++;
        byId.put(id, identity);
      }
    }
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
   * The id the layer answers for the subject's version whose schema the registry now gives {@code registryId}: the
   * one it gave the version when it was registered through it, unless that stands for another registry id (the
   * subject was deleted and made again at the registry, not through the layer), else the registry's.
   */
  synchronized int idOf(String subject, int version, int registryId) {
    Integer id = byVersion.get(new SubjectVersion(subject, version));
    if (id == null) {
      return registryId;
    }
    Identity identity = byId.get(id);
    return identity != null && identity.registryId() == registryId ? id : registryId;
  }

  /**
   * The contract remembered for the subject's version, whatever the registry now answers for it: a first sift, to
   * be confirmed by {@link #of} with the registry's answer.
   */
  synchronized Contract registered(String subject, int version) {
    Integer id = byVersion.get(new SubjectVersion(subject, version));
    return id == null ? Contract.NONE : ofId(id);
  }

  /**
   * The contract of the subject's version whose schema the registry now gives {@code registryId}, or none when it
   * was not registered through the layer (or registered again at the registry since: see {@link #idOf}).
   */
  synchronized Contract of(String subject, int version, int registryId) {
    return ofId(idOf(subject, version, registryId));
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
