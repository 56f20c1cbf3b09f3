package io.kavro.serde;

import io.kavro.serde.rules.RuleAction;
import io.kavro.serde.rules.RuleOutcome;
import org.apache.kafka.common.errors.SerializationException;

/** The actions every serde has: {@code NONE} and {@code ERROR}. */
final class BuiltInActions {
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(BuiltInActions.class);

  private BuiltInActions() {}

  /** Goes on: a failed transform leaves the message as it was; a failure is logged. */
  static final RuleAction NONE = new RuleAction() {
    @Override
    public String type() {
      return "NONE";
    }

    @Override
    public void run(RuleOutcome outcome) {
      if (outcome.failed()) {
        log.debug("{} failed on topic '{}' and is passed over (NONE): {}", outcome.target(), outcome.input().topic(),
            outcome.failure().getMessage());
      }
    }
  };

  /** Fails the record with an error that names the rule. */
  static final RuleAction ERROR = new RuleAction() {
    @Override
    public String type() {
      return "ERROR";
    }

    @Override
    public void run(RuleOutcome outcome) {
      throw failed(outcome);
    }
  };

  /** The error of a failed rule: its name, subject, phase and why. */
  static SerializationException failed(RuleOutcome outcome) {
    String why = outcome.failure() == null ? "its action failed the record" : outcome.failure().getMessage();
    return new SerializationException("Rule failed: " + outcome.target().rule().name() + " ("
        + outcome.target() + ", topic '" + outcome.input().topic() + "'): " + why, outcome.failure());
  }
}
