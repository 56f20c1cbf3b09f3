package io.kavro.rules.encryption;

import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;
import java.util.Map;

/**
 * The front that {@code ENCRYPT} and {@code ENCRYPT_PAYLOAD} share, which each executor holds one of: the rule type,
 * the keys ({@link EncryptionKeys}: KMS clients and the DEK cache) with their settings and lifecycle, the cipher of
 * a rule and the phases it runs in. What each encrypts (fields, or the whole payload) is the executor's. Thread-safe.
 */
final class EncryptionFront {
  private final String type;
  private volatile EncryptionKeys keys;

  /** The front of an executor of rules of {@code type}, with the default settings until {@link #configure}. */
  EncryptionFront(String type) {
    this.type = type;
    this.keys = EncryptionKeys.configured(Map.of());
  }

  /** The rule type. */
  String type() {
    return type;
  }

  /** Keys with {@code configs}' settings from now on. */
  void configure(Map<String, ?> configs) {
    keys = keys.reconfigured(configs);
  }

  /** Closes the KMS clients this front made (their SDK clients, connections, threads), once. */
  void close() {
    keys.close();
  }

  /**
   * The cipher of {@code target}'s rule, with the keys configured now.
   *
   * @throws NoDekRegistryException when the serde's registry client has no DEK registry
   * @throws RuleException when a parameter is missing or wrong
   */
  RuleCipher cipher(RuleTarget target) {
    return new RuleCipher(target, keys);
  }

  /**
   * Whether {@code target}'s rule encrypts (on write) rather than decrypts (on read).
   *
   * @throws RuleException for a migration phase, in which an encryption rule does not run
   */
  static boolean encrypts(RuleTarget target) {
    if (target.phase() == Rule.Mode.WRITE) {
      return true;
    }
    if (target.phase() == Rule.Mode.READ) {
      return false;
    }
    throw new RuleException(target.rule() + " runs on write and read, not " + target.phase());
  }

  /** {@code "<type> executor"}: what the executor's {@code toString} shows. */
  @Override
  public String toString() {
    return type + " executor";
  }
}
