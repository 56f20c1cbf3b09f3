package io.kavro.kms.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.api.client.http.HttpHeaders;
import com.google.api.client.http.HttpResponseException;
import com.google.auth.Retryable;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleDeploymentException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The token endpoint's failures in the shapes no double here answers: STS's (workload identity federation), which
 * keep neither a status nor a cause, only OAuth's error code in the message; a gateway's 404 at the token URL.
 */
class CloudKmsFaultsTest {
  private static final GcpKeyName KEY =
      GcpKeyName.parse("gcp-kms://projects/acme/locations/global/keyRings/kavro/cryptoKeys/people");

  /** What google-auth throws for a token it could not get: an IOException that says whether to retry. */
  private static final class TokenFailure extends IOException implements Retryable {
    private static final long serialVersionUID = 1L;

    TokenFailure(String message, Throwable cause) {
      super(message, cause);
    }

    @Override
    public boolean isRetryable() {
      return false;
    }

    @Override
    public int getRetryCount() {
      return 0;
    }
  }

  @Test
  void stsRefusingTheRequest_byItsOAuthCode_isTheDeployments() {
    assertThatThrownBy(() -> CloudKmsFaults.of(KEY, "encrypt",
        new TokenFailure("Error code invalid_grant: the subject token is not valid", null)))
        .isExactlyInstanceOf(RuleDeploymentException.class).hasMessageContaining("invalid_grant");
  }

  @Test
  void stsFailingWithoutARefusal_noStatusNoCause_isAnOutage() {
    assertThat(CloudKmsFaults.of(KEY, "encrypt", new TokenFailure("Error code server_error: try again later", null)))
        .isInstanceOf(KmsUnavailableException.class);
  }

  @Test
  void aGatewaysNotFound_atTheTokenUrl_isAnOutage() {
    HttpResponseException notFound = new HttpResponseException.Builder(404, "Not Found", new HttpHeaders()).build();
    assertThat(CloudKmsFaults.of(KEY, "decrypt", new TokenFailure("Error getting access token", notFound)))
        .isInstanceOf(KmsUnavailableException.class).hasMessageContaining("for now");
  }
}
