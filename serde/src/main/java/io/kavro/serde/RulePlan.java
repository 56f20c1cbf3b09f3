package io.kavro.serde;

import io.kavro.registry.RegistryInterruptedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.WrongRegistryUrlException;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleAction;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import io.kavro.serde.rules.RuleOutcome;
import io.kavro.serde.rules.RuleTarget;
import io.kavro.serde.rules.RuleUnavailableException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.header.Header;

/**
 * The rules of one list (domain, migration or encoding) in one phase against one schema version, prepared once
 * when a route is planned: what runs per record, in order, with each rule's actions resolved. Immutable and
 * thread-safe.
 */
final class RulePlan {
  /**
   * The header that names a rule a record already failed (a record re-read from a dead letter queue): that rule is
   * skipped, as Confluent's serdes skip it, unless it encrypts. Anyone who can write the topic (or a reprocessor
   * that forwards a dead letter's headers) can set it, so an encryption rule is never skipped by it: it would write
   * plaintext, or hand ciphertext on. Every skip is warned of, once.
   */
  static final String RULE_NAME_HEADER = "__rule.name";

  /** One prepared rule, with its actions, and its counters (null without rule metrics). */
  record Step(RuleTarget target, PreparedRule prepared, RuleAction onSuccess, RuleAction onFailure,
      Counted counted) {}

  /** A step's counters: the rule's, and those of its actions (null for no {@code onSuccess} action). */
  record Counted(RuleMetrics.Counters rule, RuleMetrics.Count onSuccess, RuleMetrics.Count onFailure) {}

  private final List<Step> steps;
  /**
   * Without rule metrics null; else, for each step, the rules that Confluent's dispatch loop skips before it (not
   * of this phase, or disabled), and last those after the last step.
   */
  private final RuleMetrics.Counters[][] skips;
  private final boolean transforms;
  private final EncryptionBypassLog bypasses;

  /**
   * @param skips null, or one list per step and one more: the rules counted as skipped before each step, and after
   *     the last
   * @param bypasses where an encryption rule whose failure an action passes over is warned of
   */
  RulePlan(List<Step> steps, List<List<RuleMetrics.Counters>> skips, EncryptionBypassLog bypasses) {
    this.steps = List.copyOf(steps);
    this.skips = skips == null ? null : skips.stream().map(group -> group.toArray(RuleMetrics.Counters[]::new))
        .toArray(RuleMetrics.Counters[][]::new);
    this.bypasses = bypasses;
    this.transforms = steps.stream().anyMatch(step -> step.target().rule().kind() == Rule.Kind.TRANSFORM);
  }

  /** Whether a rule runs: false for a plan that only counts skipped rules. */
  boolean runs() {
    return !steps.isEmpty();
  }

  /** Whether a rule may change the message: false when every rule is a condition. */
  boolean transforms() {
    return transforms;
  }

  List<Step> steps() {
    return steps;
  }

  /**
   * Runs every rule on {@code message}, in order: a transform's result goes on to the next rule, a failed rule's
   * {@code onFailure} action runs (by default an error that fails the record), a passed rule's {@code onSuccess}.
   *
   * @param original what the serde was given, for actions (the datum on write, the payload on read)
   * @return the message after the last transform
   * @throws org.apache.kafka.common.errors.SerializationException when an action fails the record
   * @throws RegistryUnavailableException when a rule could not reach the registry (the DEK registry, say): the
   *     record is retried, whatever the rule's actions say
   * @throws WrongRegistryUrlException when the registry URL leads to no registry's API: a configuration error,
   *     not the rule's failure, whatever the rule's actions say
   * @throws RegistryInterruptedException when the thread was interrupted while a rule waited for the registry: the
   *     record is not written or read, whatever the rule's actions say
   * @throws RetriableSerdeException when something the rule needs is unavailable for now (a {@link
   *     RuleUnavailableException}: a KMS that throttles or times out; or any Kafka {@link RetriableException}):
   *     the record is retried, whatever the rule's actions say
   */
  Object run(RuleInput input, Object message, Object original) {
    for (int i = 0; i < steps.size(); i++) {
      skipped(i);
      Step step = steps.get(i);
      Rule rule = step.target().rule();
      if (skippedByHeader(input, step)) {
        if (step.counted() != null) {
          step.counted().rule().skipped();
        }
        continue;
      }
      RuleException failure = null;
      Object output = null;
      try {
        output = step.prepared().apply(input, message);
      } catch (RegistryUnavailableException | WrongRegistryUrlException | RegistryInterruptedException e) {
        failed(step);
        throw e;
      } catch (RuntimeException e) {
        try {
          throwRegistryFault(e); // never a rule's failure that an action may pass over
          throwUnavailable(step, e); // nor is a KMS outage
        } catch (RuntimeException fault) {
          failed(step); // the rule did run, and failed: Confluent counts a KMS outage so too
          throw fault;
        }
        // an executor's own exception may quote field values: its class and stack trace only
        failure = e instanceof RuleException ruleFailure ? ruleFailure
            : RuleException.hidingValues("the rule threw " + e.getClass().getName(), e);
      }
      if (failure == null) {
        if (rule.kind() == Rule.Kind.CONDITION) {
          if (Boolean.FALSE.equals(output)) {
            failure = new RuleException(conditionFailed(rule));
          }
        } else if (output == null) {
          failure = new RuleException("the transform gave no message");
        } else {
          message = output;
        }
      }
      Counted counted = step.counted();
      if (failure == null) {
        if (counted != null) {
          counted.rule().succeeded();
        }
        if (step.onSuccess() != null) {
          if (counted != null) {
            counted.onSuccess().increment();
          }
          step.onSuccess().run(new RuleOutcome(step.target(), input, original, null));
        }
      } else {
        if (counted != null) {
          counted.rule().failed();
          counted.onFailure().increment();
        }
        step.onFailure().run(new RuleOutcome(step.target(), input, original, failure));
        // The action let the record go on.
        bypasses.failurePassedOver(rule, step.target().subject(), step.target().phase(), step.onFailure().type(),
            failure.getMessage());
      }
    }
    skipped(steps.size());
    return message;
  }

