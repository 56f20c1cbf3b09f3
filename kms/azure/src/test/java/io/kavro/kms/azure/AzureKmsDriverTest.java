package io.kavro.kms.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.apache.kafka.common.config.types.Password;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The {@code azure-kms} driver against the double of Key Vault and Entra ID over HTTPS, reached by Azure's host
 * names through the JVM's hosts file and trust store: Confluent's bytes (RSA-OAEP-256 by Key Vault's encrypt, the
 * raw ciphertext, the {@code azure:v1:} form), the challenge and token flow, alternates, and faults sorted into
 * temporary and permanent without a secret in any text.
 */
class AzureKmsDriverTest {
  private static final String SECRET = "Xq8~kavro-Cl1ent-S3cret.value";
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  static {
    TestTls.CA.certificate(); // the JVM's trust store, before any TLS
  }

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final KeyVaultDouble vault = new KeyVaultDouble(SECRET);
  /**
   * The driver, its retries backing off from 5 ms instead of {@link KeyVaultTransport#BASE_DELAY}: a test of a
   * throttling or unreachable Key Vault runs every retry (as many as ever) without waiting seconds for them.
   */
  private final AzureKmsDriver driver = new AzureKmsDriver(Duration.ofMillis(5));
  private String version;

  @BeforeEach
  void serve() {
    vault.serveOn(server);
    version = vault.addVersion("kek");
  }

  private static Map<String, Object> settings(String secret) {
    Map<String, Object> settings = new HashMap<>();
    settings.put("tenant.id", KeyVaultDouble.TENANT);
    settings.put("client.id", KeyVaultDouble.CLIENT);
    settings.put("client.secret", secret);
    return settings;
  }

  private KmsClient client(String keyId, Map<String, Object> settings) {
    return driver.newClient("azure-kms://" + keyId, settings);
  }

  private String versioned() {
    return vault.keyUrl("kavro", "kek") + "/" + version;
  }

  @Test
  void wrapsWithKeyVaultsRsaOaep256_storesTheRawCiphertext_andUnwraps() throws Exception {
    KmsClient client = client(versioned(), settings(SECRET));

    byte[] wrapped = client.encrypt(DEK);

    assertThat(wrapped).hasSize(256); // the modulus of the 2048-bit key: no header, as Confluent stores it
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    assertThat(vault.operations()).containsSubsequence("GET /keys/kek/" + version,
        "POST /keys/kek/" + version + "/encrypt", "POST /keys/kek/" + version + "/decrypt");
    assertThat(vault.requests()).contains("POST login.microsoftonline.com /" + KeyVaultDouble.TENANT
        + "/oauth2/v2.0/token");
  }

  /** As a ConfigDef PASSWORD setting or a Connect config provider gives it: the value, not "[hidden]". */
  @Test
  void kafkaPassword_clientSecret_signsIn() throws Exception {
    Map<String, Object> settings = settings(null);
    settings.put("client.secret", new Password(SECRET));
    KmsClient client = client(versioned(), settings);

    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
  }

  @Test
  void unwrapsWhatAnotherClientWrapped_rawAndPrefixed_whateverTheVersionSetting() throws Exception {
    byte[] raw = vault.encrypt("kek", version, DEK);
    byte[] prefixed = concat(("azure:v1:" + version + ":").getBytes(StandardCharsets.US_ASCII), raw);
    String older = version;
    vault.addVersion("kek"); // rotated: the versionless id now names another key

    KmsClient pinned = client(vault.keyUrl("kavro", "kek") + "/" + older, settings(SECRET));
    KmsClient versionless = client(vault.keyUrl("kavro", "kek"), settings(SECRET));

    assertThat(pinned.decrypt(raw)).isEqualTo(DEK);
    assertThat(versionless.decrypt(prefixed)).isEqualTo(DEK);
    assertThat(vault.operations()).last().isEqualTo("POST /keys/kek/" + older + "/decrypt");
  }

  @Test
  void versionSave_writesTheCurrentVersionInAnAzureV1Header_andReadsItAfterARotation() throws Exception {
    Map<String, Object> settings = settings(SECRET);
    settings.put("encrypt.azure.key.version.save", "true");
    KmsClient client = client(vault.keyUrl("kavro", "kek"), settings);

    byte[] wrapped = client.encrypt(DEK);
    String header = "azure:v1:" + version + ":";
    assertThat(new String(wrapped, 0, header.length(), StandardCharsets.US_ASCII)).isEqualTo(header);
    assertThat(wrapped).hasSize(header.length() + 256);

    String newer = vault.addVersion("kek");
    byte[] rewrapped = client.encrypt(DEK);

    assertThat(new String(rewrapped, 0, header.length(), StandardCharsets.US_ASCII))
        .isEqualTo("azure:v1:" + newer + ":");
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    assertThat(client.decrypt(rewrapped)).isEqualTo(DEK);
    assertThat(vault.operations()).contains("POST /keys/kek/" + version + "/decrypt",
        "POST /keys/kek/" + newer + "/decrypt");
  }

