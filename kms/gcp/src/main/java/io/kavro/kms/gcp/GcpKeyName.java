package io.kavro.kms.gcp;

import io.kavro.serde.rules.RuleException;
import java.util.regex.Pattern;

/**
 * A Cloud KMS CryptoKey as a KEK names it: {@code gcp-kms://projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>}
 * (or its key id alone, as an alternate key id may be given). Confluent's KEK stores the resource name after
 * {@code gcp-kms://} as its {@code kmsKeyId}; Cloud KMS picks the key version itself (the primary on encrypt, the
 * one its ciphertext names on decrypt). Immutable.
 *
 * @param resourceName {@code projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>}
 */
record GcpKeyName(String resourceName) {
  /** The prefix of a KEK URL. */
  static final String PREFIX = GcpKmsDriver.KMS_TYPE + "://";
  private static final Pattern NAME =
      Pattern.compile("projects/[^/]+/locations/[^/]+/keyRings/[^/]+/cryptoKeys/[^/]+");

  /**
   * The key a KEK URL or key id names.
   *
   * @throws RuleException when it is not the resource name of a CryptoKey, naming what was given
   */
  static GcpKeyName parse(String keyUrl) {
    String name = keyUrl.trim();
    if (name.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      name = name.substring(PREFIX.length());
    }
    if (!NAME.matcher(name).matches()) {
      throw new RuleException("the Google Cloud KMS key '" + keyUrl + "' is not " + PREFIX
          + "projects/<project>/locations/<location>/keyRings/<key ring>/cryptoKeys/<key>");
    }
    return new GcpKeyName(name);
  }

  /** The KEK URL, {@code gcp-kms://<resource name>}. */
  @Override
  public String toString() {
    return PREFIX + resourceName;
  }
}
