package io.kavro.rules.encryption;

import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.DekRegistry;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;
import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.util.function.Supplier;

/**
 * The cipher of one prepared encryption rule: its parameters, its subject's DEKs, and Confluent's ciphertext
 * layout. With {@code encrypt.dek.expiry.days > 0} a ciphertext starts with {@code 0x00 ‖ int32 DEK version}; else
 * it is the bare cipher output. Thread-safe.
 */
final class RuleCipher {
  private static final int PREFIX_SIZE = 5;

  private final RuleTarget target;
  private final EncryptionParams params;
  private final EncryptionKeys keys;
  private final Supplier<DekRegistry> registry;

  RuleCipher(RuleTarget target, EncryptionKeys keys) {
    this.target = target;
    this.params = EncryptionParams.of(target);
    this.keys = keys;
    DekRegistry deks = dekRegistry(target);
    this.registry = () -> deks;
  }

  /**
   * The DEK registry of the target's client, looked up when the rule is prepared.
   *
   * @throws NoDekRegistryException when there is none: the rule could never run
   */
  private static DekRegistry dekRegistry(RuleTarget target) {
    String refused = target.rule() + " on subject '" + target.subject() + "' needs a DEK registry (Confluent's "
        + "/dek-registry/v1), and ";
    if (target.registry() == null) {
      throw new NoDekRegistryException(target.subject(), target.rule().name(), refused
          + "the serde has no registry client", null);
    }
    DekRegistry deks;
    try {
      deks = target.registry().dekRegistry();
    } catch (UnsupportedRegistryApiException e) {
      throw new NoDekRegistryException(target.subject(), target.rule().name(), refused + "its registry client has "
          + "none: " + e.getMessage(), e);
    }
    if (deks == null) {
      throw new NoDekRegistryException(target.subject(), target.rule().name(), refused + "its registry client has "
          + "none", null);
    }
    return deks;
  }

  /**
   * Encrypts {@code plaintext}.
   *
   * @param what what is encrypted, for messages ({@code "field 'ns.R.f'"}, {@code "the payload"})
   * @throws RuleException when there is no key to encrypt with
   */
  byte[] encrypt(byte[] plaintext, String what) {
    EncryptionKeys.DataKey key = withRule("encrypt", what, () -> keys.writeKey(params, target.subject(), registry));
    byte[] cipher;
    try {
      cipher = key.cryptor().encrypt(plaintext);
    } catch (GeneralSecurityException e) {
      throw new RuleException(target.rule() + " cannot encrypt " + what + ": " + e.getMessage(), e);
    }
    if (!params.rotates()) {
      return cipher;
    }
    return ByteBuffer.allocate(PREFIX_SIZE + cipher.length).put((byte) 0).putInt(key.version()).put(cipher).array();
  }

  /**
   * Decrypts {@code ciphertext}.
   *
   * @throws RuleException when it cannot be decrypted: no key, a wrong version prefix, a changed ciphertext
   */
  byte[] decrypt(byte[] ciphertext, String what) {
    int version = DekRegistry.LATEST;
    int offset = 0;
    if (params.rotates()) {
      if (ciphertext.length < PREFIX_SIZE || ciphertext[0] != 0) {
        throw new RuleException(target.rule() + " cannot decrypt " + what + ": it does not start with the DEK "
            + "version prefix (0x00 and 4 bytes) that " + EncryptionParams.DEK_EXPIRY_DAYS + " > 0 writes");
      }
      version = ByteBuffer.wrap(ciphertext, 1, 4).getInt();
      offset = PREFIX_SIZE;
    }
    int dekVersion = version;
    EncryptionKeys.DataKey key = withRule("decrypt", what, () -> keys.readKey(params, target.subject(), dekVersion, registry));
    byte[] cipher = offset == 0 ? ciphertext : java.util.Arrays.copyOfRange(ciphertext, offset, ciphertext.length);
    try {
      return key.cryptor().decrypt(cipher);
    } catch (GeneralSecurityException e) {
      throw new RuleException(target.rule() + " cannot decrypt " + what + " with the " + params.algorithm()
          + " DEK version " + key.version() + " of KEK '" + params.kekName() + "': " + e.getMessage(), e);
    }
  }

  private <T> T withRule(String verb, String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuleDeploymentException e) {
      // kept a deployment fault: what the deployment lacks, for the rule's action and the host's error handling
      throw new RuleDeploymentException(target.rule() + " cannot " + verb + " " + what + ": " + e.getMessage(), e);
    } catch (RuleException e) {
      throw new RuleException(target.rule() + " cannot " + verb + " " + what + ": " + e.getMessage(), e);
    }
  }
}
