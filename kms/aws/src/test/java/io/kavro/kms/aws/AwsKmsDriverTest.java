package io.kavro.kms.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/**
 * The aws-kms driver against the AWS KMS double, reached as users reach a VPC endpoint ({@code aws.endpointUrlKms}):
 * Confluent's requests (no encryption context, the blob kept as it is, KeyId on decrypt and checked), its
 * credential settings, alternate keys, and faults classified (outages retriable, refusals final), no secret shown.
 */
class AwsKmsDriverTest {
  static final String ACCESS_KEY_ID = "AKIAKAVROTEST0000001";
  static final String SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYKAVROSECRET";
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  private AwsKmsDouble kms;
  private String keyArn;
  private final Map<String, String> savedProperties = new HashMap<>();

  @BeforeEach
  void start() throws Exception {
    kms = AwsKmsDouble.start().credentials(ACCESS_KEY_ID, SECRET);
    keyArn = kms.createKey("eu-west-1", "1234abcd-12ab-34cd-56ef-1234567890ab");
    setProperty("aws.endpointUrlKms", kms.url());
  }

  @AfterEach
  void stop() {
    kms.close();
    savedProperties.forEach((name, value) -> {
      if (value == null) {
        System.clearProperty(name);
      } else {
        System.setProperty(name, value);
      }
    });
  }

  /** Sets a system property for this test only. */
  private void setProperty(String name, String value) {
    savedProperties.putIfAbsent(name, System.getProperty(name));
    System.setProperty(name, value);
  }

  /** Clears a system property for this test only. */
  private void clearProperty(String name) {
    savedProperties.putIfAbsent(name, System.getProperty(name));
    System.clearProperty(name);
  }

  private static Map<String, Object> keys(Object... more) {
    Map<String, Object> configs = new HashMap<>(Map.of("access.key.id", ACCESS_KEY_ID, "secret.access.key", SECRET));
    for (int i = 0; i < more.length; i += 2) {
      configs.put((String) more[i], more[i + 1]);
    }
    return configs;
  }

  private KmsClient client(String arn, Map<String, ?> configs) {
    return new AwsKmsDriver(name -> null).newClient("aws-kms://" + arn, configs);
  }

  @Test
  void encrypt_sendsConfluentsRequest_noEncryptionContext_andKeepsAwsBlob() throws Exception {
    KmsClient client = client(keyArn, keys());

    byte[] wrapped = client.encrypt(DEK);

    AwsKmsDouble.Request encrypt = kms.requests("Encrypt").get(0);
    assertThat(encrypt.status()).isEqualTo(200);
    assertThat(encrypt.region()).as("the ARN's region").isEqualTo("eu-west-1");
    assertThat(encrypt.accessKeyId()).isEqualTo(ACCESS_KEY_ID);
    assertThat(encrypt.body().path("KeyId").asText()).isEqualTo(keyArn);
    assertThat(Base64.getDecoder().decode(encrypt.body().path("Plaintext").asText())).isEqualTo(DEK);
    assertThat(encrypt.body().has("EncryptionContext")).as("no encryption context, as Confluent's clients")
        .isFalse();
    assertThat(wrapped).as("AWS's CiphertextBlob as it is")
        .isEqualTo(Base64.getDecoder().decode(encrypt.answer().path("CiphertextBlob").asText()));

    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    AwsKmsDouble.Request decrypt = kms.requests("Decrypt").get(0);
    assertThat(decrypt.body().path("KeyId").asText()).isEqualTo(keyArn);
    assertThat(decrypt.body().has("EncryptionContext")).isFalse();
  }

  @Test
  void aliasArn_encryptsAndDecrypts() throws Exception {
    String alias = kms.alias(keyArn, "orders");
    KmsClient client = client(alias, keys());

    byte[] wrapped = client.encrypt(DEK);

    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    assertThat(client(keyArn, keys()).decrypt(wrapped)).as("the key's own ARN reads it too").isEqualTo(DEK);
    assertThat(kms.requests("Decrypt")).allSatisfy(r -> assertThat(r.status()).isEqualTo(200));
  }

  @Test
  void decrypt_awsAnswersAnotherKeyId_refused() throws Exception {
    KmsClient client = client(keyArn, keys());
    byte[] wrapped = client.encrypt(DEK);
    kms.answerKeyId(kms.createKey("eu-west-1", "other"));

    assertThatThrownBy(() -> client.decrypt(wrapped))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("wrong key id").hasMessageContaining(keyArn);
  }