  @Test
  void wrongClientSecret_isPermanent_namingTheKeyAndAzuresReason_neverTheSecret() {
    String wrong = "Wr0ng~guessed-secret-value";
    try (LogCapture logs = new LogCapture()) {
      KmsClient client = client(versioned(), settings(wrong));

      assertThatThrownBy(() -> client.encrypt(DEK)).as("the deployment's credentials, refused by Entra ID")
          .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasNoCause()
          .hasMessageContaining(versioned()).hasMessageContaining("the credentials are refused")
          .hasMessageContaining("AADSTS7000215").hasMessageNotContaining(wrong).hasMessageNotContaining(SECRET);
      assertThat(client.toString()).doesNotContain(wrong);
      // one token request per Key Vault request (the SDK's read of the key, then the encrypt), none retried
      assertThat(vault.requests()).filteredOn(r -> r.endsWith("/oauth2/v2.0/token"))
          .as("a refused credential is not retried").hasSizeLessThanOrEqualTo(2);
      assertThat(logs.lines()).noneMatch(line -> line.contains(wrong) || line.contains(SECRET));
    }
  }

  @Test
  void disabledOrMissingKey_isPermanent_withKeyVaultsReason() throws Exception {
    KmsClient client = client(versioned(), settings(SECRET));
    byte[] wrapped = client.encrypt(DEK);
    vault.enable("kek", version, false);

    assertThatThrownBy(() -> client.decrypt(wrapped)).isInstanceOf(GeneralSecurityException.class)
        .isNotInstanceOf(KmsUnavailableException.class).hasMessageContaining("403")
        .hasMessageContaining("disabled key").hasMessageContaining(versioned());
    KmsClient missing = client(vault.keyUrl("kavro", "nokey") + "/" + version, settings(SECRET));
    assertThatThrownBy(() -> missing.encrypt(DEK)).isInstanceOf(GeneralSecurityException.class)
        .isNotInstanceOf(KmsUnavailableException.class).hasMessageContaining("404")
        .hasMessageContaining("was not found");
  }

  @Test
  void ciphertextOfAnotherKey_isPermanent() throws Exception {
    String other = vault.addVersion("other");
    byte[] foreign = vault.encrypt("other", other, DEK);
    KmsClient client = client(versioned(), settings(SECRET));

    assertThatThrownBy(() -> client.decrypt(foreign)).isInstanceOf(GeneralSecurityException.class)
        .isNotInstanceOf(KmsUnavailableException.class).hasMessageContaining("400");
  }

  @Test
  void throttling_isRetriedByTheSdk_thenTemporary_thenRecovers() throws Exception {
    KmsClient client = client(versioned(), settings(SECRET));
    byte[] wrapped = client.encrypt(DEK);

    vault.throttle(KeyVaultTransport.MAX_RETRIES, 429); // within the SDK's retries: not seen
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);

    vault.throttle(100, 429);
    assertThatThrownBy(() -> client.decrypt(wrapped)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("429").hasMessageContaining(versioned());
    vault.throttle(100, 503);
    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("503");

    vault.throttle(0, 429);
    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
  }

  @Test
  void unreachableVault_isTemporary() {
    KmsClient client = client("https://kavro.vault.azure.net:1/keys/kek/" + version, settings(SECRET));

    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("kavro.vault.azure.net:1");
  }

  @Test
  void alternates_areTriedInOrder_whenTheKeyBeforeFails() throws Exception {
    String alternate = vault.addVersion("alt");
    byte[] byAlternate = vault.encrypt("alt", alternate, DEK);
    Map<String, Object> settings = settings(SECRET);
    settings.put("encrypt.alternate.kms.key.ids", " " + vault.keyUrl("other", "nokey") + "/" + version + " , "
        + vault.keyUrl("other", "alt") + "/" + alternate);

    KmsClient client = client(versioned(), settings);

    assertThat(client.decrypt(byAlternate)).isEqualTo(DEK);
    assertThat(vault.operations()).containsSubsequence("POST /keys/kek/" + version + "/decrypt",
        "POST /keys/alt/" + alternate + "/decrypt");
    assertThat(vault.requests()).contains("POST other.vault.azure.net /keys/alt/" + alternate + "/decrypt");
  }

  @Test
  void notAKeyVaultKeyId_isARuleErrorNamingIt() {
    assertThatThrownBy(() -> client("https://kavro.vault.azure.net/secrets/kek", settings(SECRET)))
        .isInstanceOf(RuleException.class).hasMessageContaining("https://kavro.vault.azure.net/secrets/kek")
        .as("the contract's key, not the deployment's")
        .isNotInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("not an Azure Key Vault key id");
    assertThatThrownBy(() -> driver.newClient("aws-kms://arn:aws:kms:x", settings(SECRET)))
        .isInstanceOf(RuleException.class).hasMessageContaining("not an azure-kms key URI");
    Map<String, Object> settings = settings(SECRET);
    settings.put("encrypt.azure.key.version.save", "yes");
    assertThatThrownBy(() -> client(versioned(), settings)).as("a setting to fix, not the record's fault")
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("encrypt.azure.key.version.save").hasMessageContaining("not true or false");
  }

  /** A credential Azure's SDK cannot make from the settings is the deployment's fault, naming the client only. */
  @Test
  void aCredentialTheSdkCannotMake_isADeploymentFault_withoutTheSecret() {
    Map<String, Object> settings = settings(SECRET);
    settings.put("tenant.id", "not a tenant/");
    assertThatThrownBy(() -> client(versioned(), settings))
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("cannot make the Azure Key Vault client").hasMessageContaining(KeyVaultDouble.CLIENT)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(SECRET));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
