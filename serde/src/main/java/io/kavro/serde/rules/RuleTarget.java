package io.kavro.serde.rules;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import java.util.List;
import java.util.Objects;
import org.apache.avro.Schema;

/**
 * One rule, in one phase, against one schema version: what {@link RuleExecutor#prepare} gets.
 *
 * @param rule the rule
 * @param phase the phase it runs in: WRITE, READ, UPGRADE or DOWNGRADE
 * @param subject the subject of the schema version
 * @param schema the target schema: the writer's on write, the reader's on read, the newer (UPGRADE) or older
 *     (DOWNGRADE) version of a migration
 * @param contract the target version's metadata and rules
 * @param rules the rules of this phase in the order they run, {@code rule} among them
 * @param index where {@code rule} is in {@code rules}
 * @param registry the registry client, whose {@link SchemaRegistryClient#dekRegistry()} holds encryption keys
 */
public record RuleTarget(Rule rule, Rule.Mode phase, String subject, Schema schema, DataContract contract,
    List<Rule> rules, int index, SchemaRegistryClient registry) {
  /** Checks the components. */
  public RuleTarget {
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(schema, "schema");
    Objects.requireNonNull(contract, "contract");
    rules = List.copyOf(rules);
  }

  /**
   * A rule parameter: the rule's own {@code params}, else the target version's metadata property of that name
   * (Confluent's order); null when neither has it.
   */
  public String parameter(String name) {
    String value = rule.params().get(name);
    return value != null ? value : contract.metadata().properties().get(name);
  }

  /** What the rule is, and where: never its parameters, which may hold secrets. */
  @Override
  public String toString() {
    return rule + " on subject '" + subject + "' (" + phase + ")";
  }
}