  /**
   * Credentials AWS refuses are the deployment's fault, which every key and record meets: a RuleDeploymentException,
   * so that Connect fails the task rather than skip every record; never the secret or the signed request.
   */
  @Test
  void wrongSecret_refusedForGood_namingKeyAndReason_neverTheSecret() {
    String wrongSecret = "wrongSecretKAVRO0000000000000000000000000";
    KmsClient client = client(keyArn, keys("secret.access.key", wrongSecret));

    assertThatThrownBy(() -> client.encrypt(DEK))
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("refused the credentials").hasMessageContaining(keyArn)
        .hasMessageContaining("InvalidSignatureException").hasNoCause()
        .satisfies(e -> assertNoSecret(e, wrongSecret))
        .satisfies(e -> assertNoSecret(e, AwsKmsDouble.SIGNED_TOKEN)); // AWS quotes the signed headers
    assertThat(client.toString()).doesNotContain(wrongSecret).contains(keyArn);
    assertThatThrownBy(() -> client(keyArn, keys("access.key.id", "AKIAKAVROUNKNOWN0000")).decrypt(DEK))
        .as("an access key AWS does not know").isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("UnrecognizedClientException");
  }

  @Test
  void refusals_areFinal_namingKeyAndAwsReason() throws Exception {
    byte[] wrapped = client(keyArn, keys()).encrypt(DEK);
    String missing = "arn:aws:kms:eu-west-1:111122223333:key/no-such-key";
    assertThatThrownBy(() -> client(missing, keys()).encrypt(DEK))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(missing).hasMessageContaining("NotFoundException");
    String other = kms.createKey("eu-west-1", "other");
    assertThatThrownBy(() -> client(other, keys()).decrypt(wrapped))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(other).hasMessageContaining("IncorrectKeyException");
    byte[] tampered = wrapped.clone();
    tampered[tampered.length - 1] ^= 1;
    assertThatThrownBy(() -> client(keyArn, keys()).decrypt(tampered))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("InvalidCiphertextException");
    kms.disable(keyArn);
    assertThatThrownBy(() -> client(keyArn, keys()).decrypt(wrapped))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("DisabledException");
    kms.deny(ACCESS_KEY_ID);
    assertThatThrownBy(() -> client(keyArn, keys()).encrypt(DEK))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("AccessDeniedException").hasMessageContaining("kms:Encrypt");
  }

  @Test
  void throttling_isAnOutage_thenTheKeyAnswers() throws Exception {
    KmsClient client = client(keyArn, keys());
    kms.fail(100, AwsKmsDouble.Outage.THROTTLING);

    assertThatThrownBy(() -> client.encrypt(DEK))
        .isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(keyArn).hasMessageContaining("ThrottlingException")
        .satisfies(e -> assertNoSecret(e, SECRET));

    kms.fail(0, AwsKmsDouble.Outage.THROTTLING);
    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
  }

  @Test
  void serverErrors_areOutages() {
    KmsClient client = client(keyArn, keys());
    kms.fail(100, AwsKmsDouble.Outage.UNAVAILABLE);
    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("503");
    kms.fail(100, AwsKmsDouble.Outage.INTERNAL);
    assertThatThrownBy(() -> client.decrypt(new byte[] {1, 2, 3})).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("KMSInternalException");
  }

