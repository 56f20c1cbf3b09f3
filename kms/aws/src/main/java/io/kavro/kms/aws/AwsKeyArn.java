package io.kavro.kms.aws;

import io.kavro.serde.rules.RuleException;

/**
 * An AWS KMS key as a KEK names it: a key ARN ({@code arn:aws:kms:<region>:<account>:key/<id>}) or an alias ARN
 * ({@code arn:aws:kms:<region>:<account>:alias/<name>}), parsed as Confluent's driver parses it: the region is the
 * fourth field, and only a key ARN is checked against the key id that AWS answers a decrypt with. Immutable.
 *
 * @param arn the whole ARN, as sent to AWS as {@code KeyId}
 * @param region the region the KMS client calls
 * @param keyFormat whether it names a key ({@code key/...}), not an alias
 */
record AwsKeyArn(String arn, String region, boolean keyFormat) {
  /**
   * Parses a KEK's key id, with or without the {@code aws-kms://} prefix.
   *
   * @param what where the id comes from, for the message ("the KEK URL", "encrypt.alternate.kms.key.ids")
   * @throws RuleException when it is not an ARN with a region
   */
  static AwsKeyArn parse(String keyId, String what) {
    String arn = keyId.trim();
    if (arn.regionMatches(true, 0, AwsKmsDriver.PREFIX, 0, AwsKmsDriver.PREFIX.length())) {
      arn = arn.substring(AwsKmsDriver.PREFIX.length());
    }
    String[] fields = arn.split(":", -1);
    if (fields.length < 4 || !"arn".equals(fields[0]) || !"kms".equals(fields[2]) || fields[3].isBlank()) {
      throw new RuleException("invalid AWS KMS key '" + arn + "' in " + what + ": expected "
          + AwsKmsDriver.PREFIX + "arn:aws:kms:<region>:<account>:key/<id> (or :alias/<name>)");
    }
    return new AwsKeyArn(arn, fields[3], fields.length == 6 && fields[5].startsWith("key/"));
  }

  @Override
  public String toString() {
    return arn;
  }
}
