package io.kavro.rules.encryption;

import io.kavro.registry.contract.Rule;
import io.kavro.rules.field.FieldContext;
import io.kavro.rules.field.FieldTransform;
import io.kavro.rules.field.FieldType;
import io.kavro.rules.field.FieldWalker;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Confluent's {@code ENCRYPT} rules: client-side field level encryption of the fields the rule's tags select
 * ({@link FieldWalker}), with the DEK of the rule's KEK ({@code encrypt.kek.name}) and subject. On write a string
 * becomes the base64 (standard alphabet, padded) of its ciphertext and bytes their raw ciphertext, each with the
 * DEK version prefix when {@code encrypt.dek.expiry.days > 0}; a field of another type fails the rule, unless it is
 * a branch of a union of several types, which is left as it is. On read strings and bytes are decrypted, other
 * values left as they are. A schema with no field at all (a {@code string} key subject) is refused when the rule is
 * prepared ({@link NoFieldsToEncryptException}), as is a serde whose client has no DEK registry
 * ({@link NoDekRegistryException}); a rule whose tags select no field (a typo) is warned of, once per rule and
 * subject. A field that cannot be decrypted fails the rule with a message that names the field (the rule's
 * {@code onFailure} decides: {@code "ERROR,NONE"} passes the ciphertext on read).
 *
 * <p>Settings: those of the KMS drivers (the local KMS's {@code secret}), {@code cache.size} and
 * {@code cache.expiry.secs}. Thread-safe. {@link #close()} closes the KMS clients it made.
 */
public final class FieldEncryptionExecutor implements io.kavro.serde.rules.RuleExecutor {
  /** The rule type. */
  public static final String TYPE = "ENCRYPT";
  private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(FieldEncryptionExecutor.class);
  /** How many rules that select no field one executor remembers having warned of; past it, no more are. */
  private static final int MAX_WARNED = 10_000;

  private final java.util.Set<String> warnedSelectsNone = java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final EncryptionFront front = new EncryptionFront(TYPE);

  /** An executor with the default settings, until {@link #configure}. */
  public FieldEncryptionExecutor() {}

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
   * @throws NoFieldsToEncryptException when the target schema has no field (a {@code string} key subject): the
   *     rule would write the whole message in clear; {@code ENCRYPT_PAYLOAD} encrypts such a subject
   * @throws NoDekRegistryException when the serde's registry client has no DEK registry
   * @throws RuleException when a parameter is missing or wrong, or the phase is a migration
   */
  @Override
  public PreparedRule prepare(RuleTarget target) {
    FieldWalker walker = FieldWalker.of(target);
    if (!walker.hasFields()) {
      throw new NoFieldsToEncryptException(target.subject(), target.rule().name(), target.rule() + " on subject '"
          + target.subject() + "': its schema (" + target.schema().getType().getName() + ") has no field to "
          + "encrypt, so the rule would write every record in clear; encrypt this subject's payload with an "
          + PayloadEncryptionExecutor.TYPE + " rule in its encodingRules instead");
    }
    if (!walker.selectsAny() && warnedSelectsNone.size() < MAX_WARNED
        && warnedSelectsNone.add(target.rule().name() + '\u0000' + target.subject())) {
      log.warn("{} on subject '{}' selects no field: no field of its schema has any of its tags {} (inline {} or "
          + "the contract's metadata.tags), so every record is written in clear. A typo in the tags? Warned once "
          + "per rule and subject", target.rule(), target.subject(), target.rule().tags(), FieldWalker.TAGS_PROP);
    }
    RuleCipher cipher = front.cipher(target);
    FieldTransform transform = EncryptionFront.encrypts(target)
        ? (field, value) -> encrypt(target.rule(), cipher, field, value)
        : (field, value) -> decrypt(target.rule(), cipher, field, value);
    return (input, message) -> walker.walk(message, transform);
  }

  private static Object encrypt(Rule rule, RuleCipher cipher, FieldContext field, Object value) {
    if (value == null) {
      return null;
    }
    if (field.type() == FieldType.STRING) {
      byte[] encrypted = cipher.encrypt(((String) value).getBytes(StandardCharsets.UTF_8), describe(field));
      return Base64.getEncoder().encodeToString(encrypted);
    }
    if (field.type() == FieldType.BYTES) {
      return cipher.encrypt((byte[]) value, describe(field));
    }
    if (field.inCombined()) {
      return value;
    }
    throw new RuleException(rule + ": " + describe(field) + " has type " + field.type() + ": type " + field.type()
        + " not supported for encryption (only STRING and BYTES)");
  }

  private static Object decrypt(Rule rule, RuleCipher cipher, FieldContext field, Object value) {
    if (value == null) {
      return null;
    }
    if (field.type() == FieldType.STRING) {
      byte[] encrypted;
      try {
        encrypted = Base64.getDecoder().decode((String) value);
      } catch (IllegalArgumentException e) {
        throw new RuleException(rule + " cannot decrypt " + describe(field) + ": it is not base64");
      }
      return new String(cipher.decrypt(encrypted, describe(field)), StandardCharsets.UTF_8);
    }
    if (field.type() == FieldType.BYTES) {
      return cipher.decrypt((byte[]) value, describe(field));
    }
    return value;
  }

  private static String describe(FieldContext field) {
    return "field '" + field.fullName() + "'";
  }
}
