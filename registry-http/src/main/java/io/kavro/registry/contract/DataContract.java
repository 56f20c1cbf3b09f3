package io.kavro.registry.contract;

import java.util.Objects;

/**
 * What a schema version carries beside its schema: its metadata and its rules. Confluent's registry keeps them
 * with the version, and a schema's id stands for schema, metadata and rules together.
 *
 * @param metadata the version's metadata
 * @param ruleSet the version's rules
 */
public record DataContract(Metadata metadata, RuleSet ruleSet) {
  /** Neither metadata nor rules: what every registry but Confluent's answers. */
  public static final DataContract NONE = new DataContract(Metadata.EMPTY, RuleSet.EMPTY);

  /** Checks that neither is null. */
  public DataContract {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(ruleSet, "ruleSet");
  }

  /** Whether the version has rules to run. */
  public boolean hasRules() {
    return !ruleSet.isEmpty();
  }
}
