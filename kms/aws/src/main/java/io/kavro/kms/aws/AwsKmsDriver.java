package io.kavro.kms.aws;

import io.kavro.rules.encryption.AlternateKeys;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsDriver;
import io.kavro.rules.encryption.KmsResources;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The {@code aws-kms} KMS of Confluent's clients: KEKs held in AWS KMS, named
 * {@code aws-kms://arn:aws:kms:<region>:<account>:key/<id>} (or an alias ARN), on the AWS SDK v2. Found by
 * {@link java.util.ServiceLoader} when this jar is beside kavro-rules.
 *
 * <p>Settings (in the serde's settings, {@code rule.executors.<name>.param.*} or the KEK's {@code kmsProps}), with
 * Confluent's names: {@code access.key.id} and {@code secret.access.key}, {@code profile}, {@code role.arn},
 * {@code role.session.name}, {@code role.external.id} (a role assumed with STS over the credentials; else the
 * environment's {@code AWS_ROLE_ARN}, {@code AWS_ROLE_SESSION_NAME}, {@code AWS_ROLE_EXTERNAL_ID}, as Confluent's
 * driver reads them); with no keys and no profile, the SDK's default chain. {@code encrypt.alternate.kms.key.ids}: more keys (ARNs, comma-separated) tried in order when the
 * KEK's key fails. The region is the ARN's. The endpoint is the SDK's, which a user overrides as for any AWS SDK
 * (the system property {@code aws.endpointUrlKms}, the environment variable {@code AWS_ENDPOINT_URL_KMS}), and
 * the HTTP client is the JDK's ({@code HttpURLConnection}: the JVM's trust store and proxy settings apply).
 *
 * <p>The KEKs' clients share one SDK client per region and settings (a key id is per request): it is made with the
 * first of them and closed, with its credentials provider, when the last of them is closed (the serde closes its
 * KMS clients when it closes). Thread-safe.
 */
public final class AwsKmsDriver implements KmsDriver {
  /** The KMS type. */
  public static final String KMS_TYPE = "aws-kms";
  /** The setting of the alternate keys. */
  public static final String ALTERNATE_KEY_IDS = AlternateKeys.ALTERNATE_KEY_IDS;
  static final String PREFIX = KMS_TYPE + "://";

  private static final Logger LOG = LoggerFactory.getLogger(AwsKmsDriver.class);

  private final UnaryOperator<String> environment;
  private final KmsResources<SdkKey, AwsSdk> sdks = new KmsResources<>("AWS KMS SDK client");

  /** The driver, reading the role's environment variables from the process's environment. */
  public AwsKmsDriver() {
    this(System::getenv);
  }

  AwsKmsDriver(UnaryOperator<String> environment) {
    this.environment = environment;
  }

  @Override
  public String kmsType() {
    return KMS_TYPE;
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    if (!kekUrl.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      throw new RuleException("the AWS KMS driver cannot use the key '" + kekUrl + "': it wants " + PREFIX
          + "arn:aws:kms:<region>:<account>:key/<id>");
    }
    AwsKeyArn primary = AwsKeyArn.parse(kekUrl, "the KEK's key id");
    AwsCredentialSettings credentials = AwsCredentialSettings.of(configs, environment);
    LOG.debug("AWS KMS client of {} (alternates {}) with {}", primary, AlternateKeys.alternateKeyIds(configs),
        credentials);
    Map<String, Object> settings = AlternateKeys.withoutAlternateKeyIds(configs);
    return AlternateKeys.of("AWS KMS", keyClient(primary, credentials, settings), configs,
        id -> keyClient(AwsKeyArn.parse(id, ALTERNATE_KEY_IDS), credentials, settings));
  }

  private AwsKmsKeyClient keyClient(AwsKeyArn arn, AwsCredentialSettings credentials, Map<String, ?> settings) {
    return new AwsKmsKeyClient(arn, sdks.acquire(new SdkKey(arn.region(), settings),
        key -> sdk(arn, credentials)));
  }

  private static AwsSdk sdk(AwsKeyArn arn, AwsCredentialSettings credentials) {
    Region region = Region.of(arn.region());
    AwsCredentialsProvider provider = null;
    try {
      provider = credentials.provider(region);
      return new AwsSdk(software.amazon.awssdk.services.kms.KmsClient.builder()
          .region(region)
          .credentialsProvider(provider)
          .httpClientBuilder(UrlConnectionHttpClient.builder())
          .build(), provider);
    } catch (RuntimeException e) {
      if (provider instanceof SdkAutoCloseable closeable) {
        try {
          closeable.close(); // the provider (and its STS client) is nobody else's yet
        } catch (RuntimeException closing) {
          e.addSuppressed(closing);
        }
      }
      if (e instanceof SdkException) {
        throw new RuleDeploymentException("cannot make the AWS KMS client of key " + arn + " (" + credentials + "): "
            + e.getMessage(), e);
      }
      throw e;
    }
  }

  /** The SDK clients this driver's key clients share now, for tests. */
  int openSdkClients() {
    return sdks.open();
  }

  /**
   * What one SDK client is made of: a region and the settings (the credentials' among them; the alternate key ids
   * left out, since they do not change the client). Never printed: the settings may hold secrets.
   */
  private record SdkKey(String region, Map<String, ?> settings) {
    @Override
    public String toString() {
      return "AWS KMS SDK client of " + region;
    }
  }

  /** The driver's type only. */
  @Override
  public String toString() {
    return "KMS driver " + KMS_TYPE;
  }
}