  @Test
  void unreachableEndpoint_isAnOutage() throws Exception {
    String url = kms.url();
    kms.close();
    setProperty("aws.endpointUrlKms", url);

    assertThatThrownBy(() -> client(keyArn, keys()).encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(keyArn);
  }

  /** A VPC endpoint with a private CA: the JVM's trust store ({@code javax.net.ssl.trustStore}) is what trusts it. */
  @Test
  void httpsEndpoint_trustedThroughTheJvmsTrustStore(@TempDir Path dir) throws Exception {
    okhttp3.tls.HeldCertificate ca = new okhttp3.tls.HeldCertificate.Builder().certificateAuthority(0).build();
    okhttp3.tls.HeldCertificate server = new okhttp3.tls.HeldCertificate.Builder().signedBy(ca)
        .addSubjectAlternativeName("127.0.0.1").build();
    try (AwsKmsDouble tls = AwsKmsDouble.startTls(server).credentials(ACCESS_KEY_ID, SECRET)) {
      String arn = tls.createKey("eu-west-1", "tls-key");
      setProperty("aws.endpointUrlKms", tls.url());
      assertThatThrownBy(() -> client(arn, keys()).encrypt(DEK)).as("the CA is not trusted yet")
          .isInstanceOf(GeneralSecurityException.class).hasStackTraceContaining("SSLHandshakeException");

      setProperty("javax.net.ssl.trustStore", io.kavro.registry.TestTls.truststore(ca, dir).toString());
      setProperty("javax.net.ssl.trustStorePassword", io.kavro.registry.TestTls.PASSWORD);
      setProperty("javax.net.ssl.trustStoreType", "PKCS12");
      KmsClient client = client(arn, keys());

      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
      assertThat(tls.requests("Encrypt")).last().satisfies(r -> assertThat(r.status()).isEqualTo(200));
    }
  }

  @Test
  void alternateKeys_triedInOrder_onEncryptAndDecrypt() throws Exception {
    String replica = kms.createKey("us-east-1", "mrk-replica");
    String gone = "arn:aws:kms:eu-west-1:111122223333:key/deleted";
    KmsClient client = client(gone, keys(AwsKmsDriver.ALTERNATE_KEY_IDS, " " + replica + " , "));

    byte[] wrapped = client.encrypt(DEK);

    assertThat(kms.requests("Encrypt")).extracting(r -> r.body().path("KeyId").asText(), AwsKmsDouble.Request::region)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(gone, "eu-west-1"),
            org.assertj.core.groups.Tuple.tuple(replica, "us-east-1"));
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    assertThat(client(keyArn, keys(AwsKmsDriver.ALTERNATE_KEY_IDS, replica)).decrypt(wrapped))
        .as("the KEK's key cannot (IncorrectKeyException), its alternate can").isEqualTo(DEK);
  }

  @Test
  void alternateKeys_oneThrottled_oneRefused_isAnOutage() {
    String other = "arn:aws:kms:eu-west-1:111122223333:key/deleted";
    KmsClient client = client(keyArn, keys(AwsKmsDriver.ALTERNATE_KEY_IDS, other));
    kms.fail(3, AwsKmsDouble.Outage.UNAVAILABLE); // the SDK's three attempts on the first key

    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(keyArn).hasMessageContaining(other).hasMessageContaining("NotFoundException");
  }

  @Test
  void noSettings_usesTheSdksDefaultChain() throws Exception {
    setProperty("aws.accessKeyId", ACCESS_KEY_ID);
    setProperty("aws.secretAccessKey", SECRET);

    KmsClient client = client(keyArn, Map.of());

    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
  }

  /**
   * The default chain's only source is a container credentials endpoint that does not answer: the SDK throws a
   * cause-less "Unable to load credentials from any of the providers", which is an outage, not a refusal.
   */
  @Test
  void defaultChain_credentialsEndpointDown_isAnOutage(@TempDir Path dir) throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    for (String name : List.of("aws.accessKeyId", "aws.secretAccessKey", "aws.sessionToken", "aws.roleArn",
        "aws.webIdentityTokenFile", "aws.containerCredentialsPath", "aws.containerAuthorizationToken")) {
      clearProperty(name);
    }
    setProperty("aws.sharedCredentialsFile", dir.resolve("no-credentials").toString());
    setProperty("aws.configFile", dir.resolve("no-config").toString());
    setProperty("aws.disableEc2Metadata", "true");
    setProperty("aws.containerCredentialsFullUri", "http://127.0.0.1:" + closedPort + "/credentials");

