package io.kavro.kms.azure;

import com.azure.core.credential.TokenCredential;
import io.kavro.rules.encryption.AlternateKeys;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsDriver;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import java.time.Duration;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code azure-kms} KMS of Confluent's clients: KEKs that are RSA keys in Azure Key Vault, named
 * {@code azure-kms://https://<vault>.vault.azure.net/keys/<name>/<version>}. The KEK's {@code kmsKeyId} is the
 * key's full URL, so the vault URL in it is the endpoint called. Settings, as Confluent's driver names them (in the
 * serde's settings, {@code rule.executors.<name>.param.*}, or the KEK's {@code kmsProps}):
 *
 * <ul>
 *   <li>{@code tenant.id}, {@code client.id}, {@code client.secret}: a service principal; without all three,
 *       Azure's default credential chain;
 *   <li>{@code encrypt.alternate.kms.key.ids}: further key URLs (comma-separated, without {@code azure-kms://}),
 *       tried in order when the KEK's own key fails;
 *   <li>{@code encrypt.azure.key.version.save}: {@code true} to store DEKs as {@code azure:v1:<version>:...},
 *       naming the key version that wrapped them (a DEK stored so is read whatever the setting).
 * </ul>
 *
 * <p>Found by {@link java.util.ServiceLoader}; thread-safe.
 */
public final class AzureKmsDriver implements KmsDriver {
  /** The KMS type. */
  public static final String KMS_TYPE = "azure-kms";
  /** The setting of the alternate keys, as Confluent names it. */
  public static final String ALTERNATE_KEY_IDS = AlternateKeys.ALTERNATE_KEY_IDS;
  /** The setting that stores the key version with each DEK, as Confluent names it. */
  public static final String KEY_VERSION_SAVE = "encrypt.azure.key.version.save";

  private static final Logger LOG = LoggerFactory.getLogger(AzureKmsDriver.class);
  private static final String PREFIX = KMS_TYPE + "://";

  /** The backoff of a Key Vault call's first retry. */
  private final Duration retryBaseDelay;

  /** The driver; ServiceLoader makes it. */
  public AzureKmsDriver() {
    this(KeyVaultTransport.BASE_DELAY);
  }

  /**
   * For the driver's own tests, which run the SDK's retries (as many as ever, capped as ever) without waiting them
   * out: its clients back off from {@code retryBaseDelay} instead of {@link KeyVaultTransport#BASE_DELAY}.
   */
  AzureKmsDriver(Duration retryBaseDelay) {
    this.retryBaseDelay = retryBaseDelay;
  }

  @Override
  public String kmsType() {
    return KMS_TYPE;
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    if (!kekUrl.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      throw new RuleException("'" + kekUrl + "' is not an " + KMS_TYPE + " key URI (" + PREFIX + "https://...)");
    }
    KeyVaultKeyId keyId = KeyVaultKeyId.parse(kekUrl.substring(PREFIX.length()));
    boolean saveVersion = booleanSetting(configs, KEY_VERSION_SAVE);
    if (!saveVersion && keyId.version() == null) {
      LOG.warn("Azure Key Vault key {} has no version and {} is off: DEKs wrapped with it cannot be read once "
          + "the key is rotated and its old version disabled", keyId, KEY_VERSION_SAVE);
    }
    AzureCredentials credentials = AzureCredentials.from(configs);
    TokenCredential credential;
    try {
      credential = credentials.build(KeyVaultTransport.http());
    } catch (RuntimeException e) {
      // the settings' fault, which every record meets: Connect fails the task rather than skip them
      throw new RuleDeploymentException("cannot make the Azure Key Vault client of " + kekUrl + " (" + credentials
          + "): " + reason(e, credentials));
    }
    KmsClient primary;
    try {
      primary = new KeyVaultKmsClient(keyId, saveVersion, credential, credentials.secret(), retryBaseDelay);
    } catch (RuntimeException e) {
      throw new RuleException("cannot make the Azure Key Vault client of " + kekUrl + ": " + reason(e, credentials));
    }
    return AlternateKeys.of("Azure Key Vault", primary, configs, id -> new KeyVaultKmsClient(
        KeyVaultKeyId.parse(id.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) ? id.substring(PREFIX.length()) : id),
        saveVersion, credential, credentials.secret(), retryBaseDelay));
  }

  /** Why the SDK refused, without the client secret. */
  private static String reason(RuntimeException e, AzureCredentials credentials) {
    String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    return credentials.secret() == null ? reason : reason.replace(credentials.secret(), "[client.secret]");
  }

  private static boolean booleanSetting(Map<String, ?> configs, String name) {
    Object value = configs.get(name);
    if (value == null || value.toString().isBlank()) {
      return false;
    }
    String text = value.toString().trim();
    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
      throw new RuleDeploymentException("the Azure Key Vault setting " + name + " is '" + text
          + "', not true or false");
    }
    return Boolean.parseBoolean(text);
  }

  /** The driver's type only. */
  @Override
  public String toString() {
    return "KMS driver " + KMS_TYPE;
  }
}
