package io.kavro.rules.encryption;

import io.kavro.serde.rules.RuleDeploymentException;

/**
 * An encryption rule ({@code ENCRYPT}, {@code ENCRYPT_PAYLOAD}) whose serde's registry client has no DEK registry
 * (no client at all, a schema-repo client, a client without Confluent's {@code /dek-registry/v1}): no record could
 * ever be encrypted or decrypted, and a rule's {@code NONE} would pass every one over, so the rule is refused when
 * it is prepared, and the serde refuses the schema.
 */
public class NoDekRegistryException extends RuleDeploymentException {
  private static final long serialVersionUID = 1L;

  private final String subject;
  private final String ruleName;

  /**
   * @param subject the subject of the rule
   * @param ruleName the name of the encryption rule
   * @param message what is wrong, naming both
   * @param cause the client's refusal, or null
   */
  public NoDekRegistryException(String subject, String ruleName, String message, Throwable cause) {
    super(message, cause);
    this.subject = subject;
    this.ruleName = ruleName;
  }

  /** The subject of the refused rule. */
  public String subject() {
    return subject;
  }

  /** The name of the refused rule. */
  public String ruleName() {
    return ruleName;
  }
}
