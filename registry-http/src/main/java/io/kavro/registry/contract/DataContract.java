package io.kavro.registry.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

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

  /**
   * What a registry dropped of this contract, sent with a registration of {@code subject}, when the version it
   * answered ({@code id}) reads back as {@code readBack}: the error naming the subject, the id and the parts lost,
   * or empty when the registry kept some of each part sent. Apicurio and Karapace take the schema and drop its
   * metadata and rules without a word, and rules that never run are an error, not a silent loss: every tool that
   * registers a contract ({@code kavro schema register}, the Maven plugin's {@code register}) fails on this one
   * comparison.
   *
   * @param readBack the version's contract as the registry answers it, asked after the registration
   */
  public Optional<String> droppedBy(DataContract readBack, String subject, int id) {
    List<String> lost = new ArrayList<>();
    if (!ruleSet.isEmpty() && readBack.ruleSet().isEmpty()) {
      lost.add("rules");
    }
    if (!metadata.isEmpty() && readBack.metadata().isEmpty()) {
      lost.add("metadata");
    }
    if (lost.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of("the registry dropped the " + String.join(" and ", lost) + " of subject '" + subject
        + "': read back, schema id " + id + " has no " + String.join(" and no ", lost) + ", so the schema is "
        + "registered without them and they would never run. This registry keeps no data contracts (Apicurio and "
        + "Karapace do not): register them where they are kept (Confluent's registry, or kavro stack)");
  }
}
