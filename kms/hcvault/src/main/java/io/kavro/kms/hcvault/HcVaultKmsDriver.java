package io.kavro.kms.hcvault;

import io.kavro.rules.encryption.AlternateKeys;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsDriver;
import io.kavro.rules.encryption.KmsResources;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import okhttp3.ConnectionPool;
import okhttp3.OkHttpClient;

/**
 * The {@code hcvault} KMS of Confluent's clients: KEKs that are keys of HashiCorp Vault's transit engine, named
 * {@code hcvault://http(s)://<host>:<port>/<mount>/keys/<name>} ({@code https} when no scheme is given), called over
 * Vault's HTTP API with OkHttp. Found by {@link java.util.ServiceLoader} when this jar is beside kavro-rules.
 *
 * <p>Settings, with Confluent's names, from the serde's settings, {@code rule.executors.<name>.param.*} or the
 * KEK's {@code kmsProps}: {@code token.id} (else {@code VAULT_TOKEN}), {@code namespace} (else
 * {@code VAULT_NAMESPACE}), {@code approle.role.id} and {@code approle.secret.id} (else {@code VAULT_APPROLE_ROLE_ID}
 * and {@code VAULT_APPROLE_SECRET_ID}), {@code ssl.keystore.location}, {@code ssl.keystore.password} and
 * {@code ssl.truststore.location} (else the JVM's default trust), and {@code encrypt.alternate.kms.key.ids} (key ids
 * to try, in order, when the KEK's own key fails). Thread-safe.
 *
 * <p>The transit clients of the same settings (those of every key of a KEK, and of the KEKs whose settings are the
 * same) share one OkHttp client and its connection pool, made with the first of them and whose connections are
 * closed when the last of them is closed (the serde closes its KMS clients when it closes).
 */
public final class HcVaultKmsDriver implements KmsDriver {
  /** The KMS type. */
  public static final String KMS_TYPE = "hcvault";
  /** The setting of the alternate key ids: comma-separated, each with or without {@code hcvault://}. */
  public static final String ALTERNATE_KEY_IDS = AlternateKeys.ALTERNATE_KEY_IDS;

  private final UnaryOperator<String> environment;
  /** The settings of every HTTP client; each made from it has a connection pool of its own. */
  private final OkHttpClient http;
  private final KmsResources<Map<String, ?>, VaultHttp> clients = new KmsResources<>("Vault HTTP client");

  /** The driver, reading the {@code VAULT_*} variables from the process's environment. */
  public HcVaultKmsDriver() {
    this(System::getenv);
  }

  HcVaultKmsDriver(UnaryOperator<String> environment) {
    this.environment = environment;
    this.http = new OkHttpClient.Builder().connectTimeout(Duration.ofSeconds(10)).readTimeout(Duration.ofSeconds(10))
        .writeTimeout(Duration.ofSeconds(10)).callTimeout(Duration.ofSeconds(30)).followRedirects(false).build();
  }

  @Override
  public String kmsType() {
    return KMS_TYPE;
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    VaultKey primary = VaultKey.parse(kekUrl);
    VaultCredentials credentials = VaultCredentials.of(configs, environment, primary);
    Map<String, Object> settings = AlternateKeys.withoutAlternateKeyIds(configs);
    return AlternateKeys.of("Vault", new VaultTransitClient(share(settings), primary, credentials), configs,
        id -> {
          VaultKey alternate = VaultKey.parse(id); // before the share, which a bad id would leave held
          return new VaultTransitClient(share(settings), alternate, credentials);
        });
  }

  /** A share of the HTTP client of these settings (with its own connections), made with the first share. */
  private KmsResources.Lease<VaultHttp> share(Map<String, ?> settings) {
    return clients.acquire(settings, s -> new VaultHttp(VaultTls.apply(
        http.newBuilder().connectionPool(new ConnectionPool()).build(), s)));
  }

  /** How many HTTP clients the driver's transit clients share now. For tests. */
  int openHttpClients() {
    return clients.open();
  }

  /** The driver's type only. */
  @Override
  public String toString() {
    return "KMS driver " + KMS_TYPE;
  }
}