    assertThatThrownBy(() -> client(keyArn, Map.of()).encrypt(DEK))
        .isInstanceOf(KmsUnavailableException.class).hasMessageContaining(keyArn);
  }

  @Test
  void profile_readsTheSharedCredentialsFile(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("credentials"), "[kavro]\naws_access_key_id = " + ACCESS_KEY_ID
        + "\naws_secret_access_key = " + SECRET + "\n");
    setProperty("aws.sharedCredentialsFile", file.toString());

    KmsClient client = client(keyArn, Map.of("profile", "kavro"));

    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
  }

  /** A profile's provider is closed with the SDK client: the SDK's profile provider holds an STS or SSO client. */
  @Test
  void profile_providerIsClosable_soItsStsOrSsoClientIsClosed() {
    AwsCredentialsProvider provider = AwsCredentialSettings.of(Map.of("profile", "kavro"), name -> null)
        .provider(Region.EU_WEST_1);

    assertThat(provider).isInstanceOf(SdkAutoCloseable.class);
    ((SdkAutoCloseable) provider).close();
  }

  /** A cause chain with a loop (a cause whose cause's cause is itself) is walked to an end, not forever. */
  @Test
  void aCauseChainWithALoop_isClassified_notWalkedForever() {
    RuntimeException first = new RuntimeException("first");
    RuntimeException second = new RuntimeException("second", first);
    first.initCause(second);
    SdkClientException e = SdkClientException.builder().message("Unable to load credentials").cause(first).build();

    GeneralSecurityException fault = assertTimeoutPreemptively(Duration.ofSeconds(10),
        () -> AwsFaults.of("encrypt", AwsKeyArn.parse(keyArn, "the KEK's key id"), e));

    assertThat(fault).isInstanceOf(KmsUnavailableException.class);
  }

  /**
   * An explicit profile that no profile file has is a setting to fix, not an outage: final, naming the profile
   * (the SDK says so with a cause-less SdkClientException, as for a credentials endpoint that is down).
   */
  @Test
  void profile_thatNoFileHas_isFinal_namingIt(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("credentials"), "[kavro]\naws_access_key_id = " + ACCESS_KEY_ID
        + "\naws_secret_access_key = " + SECRET + "\n");
    setProperty("aws.sharedCredentialsFile", file.toString());
    setProperty("aws.configFile", dir.resolve("no-config").toString());
    setProperty("aws.endpointUrlSts", kms.url());

    assertThatThrownBy(() -> client(keyArn, Map.of("profile", "kavro-typo")).encrypt(DEK))
        .as("a setting to fix: Connect fails the task on it rather than skip every record")
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining(keyArn)
        .hasMessageContaining("profile 'kavro-typo'")
        .hasMessageContaining("AWS_SHARED_CREDENTIALS_FILE").satisfies(e -> assertNoSecret(e, SECRET));
    assertThatThrownBy(() -> client(keyArn, Map.of("profile", "kavro-typo", "role.arn", kms.role("r"))).encrypt(DEK))
        .as("under a role too").isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("profile 'kavro-typo'");
    assertThat(kms.requests("Encrypt")).as("no call made").isEmpty();
  }

  /** As a ConfigDef PASSWORD setting or a Connect config provider gives them: the value, not "[hidden]". */
  @Test
  void kafkaPasswords_staticKeys_signTheCalls() throws Exception {
    KmsClient client = client(keyArn, Map.of("access.key.id", new Password(ACCESS_KEY_ID), "secret.access.key",
        new Password(SECRET)));

    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
    assertThat(kms.requests("Encrypt").get(0).accessKeyId()).isEqualTo(ACCESS_KEY_ID);
  }

  @Test
  void roleArn_assumesTheRoleWithSts_andSignsWithItsSession() throws Exception {
    String role = kms.role("kavro-encrypt");
    setProperty("aws.endpointUrlSts", kms.url());
    KmsClient client = client(keyArn, keys("role.arn", role, "role.external.id", "ext-7"));

    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);

    AwsKmsDouble.Request assume = kms.requests("AssumeRole").get(0);
    assertThat(assume.accessKeyId()).as("STS called with the static keys").isEqualTo(ACCESS_KEY_ID);
    assertThat(assume.region()).as("in the key's region").isEqualTo("eu-west-1");
    assertThat(assume.body().path("RoleArn").asText()).isEqualTo(role);
    assertThat(assume.body().path("RoleSessionName").asText()).isEqualTo("confluent-encrypt");
    assertThat(assume.body().path("ExternalId").asText()).isEqualTo("ext-7");
    assertThat(kms.requests("Encrypt").get(0).accessKeyId()).as("KMS called with the role's session")
        .startsWith("ASIAKAVRO");
  }

  @Test
  void roleArn_stsRefuses_isTheDeployments_stsThrottles_isAnOutage() {
    setProperty("aws.endpointUrlSts", kms.url());
    String notAllowed = "arn:aws:iam::111122223333:role/not-allowed";
    assertThatThrownBy(() -> client(keyArn, keys("role.arn", notAllowed)).encrypt(DEK))
        .as("a role the credentials may not assume: every key and record meets it")
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining(keyArn).hasMessageContaining("AccessDenied");

    String role = kms.role("kavro-encrypt");
    assertThatThrownBy(() -> client(keyArn, keys("role.arn", role, "secret.access.key", "wrongSecretKAVRO00000"))
        .encrypt(DEK)).as("STS refusing the base credentials: the deployment's")
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("SignatureDoesNotMatch");

    kms.fail(100, AwsKmsDouble.Outage.THROTTLING);
    assertThatThrownBy(() -> client(keyArn, keys("role.arn", role)).encrypt(DEK))
        .isInstanceOf(KmsUnavailableException.class).hasMessageContaining(keyArn);
  }

  @Test
  void badSettings_namedWithoutTheirValues() {
    assertThatThrownBy(() -> client(keyArn, Map.of("secret.access.key", SECRET)))
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining("access.key.id")
        .satisfies(e -> assertNoSecret(e, SECRET));
    assertThatThrownBy(() -> client("arn:aws:kms", keys())).isInstanceOf(RuleException.class)
        .as("the contract's key, not the deployment's")
        .isNotInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("invalid AWS KMS key 'arn:aws:kms'");
    assertThatThrownBy(() -> client(keyArn, keys(AwsKmsDriver.ALTERNATE_KEY_IDS, "mykey")))
        .isInstanceOf(RuleException.class).hasMessageContaining(AwsKmsDriver.ALTERNATE_KEY_IDS)
        .hasMessageContaining("'mykey'");
  }

  @Test
  void roleSettings_fallBackToTheEnvironment_asConfluents() {
    Map<String, String> env = Map.of("AWS_ROLE_ARN", "arn:aws:iam::111122223333:role/from-env",
        "AWS_ROLE_SESSION_NAME", "env-session", "AWS_ROLE_EXTERNAL_ID", "ext-secret-id");
    assertThat(AwsCredentialSettings.of(Map.of(), env::get).toString())
        .contains("role/from-env").contains("'env-session'").doesNotContain("ext-secret-id");
    assertThat(AwsCredentialSettings.of(Map.of("role.arn", "arn:aws:iam::1:role/param"), name -> null).toString())
        .contains("role/param").contains("'confluent-encrypt'");
    Map<String, String> irsa = Map.of("AWS_ROLE_ARN", "arn:aws:iam::1:role/irsa", "AWS_WEB_IDENTITY_TOKEN_FILE", "/t");
    assertThat(AwsCredentialSettings.of(Map.of(), irsa::get).toString())
        .as("under IRSA the default chain assumes the role").doesNotContain("assuming");
    assertThat(AwsCredentialSettings.of(keys(), name -> null).toString())
        .doesNotContain(SECRET).doesNotContain(ACCESS_KEY_ID);
  }

  @Test
  void keysOfOneRegionAndSettings_shareOneSdkClient_closedWithTheLastKeyClient() throws Exception {
    AwsKmsDriver driver = new AwsKmsDriver(name -> null);
    int open = AwsSdk.open();
    KmsClient first = driver.newClient("aws-kms://" + keyArn, keys());
    KmsClient second = driver.newClient("aws-kms://" + kms.createKey("eu-west-1", "second"), keys());
    KmsClient otherRegion = driver.newClient("aws-kms://" + kms.createKey("us-east-1", "third"), keys());

    assertThat(driver.openSdkClients()).as("one per region").isEqualTo(2);
    assertThat(first.decrypt(first.encrypt(DEK))).isEqualTo(DEK);

    first.close();
    first.close(); // a second close releases nothing more
    assertThat(driver.openSdkClients()).isEqualTo(2);
    assertThat(second.decrypt(second.encrypt(DEK))).as("the shared client still works").isEqualTo(DEK);
    second.close();
    assertThat(driver.openSdkClients()).isEqualTo(1);
    otherRegion.close();
    assertThat(driver.openSdkClients()).isZero();
    assertThat(AwsSdk.open()).as("the SDK clients closed").isEqualTo(open);
  }

  @Test
  void otherCredentialSettings_anotherSdkClient() {
    AwsKmsDriver driver = new AwsKmsDriver(name -> null);
    KmsClient first = driver.newClient("aws-kms://" + keyArn, keys());
    KmsClient profile = driver.newClient("aws-kms://" + keyArn, Map.of("profile", "other"));

    assertThat(driver.openSdkClients()).isEqualTo(2);
    first.close();
    profile.close();
    assertThat(driver.openSdkClients()).isZero();
  }

  @Test
  void alternateThatCannotBeMade_theKeyClientsMadeSoFarAreClosed() {
    AwsKmsDriver driver = new AwsKmsDriver(name -> null);
    int open = AwsSdk.open();

    assertThatThrownBy(() -> driver.newClient("aws-kms://" + keyArn, keys(AwsKmsDriver.ALTERNATE_KEY_IDS,
        kms.createKey("us-east-1", "alternate") + ",mykey"))).isInstanceOf(RuleException.class);

    assertThat(driver.openSdkClients()).isZero();
    assertThat(AwsSdk.open()).isEqualTo(open);
  }

  /** Neither the exception, nor its causes and suppressed ones, print the secret. */
  static void assertNoSecret(Throwable e, String secret) {
    java.io.StringWriter trace = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(trace));
    assertThat(trace.toString()).doesNotContain(secret);
  }
}
