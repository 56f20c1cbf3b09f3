package io.kavro.rules.encryption;

import io.kavro.serde.rules.RuleException;

/**
 * An {@code ENCRYPT} rule on a schema that has no field to encrypt (a {@code string} or {@code bytes} key subject,
 * an enum, an array of strings): field-level encryption would write the whole message in clear, so the rule is
 * refused when it is prepared, and the serde refuses the schema. Such a subject is encrypted by an
 * {@code ENCRYPT_PAYLOAD} rule in its {@code encodingRules}.
 */
public class NoFieldsToEncryptException extends RuleException {
  private static final long serialVersionUID = 1L;

  private final String subject;
  private final String ruleName;

  /**
   * @param subject the subject whose schema has no field
   * @param ruleName the name of the ENCRYPT rule
   * @param message what is wrong and what to do, naming both
   */
  public NoFieldsToEncryptException(String subject, String ruleName, String message) {
    super(message);
    this.subject = subject;
    this.ruleName = ruleName;
  }

  /** The subject whose schema has no field. */
  public String subject() {
    return subject;
  }

  /** The name of the refused rule. */
  public String ruleName() {
    return ruleName;
  }
}
