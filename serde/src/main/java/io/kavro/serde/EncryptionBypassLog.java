package io.kavro.serde;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns when an encryption rule ({@code ENCRYPT}, {@code ENCRYPT_PAYLOAD}) is passed over, so that no setting or
 * action that lets plaintext reach the wire (or ciphertext reach a reader) is silent: its {@code onFailure} action
 * let the record go on ({@code NONE}), it is disabled ({@code rule.executors.<name>.disabled}, its rule set's
 * {@code enableAt}, its own {@code disabled} flag), or {@code rules.ignore=true} ignores it; and any rule that a
 * record's {@code __rule.name} header skips (an encryption rule never is). Once per rule, subject,
 * phase and cause in one serde (one per {@link RuleEngine}), at WARN; a failure passed over later is logged at
 * DEBUG by the action. Thread-safe; what it remembers is bounded.
 */
final class EncryptionBypassLog {
  private static final Logger log = LoggerFactory.getLogger(EncryptionBypassLog.class);
  /** The rule types that keep data from the wrong eyes. */
  private static final Set<String> ENCRYPTION_TYPES = Set.of("ENCRYPT", "ENCRYPT_PAYLOAD");
  /** How many warnings one serde remembers having given; past it, no more are given. */
  private static final int MAX_REMEMBERED = 10_000;

  private final Set<String> warned = ConcurrentHashMap.newKeySet();

  /** Whether a rule encrypts: its type is {@code ENCRYPT} or {@code ENCRYPT_PAYLOAD}. */
  static boolean encrypts(Rule rule) {
    return ENCRYPTION_TYPES.contains(rule.type().toUpperCase(Locale.ROOT));
  }

  /** A failed encryption rule whose {@code onFailure} action ({@code action}) let the record go on. */
  void failurePassedOver(Rule rule, String subject, Rule.Mode phase, String action, String why) {
    if (encrypts(rule) && firstTime(rule, subject, phase, "failure")) {
      log.warn("{} on subject '{}' failed, and its onFailure action {} let the record go on: it is {}. The "
          + "failure: {}. Warned once per rule and serde; later ones are logged at DEBUG", rule, subject, action,
          outcome(phase), why);
    }
  }

  /** An encryption rule that does not run in {@code phase}: {@code why} says what turned it off. */
  void disabled(Rule rule, String subject, Rule.Mode phase, String why) {
    if (encrypts(rule) && firstTime(rule, subject, phase, "disabled")) {
      log.warn("{} on subject '{}' does not run ({}): records are {}", rule, subject, why, outcome(phase));
    }
  }

  /**
   * A record's {@code __rule.name} header names {@code rule}: it was skipped ({@code skipped}), or, an encryption
   * rule, it ran all the same. Any rule, once per rule, subject, phase and outcome in one serde.
   */
  void namedByHeader(Rule rule, String subject, Rule.Mode phase, boolean skipped) {
    if (!firstTime(rule, subject, phase, skipped ? "header-skip" : "header-run")) {
      return;
    }
    if (skipped) {
      log.warn("{} on subject '{}' was skipped in phase {}: the record's {} header names it (a record re-read "
          + "from a dead letter queue). Warned once per rule and serde", rule, subject, phase,
          RulePlan.RULE_NAME_HEADER);
    } else {
      log.warn("{} on subject '{}' ran in phase {} although the record's {} header names it: an encryption rule "
          + "is never skipped by a header. Warned once per rule and serde", rule, subject, phase,
          RulePlan.RULE_NAME_HEADER);
    }
  }

  /** {@code rules.ignore=true}: the encryption rules of {@code contract} that run in {@code phase} are ignored. */
  void ignored(DataContract contract, String subject, Rule.Mode phase) {
    if (contract == null) {
      return;
    }
    for (java.util.List<Rule> rules : java.util.List.of(contract.ruleSet().domainRules(),
        contract.ruleSet().encodingRules())) {
      for (Rule rule : rules) {
        if (rule.mode().runsIn(phase)) {
          disabled(rule, subject, phase, "rules.ignore=true");
        }
      }
    }
  }

  private boolean firstTime(Rule rule, String subject, Rule.Mode phase, String cause) {
    return warned.size() < MAX_REMEMBERED
        && warned.add(rule.name() + '\u0000' + subject + '\u0000' + phase + '\u0000' + cause);
  }

  private static String outcome(Rule.Mode phase) {
    return phase == Rule.Mode.WRITE ? "written in plaintext, without this encryption"
        : "handed on as ciphertext, without this decryption";
  }
}
