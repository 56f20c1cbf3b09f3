package io.kavro.maven;

import java.util.ArrayList;
import java.util.List;

/**
 * One subject's entry of {@code <ruleSet>}: the data contract's rules a registered version carries, in the shape of
 * Confluent's plugin ({@code migrationRules}, {@code domainRules}, {@code encodingRules}, each a list of
 * {@code <rule>}, and {@code enableAt}).
 */
public class RuleSet {
  List<Rule> migrationRules;
  List<Rule> domainRules;
  List<Rule> encodingRules;
  String enableAt;

  /** For Maven, which sets the fields. */
  public RuleSet() {}

  /**
   * The client's value.
   *
   * @param subject the subject it is for, for messages
   * @throws IllegalArgumentException naming the rule when one is wrong
   */
  io.kavro.registry.contract.RuleSet toContract(String subject) {
    return new io.kavro.registry.contract.RuleSet(rules(migrationRules, subject, "migrationRules"),
        rules(domainRules, subject, "domainRules"), rules(encodingRules, subject, "encodingRules"), enableAt);
  }

  private static List<io.kavro.registry.contract.Rule> rules(List<Rule> rules, String subject, String list) {
    List<io.kavro.registry.contract.Rule> converted = new ArrayList<>();
    if (rules != null) {
      for (Rule rule : rules) {
        converted.add(rule.toContract("<ruleSet> of subject '" + subject + "', " + list));
      }
    }
    return converted;
  }
}
