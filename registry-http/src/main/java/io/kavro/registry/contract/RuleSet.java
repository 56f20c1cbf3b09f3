package io.kavro.registry.contract;

import java.util.List;

/**
 * The rules of a schema version ({@code ruleSet}): migration rules between versions, domain rules on the message,
 * and encoding rules on the encoded body.
 *
 * @param migrationRules rules of mode UPGRADE, DOWNGRADE or UPDOWN
 * @param domainRules rules of mode WRITE, READ or WRITEREAD, on the message
 * @param encodingRules rules of mode WRITE, READ or WRITEREAD, on the encoded body ({@code ENCRYPT_PAYLOAD})
 * @param enableAt where the rule set runs ({@code ALL}, {@code CLIENT}, {@code GATEWAY}, {@code SERVER},
 *     {@code NONE}), or null for all
 */
public record RuleSet(List<Rule> migrationRules, List<Rule> domainRules, List<Rule> encodingRules,
    String enableAt) {
  /** No rules. */
  public static final RuleSet EMPTY = new RuleSet(List.of(), List.of(), List.of(), null);

  /** Copies the lists; null lists are empty. */
  public RuleSet {
    migrationRules = List.copyOf(migrationRules == null ? List.of() : migrationRules);
    domainRules = List.copyOf(domainRules == null ? List.of() : domainRules);
    encodingRules = List.copyOf(encodingRules == null ? List.of() : encodingRules);
  }

  /** Whether the set holds no rule at all. */
  public boolean isEmpty() {
    return migrationRules.isEmpty() && domainRules.isEmpty() && encodingRules.isEmpty();
  }
}
