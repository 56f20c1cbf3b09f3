/**
 * The {@code aws-kms} KMS driver of Kavro's field and payload encryption ({@link io.kavro.kms.aws.AwsKmsDriver}),
 * byte-compatible with Confluent's: KEKs in AWS KMS, found by {@link java.util.ServiceLoader} beside kavro-rules.
 */
package io.kavro.kms.aws;
