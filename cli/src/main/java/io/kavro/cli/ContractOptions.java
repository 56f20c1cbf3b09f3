package io.kavro.cli;

import io.kavro.registry.DataContractJson;
import io.kavro.registry.contract.DataContract;
import io.kavro.schematools.SchemaFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * The data contract {@code schema register} sends with a schema: {@code --rule-set FILE} and {@code --metadata
 * FILE}, each a JSON object in Confluent's shape, as Confluent's CLI takes them ({@code --ruleset},
 * {@code --metadata}); and what to say when the registry keeps none of it.
 */
final class ContractOptions {
  @Option(names = "--rule-set", paramLabel = "FILE", description = "The version's rules: a JSON file holding "
      + "Confluent's ruleSet object, with domainRules, migrationRules and encodingRules.")
  Path ruleSet;

  @Option(names = "--metadata", paramLabel = "FILE", description = "The version's metadata: a JSON file holding "
      + "Confluent's metadata object, with properties, tags and sensitive.")
  Path metadata;

  /**
   * The contract the files give, {@link DataContract#NONE} without them.
   *
   * @throws CliException (usage, exit 2) when a file cannot be read or is not a part of Confluent's shape
   */
  DataContract contract() {
    if (ruleSet == null && metadata == null) {
      return DataContract.NONE;
    }
    String ruleSetLabel = "--rule-set " + ruleSet;
    String metadataLabel = "--metadata " + metadata;
    try {
      return DataContractJson.parse(metadata == null ? null : SchemaFiles.read(metadataLabel, metadata),
          ruleSet == null ? null : SchemaFiles.read(ruleSetLabel, ruleSet), metadataLabel, ruleSetLabel);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage(), 2);
    }
  }

  /**
   * The error when the registry, read back, holds none of the rules or none of the metadata that were sent with
   * schema {@code id} (Apicurio and Karapace drop both without a word); empty when it holds some of each.
   */
  static Optional<String> lost(String subject, int id, DataContract sent, DataContract kept) {
    List<String> lost = new ArrayList<>();
    if (!sent.ruleSet().isEmpty() && kept.ruleSet().isEmpty()) {
      lost.add("rules");
    }
    if (!sent.metadata().isEmpty() && kept.metadata().isEmpty()) {
      lost.add("metadata");
    }
    if (lost.isEmpty()) {
      return Optional.empty();
    }
    String parts = String.join(" and ", lost);
    return Optional.of("the registry dropped the " + parts + " of subject '" + subject + "': read back, schema id "
        + id + " has no " + String.join(" and no ", lost) + ", so the schema is registered without them and they "
        + "would never run. This registry keeps no data contracts (Apicurio and Karapace do not): register them "
        + "where they are kept (Confluent's registry, or kavro stack)");
  }
}
