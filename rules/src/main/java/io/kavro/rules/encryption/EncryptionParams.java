package io.kavro.rules.encryption;

import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;

/**
 * The parameters of an encryption rule, read once when it is prepared ({@link RuleTarget#parameter}: the rule's
 * params, then the schema version's metadata properties).
 *
 * @param kekName {@code encrypt.kek.name}, required
 * @param kmsType {@code encrypt.kms.type}, or null (needed to create the KEK)
 * @param kmsKeyId {@code encrypt.kms.key.id}, or null (needed to create the KEK)
 * @param algorithm {@code encrypt.dek.algorithm}, AES256_GCM by default
 * @param expiryDays {@code encrypt.dek.expiry.days}: 0 (the default) keeps DEK version 1 for ever and writes no
 *     version prefix; more rotates the DEK when it is that old, and writes {@code 0x00 ‖ int32 version} before
 *     each ciphertext
 */
record EncryptionParams(String kekName, String kmsType, String kmsKeyId, DekAlgorithm algorithm, int expiryDays) {
  static final String KEK_NAME = "encrypt.kek.name";
  static final String KMS_TYPE = "encrypt.kms.type";
  static final String KMS_KEY_ID = "encrypt.kms.key.id";
  static final String DEK_ALGORITHM = "encrypt.dek.algorithm";
  static final String DEK_EXPIRY_DAYS = "encrypt.dek.expiry.days";

  /**
   * The parameters of a rule.
   *
   * @throws RuleException when {@code encrypt.kek.name} is missing, or another is not valid
   */
  static EncryptionParams of(RuleTarget target) {
    String kekName = blankToNull(target.parameter(KEK_NAME));
    if (kekName == null) {
      throw new RuleException(target.rule() + " has no " + KEK_NAME);
    }
    DekAlgorithm algorithm;
    try {
      algorithm = DekAlgorithm.named(target.parameter(DEK_ALGORITHM));
    } catch (RuleException e) {
      throw new RuleException(target.rule() + ": " + e.getMessage());
    }
    return new EncryptionParams(kekName, blankToNull(target.parameter(KMS_TYPE)),
        blankToNull(target.parameter(KMS_KEY_ID)), algorithm, expiryDays(target));
  }

  /** Whether DEKs rotate, and ciphertexts carry the DEK version. */
  boolean rotates() {
    return expiryDays > 0;
  }

  private static int expiryDays(RuleTarget target) {
    String value = blankToNull(target.parameter(DEK_EXPIRY_DAYS));
    if (value == null) {
      return 0;
    }
    try {
      int days = Integer.parseInt(value.trim());
      if (days >= 0) {
        return days;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new RuleException(target.rule() + ": " + DEK_EXPIRY_DAYS + " is '" + value
        + "', not a whole number of days (0 or more)");
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }
}
