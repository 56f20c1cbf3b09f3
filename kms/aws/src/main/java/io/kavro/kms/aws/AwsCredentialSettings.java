package io.kavro.kms.aws;

import io.kavro.rules.encryption.KmsSettings;
import io.kavro.serde.rules.RuleDeploymentException;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;
import software.amazon.awssdk.services.sts.model.AssumeRoleRequest;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * How the driver signs its calls, with the setting names of Confluent's {@code aws-kms} driver, read once: static
 * keys ({@code access.key.id} and {@code secret.access.key}), else a profile ({@code profile}), else the SDK's
 * default chain; and, over any of them, a role to assume with STS ({@code role.arn}, else the environment's
 * {@code AWS_ROLE_ARN} unless {@code AWS_WEB_IDENTITY_TOKEN_FILE} is set, where the default chain assumes it;
 * {@code role.session.name}, else {@code AWS_ROLE_SESSION_NAME}, else {@code confluent-encrypt};
 * {@code role.external.id}, else {@code AWS_ROLE_EXTERNAL_ID}). A setting wins over the environment; a Kafka
 * {@code Password} gives its value. A profile that no profile file has is a final failure naming it. Immutable;
 * {@link #toString()} names the source, never a key or the external id.
 */
final class AwsCredentialSettings {
  static final String ACCESS_KEY_ID = "access.key.id";
  static final String SECRET_ACCESS_KEY = "secret.access.key";
  static final String PROFILE = "profile";
  static final String ROLE_ARN = "role.arn";
  static final String ROLE_SESSION_NAME = "role.session.name";
  static final String ROLE_EXTERNAL_ID = "role.external.id";
  /** Confluent's session name when none is set. */
  static final String DEFAULT_SESSION_NAME = "confluent-encrypt";

  private final String accessKeyId;
  private final String secretAccessKey;
  private final String profile;
  private final String roleArn;
  private final String roleSessionName;
  private final String roleExternalId;

  private AwsCredentialSettings(String accessKeyId, String secretAccessKey, String profile, String roleArn,
      String roleSessionName, String roleExternalId) {
    this.accessKeyId = accessKeyId;
    this.secretAccessKey = secretAccessKey;
    this.profile = profile;
    this.roleArn = roleArn;
    this.roleSessionName = roleSessionName;
    this.roleExternalId = roleExternalId;
  }

  /**
   * The settings among the driver's configs, with the environment's for the role.
   *
   * @throws RuleException when only one of the two static keys is set, naming the missing one
   */
  static AwsCredentialSettings of(Map<String, ?> configs, UnaryOperator<String> environment) {
    String accessKeyId = KmsSettings.text(configs, ACCESS_KEY_ID);
    String secretAccessKey = KmsSettings.text(configs, SECRET_ACCESS_KEY);
    if ((accessKeyId == null) != (secretAccessKey == null)) {
      throw new RuleDeploymentException("the AWS KMS driver has "
          + (accessKeyId == null ? SECRET_ACCESS_KEY : ACCESS_KEY_ID) + " but not "
          + (accessKeyId == null ? ACCESS_KEY_ID : SECRET_ACCESS_KEY)
          + ": set both (static keys), or neither (profile or the SDK's default chain)");
    }
    String roleArn = KmsSettings.text(configs, ROLE_ARN);
    if (roleArn == null && blankToNull(environment.apply("AWS_WEB_IDENTITY_TOKEN_FILE")) == null) {
      roleArn = blankToNull(environment.apply("AWS_ROLE_ARN"));
    }
    String sessionName = or(KmsSettings.text(configs, ROLE_SESSION_NAME),
        or(blankToNull(environment.apply("AWS_ROLE_SESSION_NAME")), DEFAULT_SESSION_NAME));
    String externalId = or(KmsSettings.text(configs, ROLE_EXTERNAL_ID),
        blankToNull(environment.apply("AWS_ROLE_EXTERNAL_ID")));
    return new AwsCredentialSettings(accessKeyId, secretAccessKey, KmsSettings.text(configs, PROFILE), roleArn,
        sessionName, externalId);
  }

  /**
   * The provider of credentials for calls to a region (STS is called in that region, as Confluent's driver does).
   * When it is {@link SdkAutoCloseable}, its user closes it (with an assumed role, that closes the STS client too).
   */
  AwsCredentialsProvider provider(Region region) {
    AwsCredentialsProvider base;
    if (accessKeyId != null) {
      base = StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secretAccessKey));
    } else if (profile != null) {
      base = new NamedProfile(profile);
    } else {
      base = DefaultCredentialsProvider.builder().build();
    }
    if (roleArn == null) {
      return base;
    }
    StsClient sts = StsClient.builder().region(region).credentialsProvider(base)
        .httpClientBuilder(UrlConnectionHttpClient.builder()).build();
    AssumeRoleRequest.Builder request = AssumeRoleRequest.builder().roleArn(roleArn).roleSessionName(roleSessionName);
    if (roleExternalId != null) {
      request.externalId(roleExternalId);
    }
    return new AssumedRole(StsAssumeRoleCredentialsProvider.builder().stsClient(sts).refreshRequest(request.build())
        .build(), sts, base);
  }

  /** The source of the credentials, never a key nor the external id. */
  @Override
  public String toString() {
    String source = accessKeyId != null ? "static keys (" + ACCESS_KEY_ID + ", " + SECRET_ACCESS_KEY + ")"
        : profile != null ? "profile '" + profile + "'" : "the SDK's default chain";
    return "AWS credentials from " + source
        + (roleArn == null ? "" : ", assuming role " + roleArn + " as '" + roleSessionName + "'");
  }

  /**
   * The profile the {@code profile} setting names. When the SDK cannot load its credentials and the profile is in
   * neither the shared credentials file nor the config file, the failure carries a {@link MissingProfile}: a
   * setting that no later attempt fixes, which {@link AwsFaults} makes final. Any other failure (a profile whose
   * role, SSO or process credentials cannot be fetched for now) is the SDK's, as it is.
   */
  private static final class NamedProfile implements AwsCredentialsProvider, SdkAutoCloseable {
    private final String name;
    private final ProfileCredentialsProvider profile;

    NamedProfile(String name) {
      this.name = name;
      this.profile = ProfileCredentialsProvider.create(name);
    }

    @Override
    public AwsCredentials resolveCredentials() {
      try {
        return profile.resolveCredentials();
      } catch (SdkClientException e) {
        if (exists()) {
          throw e;
        }
        MissingProfile missing = new MissingProfile(name);
        throw SdkClientException.builder().message(missing.getMessage()).cause(missing).build();
      }
    }

    /** Whether the files the SDK reads (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE, ...) have the profile. */
    private boolean exists() {
      try {
        return ProfileFile.defaultProfileFile().profile(name).isPresent();
      } catch (RuntimeException unreadable) {
        return true; // not known to be missing: the SDK's own failure stands
      }
    }

    /** Closes the SDK's profile provider, and with it the STS or SSO client a role or SSO profile made. */
    @Override
    public void close() {
      profile.close();
    }

    @Override
    public String toString() {
      return "profile '" + name + "'";
    }
  }

  /** The {@code profile} setting names a profile that is in no profile file: final. Its message names it only. */
  static final class MissingProfile extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MissingProfile(String name) {
      super("the AWS profile '" + name + "' (the setting " + PROFILE + ") is in neither the shared credentials file "
          + "nor the config file (~/.aws/credentials and ~/.aws/config, or AWS_SHARED_CREDENTIALS_FILE and "
          + "AWS_CONFIG_FILE)", null, false, false);
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  private static String or(String value, String otherwise) {
    return value != null ? value : otherwise;
  }

  /** A role's credentials; closing them closes the STS client and the credentials the role is assumed with. */
  private static final class AssumedRole implements AwsCredentialsProvider, SdkAutoCloseable {
    private final StsAssumeRoleCredentialsProvider provider;
    private final StsClient sts;
    private final AwsCredentialsProvider base;

    AssumedRole(StsAssumeRoleCredentialsProvider provider, StsClient sts, AwsCredentialsProvider base) {
      this.provider = provider;
      this.sts = sts;
      this.base = base;
    }

    @Override
    public AwsCredentials resolveCredentials() {
      return provider.resolveCredentials();
    }

    /** Closes all three, each even when one before it fails; the first failure is thrown, the others suppressed. */
    @Override
    public void close() {
      RuntimeException failed = closeEach(provider, sts, base instanceof SdkAutoCloseable closeable ? closeable : null);
      if (failed != null) {
        throw failed;
      }
    }

    private static RuntimeException closeEach(SdkAutoCloseable... closeables) {
      RuntimeException failed = null;
      for (SdkAutoCloseable closeable : closeables) {
        try {
          if (closeable != null) {
            closeable.close();
          }
        } catch (RuntimeException e) {
          if (failed == null) {
            failed = e;
          } else {
            failed.addSuppressed(e);
          }
        }
      }
      return failed;
    }

    /** No credential. */
    @Override
    public String toString() {
      return "AWS assumed role credentials";
    }
  }
}
