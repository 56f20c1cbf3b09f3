package io.kavro.kms.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.identity.ClientSecretCredentialBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import io.kavro.rules.encryption.KmsSettings;
import java.util.Map;

/**
 * The Azure credential of a KEK, from Confluent's settings: {@code tenant.id}, {@code client.id} and
 * {@code client.secret} together give a service principal's client-secret credential; without all three, Azure's
 * default credential chain ({@code AZURE_CLIENT_ID} / {@code AZURE_CLIENT_SECRET} / {@code AZURE_TENANT_ID},
 * workload identity, managed identity, the Azure CLI, ...). Either way the token endpoint is Azure's authority host
 * ({@code AZURE_AUTHORITY_HOST}, public cloud by default). Immutable; its text never holds the secret.
 */
final class AzureCredentials {
  /** The setting of the service principal's tenant. */
  static final String TENANT_ID = "tenant.id";
  /** The setting of the service principal's application (client) id. */
  static final String CLIENT_ID = "client.id";
  /** The setting of the service principal's client secret. */
  static final String CLIENT_SECRET = "client.secret";

  private final String tenantId;
  private final String clientId;
  private final String clientSecret;

  private AzureCredentials(String tenantId, String clientId, String clientSecret) {
    this.tenantId = tenantId;
    this.clientId = clientId;
    this.clientSecret = clientSecret;
  }

  /** The credential the settings name. */
  static AzureCredentials from(Map<String, ?> configs) {
    return new AzureCredentials(KmsSettings.text(configs, TENANT_ID), KmsSettings.text(configs, CLIENT_ID),
        KmsSettings.text(configs, CLIENT_SECRET));
  }

  boolean isClientSecret() {
    return tenantId != null && clientId != null && clientSecret != null;
  }

  /** The secret, for {@link KeyVaultFaults} to keep it out of text; null when there is none. */
  String secret() {
    return clientSecret;
  }

  /** Azure's credential, calling the token endpoint through {@code http}. */
  TokenCredential build(HttpClient http) {
    if (isClientSecret()) {
      return new ClientSecretCredentialBuilder().tenantId(tenantId).clientId(clientId).clientSecret(clientSecret)
          .httpClient(http).build();
    }
    return new DefaultAzureCredentialBuilder().httpClient(http).build();
  }

  /** Which credential, naming the tenant and client but never the secret. */
  @Override
  public String toString() {
    return isClientSecret()
        ? "Azure client secret credential of client " + clientId + " in tenant " + tenantId
        : "Azure default credential";
  }
}
