package io.kavro.rules.encryption;

import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;

/**
 * Confluent's {@code ENCRYPT_PAYLOAD} rules (an encoding rule): encrypts the whole encoded Avro body on write and
 * decrypts it on read, with the DEK of the rule's KEK ({@code encrypt.kek.name}) and subject. The ciphertext is
 * the raw cipher output, with the DEK version prefix when {@code encrypt.dek.expiry.days > 0}; no base64.
 *
 * <p>Settings: those of the KMS drivers (the local KMS's {@code secret}), {@code cache.size} and
 * {@code cache.expiry.secs}. Thread-safe. {@link #close()} closes the KMS clients it made.
 */
public final class PayloadEncryptionExecutor implements io.kavro.serde.rules.RuleExecutor {
  /** The rule type. */
  public static final String TYPE = "ENCRYPT_PAYLOAD";
  private static final String PAYLOAD = "the payload";

  private final EncryptionFront front = new EncryptionFront(TYPE);

  /** An executor with the default settings, until {@link #configure}. */
  public PayloadEncryptionExecutor() {}

  @Override
  public String type() {
    return front.type();
  }

  @Override
  public void configure(java.util.Map<String, ?> configs) {
    front.configure(configs);
  }

  /** Closes the KMS clients this executor made (their SDK clients, connections, threads), once. */
  @Override
  public void close() {
    front.close();
  }

  @Override
  public String toString() {
    return front.toString();
  }

  /**
   * Prepares the rule.
   *
   * @throws NoDekRegistryException when the serde's registry client has no DEK registry
   * @throws RuleException when a parameter is missing or wrong, or the phase is a migration
   */
  @Override
  public PreparedRule prepare(RuleTarget target) {
    RuleCipher cipher = front.cipher(target);
    boolean write = EncryptionFront.encrypts(target);
    return (input, message) -> {
      if (!(message instanceof byte[] body)) {
        throw new RuleException(target.rule() + " takes the encoded payload (byte[]), not "
            + (message == null ? "null" : message.getClass().getName()));
      }
      return write ? cipher.encrypt(body, PAYLOAD) : cipher.decrypt(body, PAYLOAD);
    };
  }
}
