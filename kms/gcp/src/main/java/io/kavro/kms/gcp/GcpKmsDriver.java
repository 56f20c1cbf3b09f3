package io.kavro.kms.gcp;

import com.google.api.client.http.HttpRequestInitializer;
import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.client.json.gson.GsonFactory;
import com.google.api.services.cloudkms.v1.CloudKMS;
import com.google.auth.http.HttpCredentialsAdapter;
import com.google.auth.oauth2.GoogleCredentials;
import io.kavro.rules.encryption.AlternateKeys;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsDriver;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The {@code gcp-kms} KMS of Confluent's clients: KEKs that are Google Cloud KMS CryptoKeys, named
 * {@code gcp-kms://projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>}, called over Cloud KMS's REST API v1 as
 * Confluent's Java driver calls it (through Tink), byte-compatible with it: the DEK is encrypted with empty
 * additional authenticated data, and Cloud KMS's ciphertext is stored unchanged. Found by
 * {@link java.util.ServiceLoader} when this jar is beside kavro-rules.
 *
 * <p>Settings, from the serde's settings, {@code rule.executors.<name>.param.*} or the KEK's {@code kmsProps}, with
 * Confluent's names: {@code account.type}, {@code client.id}, {@code client.email}, {@code private.key.id} and
 * {@code private.key} (a service account; else the application default credentials), and
 * {@code encrypt.alternate.kms.key.ids} (keys to try, in order, when the KEK's own fails). Kavro's own, from the
 * executor's settings only (never a KEK's {@code kmsProps}: see {@link #executorOnlySettings()}), https unless the
 * host is the loopback: {@code gcp.kms.endpoint} (a private or regional endpoint instead of
 * {@code https://cloudkms.googleapis.com/}) and {@code gcp.token.uri} (the service account's OAuth token endpoint).
 *
 * <p>The transport is {@code java.net.HttpURLConnection}, so the JVM's trust store ({@code javax.net.ssl.trustStore})
 * and proxy settings ({@code https.proxyHost}, {@code java.net.useSystemProxies}) apply. The client does not retry:
 * a throttled or failed call surfaces at once as a temporary failure, which the serde retries with the Kafka
 * client's backoff. Thread-safe; one transport is shared by the driver's clients, and one Cloud KMS client (with
 * its credentials and their cached token) by the KEKs of the same settings.
 *
 * <p>Nothing is closed: the transport's connections are the JDK's keep-alive cache, the JVM's, and Cloud KMS clients
 * and credentials hold no thread ({@code NetHttpTransport.shutdown()} does nothing), so the KEKs' clients keep the
 * default {@link KmsClient#close()}. The driver, and with it what it shares, lives as long as the encryption
 * executor that loaded it.
 */
public final class GcpKmsDriver implements KmsDriver {
  /** The KMS type. */
  public static final String KMS_TYPE = "gcp-kms";

  private static final String APPLICATION_NAME = "kavro";
  private static final int TIMEOUT_MILLIS = (int) Duration.ofSeconds(10).toMillis();
  /** One retry only: the credentials adapter's, after a 401 with a token it refreshes. */
  private static final int RETRIES = 1;

  private final HttpTransport transport = new NetHttpTransport();
  /** The Cloud KMS client of each settings, with its credentials (and their token): shared by the KEKs' clients. */
  private final ConcurrentMap<GcpSettings, CloudKMS> clients = new ConcurrentHashMap<>();

  /** The driver. */
  public GcpKmsDriver() {}

  @Override
  public String kmsType() {
    return KMS_TYPE;
  }

  /** {@code gcp.kms.endpoint} and {@code gcp.token.uri}: where the bearer token and the signed grant are sent. */
  @Override
  public Set<String> executorOnlySettings() {
    return Set.of(GcpSettings.ENDPOINT, GcpSettings.TOKEN_URI);
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    GcpKeyName primary = GcpKeyName.parse(kekUrl);
    GcpSettings settings = GcpSettings.parse(kekUrl, configs);
    CloudKMS kms = clients.computeIfAbsent(settings,
        s -> cloudKms(s, GcpCredentials.of(kekUrl, s, () -> transport)));
    return AlternateKeys.of("Cloud KMS", new CloudKmsKey(kms, primary), configs,
        alternate -> new CloudKmsKey(kms, GcpKeyName.parse(alternate)));
  }

  private CloudKMS cloudKms(GcpSettings settings, GoogleCredentials credentials) {
    HttpCredentialsAdapter authorization = new HttpCredentialsAdapter(credentials);
    HttpRequestInitializer initializer = request -> {
      authorization.initialize(request);
      request.setConnectTimeout(TIMEOUT_MILLIS).setReadTimeout(TIMEOUT_MILLIS).setNumberOfRetries(RETRIES);
    };
    return new CloudKMS.Builder(transport, GsonFactory.getDefaultInstance(), initializer)
        .setRootUrl(settings.endpoint()).setApplicationName(APPLICATION_NAME).build();
  }

  /** How many Cloud KMS clients the driver made: one per settings. For tests. */
  int cloudKmsClients() {
    return clients.size();
  }

  /** The driver's type only. */
  @Override
  public String toString() {
    return "KMS driver " + KMS_TYPE;
  }
}
