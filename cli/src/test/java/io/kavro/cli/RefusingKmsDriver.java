package io.kavro.cli;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsDriver;
import io.kavro.serde.rules.RuleDeploymentException;
import java.util.Map;

/**
 * A KMS ({@code refusing-kms}) that refuses this deployment's credentials on every call, as AWS KMS answers
 * {@code UnrecognizedClientException}: what a driver throws then ({@link RuleDeploymentException}).
 */
public final class RefusingKmsDriver implements KmsDriver {
  /** What every call's failure says. */
  static final String REFUSAL = "the KMS refused this deployment's credentials (refusing-kms)";

  @Override
  public String kmsType() {
    return "refusing-kms";
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    return new KmsClient() {
      @Override
      public byte[] encrypt(byte[] plaintext) {
        throw new RuleDeploymentException(REFUSAL);
      }

      @Override
      public byte[] decrypt(byte[] ciphertext) {
        throw new RuleDeploymentException(REFUSAL);
      }
    };
  }
}
