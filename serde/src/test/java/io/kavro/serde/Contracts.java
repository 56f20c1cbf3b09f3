package io.kavro.serde;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Data contracts for tests, written out. */
final class Contracts {
  private Contracts() {}

  static Rule rule(String name, Rule.Kind kind, Rule.Mode mode, String type, String expr) {
    return new Rule(name, null, kind, mode, type, Set.of(), Map.of(), expr, null, null, false);
  }

  static Rule rule(String name, Rule.Kind kind, Rule.Mode mode, String type, String expr, String onSuccess,
      String onFailure) {
    return new Rule(name, null, kind, mode, type, Set.of(), Map.of(), expr, onSuccess, onFailure, false);
  }

  static DataContract domain(Rule... rules) {
    return new DataContract(Metadata.EMPTY, new RuleSet(List.of(), List.of(rules), List.of(), null));
  }

  static DataContract domainAt(String enableAt, Rule... rules) {
    return new DataContract(Metadata.EMPTY, new RuleSet(List.of(), List.of(rules), List.of(), enableAt));
  }

  static DataContract encoding(Rule... rules) {
    return new DataContract(Metadata.EMPTY, new RuleSet(List.of(), List.of(), List.of(rules), null));
  }

  static DataContract migration(Map<String, String> properties, Rule... rules) {
    return new DataContract(new Metadata(Map.of(), properties, Set.of()),
        new RuleSet(List.of(rules), List.of(), List.of(), null));
  }
}
