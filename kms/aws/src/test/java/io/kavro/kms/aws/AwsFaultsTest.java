package io.kavro.kms.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleDeploymentException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.kms.model.KmsException;

/** AWS's answers in the shapes the double does not give: expired credentials, and STS's refusal of a role. */
class AwsFaultsTest {
  private static final AwsKeyArn KEY =
      AwsKeyArn.parse("arn:aws:kms:eu-west-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab", "the test");

  private static KmsException answer(int status, String code) {
    return (KmsException) KmsException.builder().statusCode(status).message(code + ": as AWS words it")
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("as AWS words it").build()).build();
  }

  /** A refreshing provider meets expired credentials for a while: an outage, never a rule passed over. */
  @Test
  void expiredCredentials_areAnOutage() {
    assertThat(AwsFaults.of("encrypt", KEY, answer(400, "ExpiredTokenException")))
        .isInstanceOf(KmsUnavailableException.class);
    assertThat(AwsFaults.of("decrypt", KEY, answer(403, "ExpiredToken"))).isInstanceOf(KmsUnavailableException.class);
  }

  /** STS's AccessDenied (a role the credentials may not assume) is the deployment's; KMS's own is the key's. */
  @Test
  void stsAccessDenied_isTheDeployments_kmsAccessDeniedTheKeys() {
    assertThatThrownBy(() -> AwsFaults.of("encrypt", KEY, answer(403, "AccessDenied")))
        .isExactlyInstanceOf(RuleDeploymentException.class).hasMessageContaining("refused the credentials");
    assertThat(AwsFaults.of("encrypt", KEY, answer(400, "AccessDeniedException")))
        .isNotInstanceOf(KmsUnavailableException.class).hasMessageContaining("refused to encrypt");
  }
}
