package io.kavro.registry.factory;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.internal.http.ContractJson;

/**
 * A data contract read from files in Confluent's JSON, as Confluent's tools take its parts ({@code confluent
 * schema-registry schema create --ruleset FILE --metadata FILE}): a {@code ruleSet} object ({@code migrationRules},
 * {@code domainRules}, {@code encodingRules}, {@code enableAt}) and a {@code metadata} object ({@code tags},
 * {@code properties}, {@code sensitive}), with Confluent's defaults (a rule's {@code kind} TRANSFORM, {@code mode}
 * WRITEREAD). For the tools that register: the console tool and the Maven plugin. Stateless and thread-safe.
 */
public final class ContractFiles {
  private ContractFiles() {}

  /**
   * The contract of these parts, read as a registry's answer is, and stricter: a field Confluent's shape does not
   * have is refused. Messages name the part and what is wrong, and quote nothing of the text but rule names.
   *
   * @param metadata the {@code metadata} object's JSON, or null for none
   * @param ruleSet the {@code ruleSet} object's JSON, or null for none
   * @param metadataLabel how the caller names the metadata's source, for messages ({@code --metadata m.json})
   * @param ruleSetLabel how the caller names the rule set's source, for messages
   * @return the contract, or {@link DataContract#NONE} when both parts are absent or empty
   * @throws IllegalArgumentException when a part is not JSON, not an object, has a field Confluent's shape does
   *     not, or holds a rule without a name or type, or of an unknown kind or mode
   */
  public static DataContract parse(String metadata, String ruleSet, String metadataLabel, String ruleSetLabel) {
    return ContractJson.parse(metadata, ruleSet, metadataLabel, ruleSetLabel);
  }
}
