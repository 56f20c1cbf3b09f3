package io.kavro.kms.gcp;

import com.google.auth.http.HttpTransportFactory;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.auth.oauth2.ServiceAccountCredentials;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleUnavailableException;
import java.io.IOException;
import java.util.List;

/**
 * The Google credentials of a KEK, as Confluent's driver makes them: the service account of the settings
 * ({@code client.id}, {@code client.email}, {@code private.key.id}, {@code private.key}), else the application
 * default credentials ({@code GOOGLE_APPLICATION_CREDENTIALS}, gcloud's, the metadata server's), scoped to Cloud
 * KMS. Their token endpoint is called over the driver's transport, without the library's own retries, so that a
 * throttling endpoint surfaces as a temporary failure of the call. Stateless.
 */
final class GcpCredentials {
  /** Cloud KMS's scope only (not Tink's {@code cloud-platform} too: a token good for Cloud KMS and nothing else). */
  static final List<String> SCOPES = List.of("https://www.googleapis.com/auth/cloudkms");

  private GcpCredentials() {}

  /**
   * The credentials of a KEK's settings.
   *
   * @throws RuleDeploymentException when the private key cannot be read; the message names the setting, never the key
   * @throws RuleUnavailableException when no application default credentials are found: the metadata server may
   *     only have been slow to answer, so the record is retried (the KEK's client is made again). google-auth
   *     remembers a failed metadata-server probe for the JVM's life: {@code GOOGLE_APPLICATION_CREDENTIALS} and
   *     gcloud's file are read again on each attempt, the metadata server is not (a restart is needed)
   */
  static GoogleCredentials of(String kekUrl, GcpSettings settings, HttpTransportFactory transport) {
    GcpSettings.ServiceAccount account = settings.serviceAccount();
    if (account == null) {
      try {
        GoogleCredentials credentials = GoogleCredentials.getApplicationDefault(transport);
        return credentials.createScopedRequired() ? credentials.createScoped(SCOPES) : credentials;
      } catch (IOException e) {
        throw new RuleUnavailableException("no Google credentials for " + kekUrl + " for now: set "
            + GcpSettings.CLIENT_ID + ", "
            + GcpSettings.CLIENT_EMAIL + ", " + GcpSettings.PRIVATE_KEY_ID + " and " + GcpSettings.PRIVATE_KEY
            + ", or provide application default credentials (" + e.getMessage() + ")", e);
      }
    }
    ServiceAccountCredentials parsed;
    try {
      parsed = ServiceAccountCredentials.fromPkcs8(account.clientId(), account.clientEmail(), account.privateKey(),
          account.privateKeyId(), SCOPES);
    } catch (IOException | RuntimeException e) {
      // The library's message may quote the key: name the setting only.
      throw new RuleDeploymentException("the setting " + GcpSettings.PRIVATE_KEY + " of " + account + " for " + kekUrl
          + " is not a PKCS#8 private key in PEM");
    }
    ServiceAccountCredentials.Builder builder = parsed.toBuilder().setHttpTransportFactory(transport)
        .setDefaultRetriesEnabled(false);
    if (account.tokenUri() != null) {
      builder.setTokenServerUri(account.tokenUri());
    }
    return builder.build();
  }
}
