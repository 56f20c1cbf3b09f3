package io.kavro.cli;

import io.kavro.registry.factory.ContractFiles;
import io.kavro.registry.contract.DataContract;
import io.kavro.schematools.SchemaFiles;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The data contract {@code schema register} sends with a schema: {@code --rule-set FILE} and {@code --metadata
 * FILE}, each a JSON object in Confluent's shape, as Confluent's CLI takes them ({@code --ruleset},
 * {@code --metadata}).
 * What the registry must keep of it is {@link DataContract#droppedBy}'s to say.
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
      return ContractFiles.parse(metadata == null ? null : SchemaFiles.read(metadataLabel, metadata),
          ruleSet == null ? null : SchemaFiles.read(ruleSetLabel, ruleSet), metadataLabel, ruleSetLabel);
    } catch (IllegalArgumentException e) {
      throw new CliException(e.getMessage(), 2);
    }
  }
}