  /**
   * Counts the rules of a plan that runs none (a plan that only counts skips, with rule metrics) as skipped, as
   * Confluent's dispatch loop counts a list whose rules all are skipped; without rule metrics, nothing.
   *
   * @throws IllegalStateException when a rule of the plan runs: {@link #run} it instead
   */
  void countSkipped() {
    if (runs()) {
      throw new IllegalStateException("a plan whose rules run cannot only count them as skipped: "
          + steps.get(0).target());
    }
    skipped(0);
  }

  /** Counts the rules skipped before step {@code at} (after the last, for {@code steps.size()}). */
  private void skipped(int at) {
    if (skips != null) {
      for (RuleMetrics.Counters rule : skips[at]) {
        rule.skipped();
      }
    }
  }

  private static void failed(Step step) {
    if (step.counted() != null) {
      step.counted().rule().failed();
    }
  }

  /**
   * Throws the registry outage (a fault to retry), the wrong registry URL (a configuration error) or the interrupt
   * among the causes of {@code e}, however deep: executors wrap it (kavro-rules' encryption twice, the DEK
   * registry's failure in the cipher's), and a wrapped outage is still an outage.
   */
  private static void throwRegistryFault(RuntimeException e) {
    Causes.first(e.getCause(), RulePlan::isRegistryFault).ifPresent(fault -> {
      throw (SchemaRegistryException) fault;
    });
  }

  private static boolean isRegistryFault(Throwable cause) {
    return cause instanceof RegistryUnavailableException || cause instanceof WrongRegistryUrlException
        || cause instanceof RegistryInterruptedException;
  }

  /**
   * Throws a retriable failure when {@code e} is, or is caused by, a {@link RuleUnavailableException} or a Kafka
   * {@link RetriableException}: something the rule needs is unavailable for now, and no action may pass the record
   * over for it.
   */
  private static void throwUnavailable(Step step, RuntimeException e) {
    Causes.first(e, cause -> cause instanceof RuleUnavailableException || cause instanceof RetriableException)
        .ifPresent(unavailable -> {
          throw new RetriableSerdeException(step.target() + " could not run, for now: " + unavailable.getMessage()
              + "; retried, whatever its onFailure action says", e);
        });
  }

  /** Confluent's words for a condition that did not hold: the rule's doc, else its expression, else its name. */
  private static String conditionFailed(Rule rule) {
    if (rule.doc() != null && !rule.doc().isEmpty()) {
      return rule.doc();
    }
    if (rule.expr() != null && !rule.expr().isEmpty()) {
      return "Expr failed: '" + rule.expr() + "'";
    }
    return "Condition failed: '" + rule.name() + "'";
  }

  private boolean skippedByHeader(RuleInput input, Step step) {
    if (input.headers() == null) {
      return false;
    }
    Header header = input.headers().lastHeader(RULE_NAME_HEADER);
    Rule rule = step.target().rule();
    if (header == null || header.value() == null
        || !rule.name().equals(new String(header.value(), StandardCharsets.UTF_8))) {
      return false;
    }
    boolean skipped = !EncryptionBypassLog.encrypts(rule);
    bypasses.namedByHeader(rule, step.target().subject(), step.target().phase(), skipped);
    return skipped;
  }
}
