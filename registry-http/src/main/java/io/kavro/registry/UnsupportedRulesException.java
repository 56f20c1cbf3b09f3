package io.kavro.registry;

/**
 * A schema carries data contract rules (Confluent's {@code ruleSet}) that this serde cannot run: a rule type with
 * no executor on the class path (add {@code io.kavro:kavro-rules}), or an action that is not configured. Writing
 * or reading as if they were not there could put plaintext where the contract says "encrypt", so such a schema
 * is refused, unless the application sets {@code rules.ignore=true}. Not retriable: the schema will not change.
 */
public class UnsupportedRulesException extends SchemaRegistryException {
  private static final long serialVersionUID = 1L;

  /** See {@link SchemaRegistryException#SchemaRegistryException(String, int, int, String, Throwable)}. */
  public UnsupportedRulesException(String message, int status, int errorCode, String url, Throwable cause) {
    super(message, status, errorCode, url, cause);
  }
}
