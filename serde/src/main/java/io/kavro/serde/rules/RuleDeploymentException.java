package io.kavro.serde.rules;

/**
 * A rule cannot run in this deployment: something it needs is missing from the class path or from the settings (the
 * KMS driver of its key's KMS type; the driver's credentials, half set, unreadable, refused by the KMS, or missing
 * where the driver has no default; settings the driver cannot use; a DEK registry; an executor of its type or one of
 * its actions: the cause of the serde's {@code io.kavro.registry.UnsupportedRulesException} then), or the contract
 * names what does not exist (a misspelt type). No record is at fault, and every record that meets the rule fails alike
 * until it is fixed. Thrown while a rule runs, the rule's {@code onFailure} action decides what follows, as for any
 * failure; thrown while it is prepared, the schema is refused. Where a host's error handling could skip records
 * (Kavro's Connect converter under {@code errors.tolerance=all}), it fails the task instead, so that no record is
 * skipped past it. Messages say what is missing; never key material or secrets.
 */
public class RuleDeploymentException extends RuleException {
  private static final long serialVersionUID = 1L;

  /** @param message what is missing and how to add it, naming the rule or the key */
  public RuleDeploymentException(String message) {
    super(message);
  }

  /** @param message what is missing and how to add it; @param cause why, or null */
  public RuleDeploymentException(String message, Throwable cause) {
    super(message, cause);
  }
}
