package io.kavro.kms.azure;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.identity.CredentialUnavailableException;
import com.microsoft.aad.msal4j.ManagedIdentitySourceType;
import com.microsoft.aad.msal4j.MsalServiceException;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

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

  /** What Key Vault itself refused stays a refusal, and is retried by nobody. */
  @Test
  void aFailureWithoutAnyOfThose_isARefusal_andNotACredentialFailure() {
    RuntimeException other = new IllegalStateException("the SDK's own");
    assertThat(KeyVaultFaults.of(KEY, "encrypt", other, null)).isNotInstanceOf(KmsUnavailableException.class);
    assertThat(KeyVaultFaults.isCredentialFailure(other)).isFalse();
  }
}
