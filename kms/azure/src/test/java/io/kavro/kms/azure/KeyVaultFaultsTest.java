package io.kavro.kms.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpResponse;
import com.azure.identity.CredentialUnavailableException;
import com.microsoft.aad.msal4j.ManagedIdentitySourceType;
import com.microsoft.aad.msal4j.MsalServiceException;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleDeploymentException;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * How the Azure SDK's failures to get a token are sorted, in the shapes azure-identity 1.18 and msal4j 1.23 throw
 * them (read from their bytecode): none of the transient ones may be a final refusal, which a rule's
 * {@code onFailure=NONE} would pass over, writing the field in clear.
 */
class KeyVaultFaultsTest {
  private static final KeyVaultKeyId KEY = KeyVaultKeyId.parse("https://kavro.vault.azure.net/keys/kek/0123abcd");

  /**
   * The default chain at a pod's start, the instance metadata endpoint not answering yet: with two or more
   * credentials unavailable, the chain throws one CredentialUnavailableException without any cause.
   */
  @Test
  void noCredentialFoundForNow_causeless_isUnavailable_notARefusal() {
    RuntimeException chain = new CredentialUnavailableException("DefaultAzureCredential failed to retrieve a token "
        + "from the included credentials.\r\nManagedIdentityCredential authentication unavailable. Connection to "
        + "IMDS endpoint cannot be established, connect timed out.");
    assertThat(KeyVaultFaults.of(KEY, "encrypt", chain, null)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("for now").hasMessageContaining("IMDS");
    assertThat(KeyVaultFaults.isTemporary(chain)).isTrue();
    assertThat(KeyVaultFaults.isCredentialFailure(chain)).as("the identity client's, not retried by Key Vault's")
        .isTrue();
  }

  /** The managed identity endpoint's 5xx or 410 after its retries: msal4j keeps no status. */
  @Test
  void managedIdentityEndpointsAnswer_withoutAStatus_isUnavailable() {
    RuntimeException failed = new ClientAuthenticationException("Managed Identity authentication failed.", null,
        new ClientAuthenticationException("ManagedIdentityCredential authentication failed.", null,
            new MsalServiceException("Service unavailable", "managed_identity_request_failed",
                ManagedIdentitySourceType.IMDS)));
    assertThat(KeyVaultFaults.of(KEY, "decrypt", failed, null)).isInstanceOf(KmsUnavailableException.class);
  }

  /** A gateway in front of Entra ID answering 503 with no body (or HTML): msal4j keeps no status either. */
  @Test
  void gatewaysAnswerInFrontOfEntra_withoutAStatus_isUnavailable() {
    RuntimeException failed = new RuntimeException(new ExecutionException(new MsalServiceException(
        "Unknown service exception. Http request returned status code 503 with no response body", "unknown")));
    assertThat(KeyVaultFaults.of(KEY, "encrypt", failed, null)).isInstanceOf(KmsUnavailableException.class);
  }

  /** A proxy's 403 in front of Entra ID, its status read from msal4j's message: the deployment's, not an outage. */
  @Test
  void aRefusalMsalWordsTheStatusOf_isTheDeployments() {
    RuntimeException failed = new RuntimeException(new ExecutionException(new MsalServiceException(
        "Unknown service exception. Http request returned status code 403 with no response body", "unknown")));
    assertThatThrownBy(() -> KeyVaultFaults.of(KEY, "encrypt", failed, null))
        .isExactlyInstanceOf(RuleDeploymentException.class).hasMessageContaining("the credentials are refused")
        .hasMessageContaining("status code 403").hasNoCause();
  }

  /** Key Vault's own 401 (a token it does not accept, after the SDK's challenge): the deployment's credentials. */
  @Test
  void keyVaultsOwn401_isTheDeployments() {
    RuntimeException failed = new ClientAuthenticationException("Unauthorized", new StatusOnly(401));
    assertThatThrownBy(() -> KeyVaultFaults.of(KEY, "decrypt", failed, null))
        .isExactlyInstanceOf(RuleDeploymentException.class).hasMessageContaining("HTTP 401");
    RuntimeException forbidden = new HttpResponseException("Forbidden", new StatusOnly(403));
    assertThat(KeyVaultFaults.of(KEY, "decrypt", forbidden, null)).as("Key Vault's 403: the key's refusal")
        .isNotInstanceOf(KmsUnavailableException.class).hasMessageContaining("refused to decrypt");
  }

  /** Something other than Key Vault's or Entra ID's answer stays a refusal, and is not a credential's failure. */
  @Test
  void aFailureWithoutAnyOfThose_isARefusal_andNotACredentialFailure() {
    RuntimeException other = new IllegalStateException("the SDK's own");
    assertThat(KeyVaultFaults.of(KEY, "encrypt", other, null)).isNotInstanceOf(KmsUnavailableException.class);
    assertThat(KeyVaultFaults.isCredentialFailure(other)).isFalse();
  }

  /** An answer of the given status, and nothing else. */
  private static final class StatusOnly extends HttpResponse {
    private final int status;

    StatusOnly(int status) {
      super(null);
      this.status = status;
    }

    @Override
    public int getStatusCode() {
      return status;
    }

    @Override
    public String getHeaderValue(String name) {
      return null;
    }

    @Override
    public HttpHeaders getHeaders() {
      return new HttpHeaders();
    }

    @Override
    public Flux<ByteBuffer> getBody() {
      return Flux.empty();
    }

    @Override
    public Mono<byte[]> getBodyAsByteArray() {
      return Mono.empty();
    }

    @Override
    public Mono<String> getBodyAsString() {
      return Mono.empty();
    }

    @Override
    public Mono<String> getBodyAsString(Charset charset) {
      return Mono.empty();
    }
  }
}
