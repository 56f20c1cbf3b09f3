package io.kavro.kms.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kavro.registry.LogCapture;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsDriver;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleUnavailableException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The driver against the double of Cloud KMS's REST API and Google's token endpoint: the requests are those of
 * Confluent's driver (Tink's {@code GcpKmsAead}), what Confluent wraps it reads and the reverse, faults are
 * classified, and no secret is printed.
 */
class GcpKmsDriverTest {
  static final String KEY = "projects/acme/locations/global/keyRings/kavro/cryptoKeys/people";
  static final String OTHER_KEY = "projects/acme/locations/europe-west1/keyRings/kavro/cryptoKeys/spare";
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes();

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final ServiceAccount account = ServiceAccount.create("kavro@acme.iam.gserviceaccount.com");
  private final CloudKmsDouble kms = new CloudKmsDouble().account(account.email(), account.keys().getPublic())
      .key(KEY, account.email()).key(OTHER_KEY, account.email());
  private final GcpKmsDriver driver = new GcpKmsDriver();

  @BeforeEach
  void serve() {
    server.setDispatcher(kms);
  }

  private Map<String, Object> settings() {
    return account.settings("", server.url("/token").toString(), server.url("/").toString());
  }

  private KmsClient client(String key) {
    return driver.newClient("gcp-kms://" + key, settings());
  }

  @Test
  void foundByServiceLoader_asGcpKms() {
    assertThat(ServiceLoader.load(KmsDriver.class).stream().map(ServiceLoader.Provider::get))
        .anyMatch(d -> d instanceof GcpKmsDriver && d.kmsType().equals("gcp-kms"));
  }

  @Test
  void wrapsAsConfluentsDriverDoes_emptyAadAndCloudKmsCiphertextUnchanged() throws Exception {
    KmsClient client = client(KEY);
    byte[] wrapped = client.encrypt(DEK);

    // The wrapped DEK is Cloud KMS's ciphertext itself: Confluent's driver reads it with empty associated data.
    assertThat(kms.decryptAsConfluent(KEY, wrapped)).isEqualTo(DEK);
    assertThat(CloudKmsDouble.versionOf(wrapped)).isEqualTo(1);
    // And what Confluent's driver wrapped, this one reads.
    assertThat(client.decrypt(kms.encryptAsConfluent(KEY, DEK))).isEqualTo(DEK);

    assertThat(kms.paths()).containsExactly("POST /v1/" + KEY + ":encrypt", "POST /v1/" + KEY + ":decrypt");
    JsonNode encrypt = kms.requests.get(0).body();
    // Tink's GcpKmsAead: {"plaintext": b64, "additionalAuthenticatedData": ""} and nothing else.
    assertThat(fieldNames(encrypt)).containsExactlyInAnyOrder("plaintext", "additionalAuthenticatedData");
    assertThat(encrypt.get("additionalAuthenticatedData").asText()).isEmpty();
    assertThat(decode(encrypt.get("plaintext").asText())).isEqualTo(DEK);
    JsonNode decrypt = kms.requests.get(1).body();
    assertThat(fieldNames(decrypt)).containsExactlyInAnyOrder("ciphertext", "additionalAuthenticatedData");
    assertThat(decrypt.get("additionalAuthenticatedData").asText()).isEmpty();
    assertThat(kms.requests).allMatch(r -> r.authorization() != null && r.authorization().startsWith("Bearer ya29."));
    assertThat(kms.tokensIssued()).isEqualTo(1);
  }

  @Test
  void rotatedKey_newDeksUnderTheNewVersion_oldOnesStillRead() throws Exception {
    KmsClient client = client(KEY);
    byte[] before = client.encrypt(DEK);
    kms.rotate(KEY);
    byte[] after = client.encrypt(DEK);
    assertThat(CloudKmsDouble.versionOf(before)).isEqualTo(1);
    assertThat(CloudKmsDouble.versionOf(after)).isEqualTo(2);
    assertThat(client.decrypt(before)).isEqualTo(DEK);
    assertThat(client.decrypt(after)).isEqualTo(DEK);
  }

  @Test
  void throttledOrUnavailable_isTemporary_afterOneRequest_thenRecovers() throws Exception {
    KmsClient client = client(KEY);
    kms.throttle(1, 429);
    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(KEY).hasMessageContaining("HTTP 429 RESOURCE_EXHAUSTED").hasMessageContaining("Quota");
    assertThat(kms.requests).hasSize(1); // the SDK did not retry it away
    byte[] wrapped = client.encrypt(DEK);
    kms.throttle(1, 503);
    assertThatThrownBy(() -> client.decrypt(wrapped)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("HTTP 503 UNAVAILABLE");
    assertThat(kms.requests).hasSize(3);
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
  }

  @Test
  void tokenEndpointUnavailable_isTemporary_unretriedByTheLibrary_thenRecovers() throws Exception {
    KmsClient client = client(KEY);
    kms.throttleTokens(1);
    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(KEY).hasMessageContaining("no OAuth access token for now");
    assertThat(kms.requests).isEmpty();
    assertThat(kms.decryptAsConfluent(KEY, client.encrypt(DEK))).isEqualTo(DEK);
  }

  /** google-auth counts only 500, 503, 408 and 429 as retryable: a gateway's 502 or 504 is an outage too. */
  @Test
  void tokenEndpointGatewayErrors_areTemporary() throws Exception {
    KmsClient client = client(KEY);
    for (int status : new int[] {502, 504}) {
      kms.throttleTokens(1, status);
      assertThatThrownBy(() -> client.encrypt(DEK)).as("HTTP %d", status)
          .isInstanceOf(KmsUnavailableException.class).hasMessageContaining(KEY);
    }
    assertThat(kms.requests).isEmpty();
    assertThat(kms.decryptAsConfluent(KEY, client.encrypt(DEK))).isEqualTo(DEK);
  }

  /**
   * No service account and no application default credentials found (a metadata server that did not answer the
   * probe looks the same): temporary, so the record is retried rather than the rule failing open.
   */
  @Test
  void noDefaultCredentials_isTemporary(@TempDir Path home) {
    assumeTrue(System.getenv("GOOGLE_APPLICATION_CREDENTIALS") == null && System.getenv("CLOUDSDK_CONFIG") == null,
        "application default credentials in the environment");
    String savedHome = System.getProperty("user.home");
    System.setProperty("user.home", home.toString()); // no gcloud credentials file
    try {
      assertThatThrownBy(() -> driver.newClient("gcp-kms://" + KEY, Map.of()))
          .isInstanceOf(RuleUnavailableException.class).hasMessageContaining(KEY)
          .hasMessageContaining("no Google credentials");
    } finally {
      System.setProperty("user.home", savedHome);
    }
  }

  /** The bearer token and the signed grant travel over https only, or to the loopback. */
  @Test
  void plainHttpToAnotherHost_refused() {
    for (String setting : List.of("gcp.kms.endpoint", "gcp.token.uri")) {
      Map<String, Object> settings = settings();
      settings.put(setting, "http://kms.example.com/token");
      assertThatThrownBy(() -> driver.newClient("gcp-kms://" + KEY, settings)).as(setting)
          .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining(setting)
          .hasMessageContaining("https");
    }
  }

  @Test
  void privateKeyWithRealNewlines_isReadToo() throws Exception {
    Map<String, Object> settings = settings();
    settings.put("private.key", account.privateKeyPem().replace("\\n", "\n"));
    assertThat(settings.get("private.key").toString()).contains("\n").doesNotContain("\\n");
    KmsClient client = driver.newClient("gcp-kms://" + KEY, settings);
    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
  }

  @Test
  void unreachableKms_isTemporary() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    Map<String, Object> settings = settings();
    settings.put("gcp.kms.endpoint", "http://127.0.0.1:" + closedPort);
    KmsClient client = driver.newClient("gcp-kms://" + KEY, settings);
    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(KEY);
  }

  @Test
  void refusals_areFinal_namingTheKeyAndGooglesReason() throws Exception {
    ServiceAccount stranger = ServiceAccount.create("stranger@acme.iam.gserviceaccount.com");
    kms.account(stranger.email(), stranger.keys().getPublic());
    KmsClient denied = driver.newClient("gcp-kms://" + KEY,
        stranger.settings("", server.url("/token").toString(), server.url("/").toString()));
    assertFinal(() -> denied.encrypt(DEK), "HTTP 403 PERMISSION_DENIED", "cloudkms.cryptoKeyVersions.useToEncrypt");

    String missing = "projects/acme/locations/global/keyRings/kavro/cryptoKeys/gone";
    assertFinal(() -> client(missing).encrypt(DEK), "HTTP 404 NOT_FOUND", missing);

    byte[] otherKeys = client(OTHER_KEY).encrypt(DEK);
    assertFinal(() -> client(KEY).decrypt(otherKeys), "HTTP 400 INVALID_ARGUMENT", "Decryption failed");

    kms.disable(KEY);
    assertFinal(() -> client(KEY).encrypt(DEK), "HTTP 400 FAILED_PRECONDITION", "DISABLED");
  }

  /**
   * Cloud KMS's 401 even after google-auth's refresh is an outage, not a refusal: that refresh may have failed for
   * now, which google-auth swallows. A refused account fails at the token endpoint (below).
   */
  @Test
  void tokensCloudKmsRefuses_evenAfterARefresh_areAnOutage() {
    kms.refuseTokens();
    int before = kms.tokensIssued();
    assertThatThrownBy(() -> client(KEY).encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(KEY).hasMessageContaining("HTTP 401");
    assertThat(kms.tokensIssued() - before).as("google-auth refreshed the token before the 401 stood")
        .isGreaterThanOrEqualTo(2);
  }

  @Test
  void wrongPrivateKey_isFinal_andNoSecretInAnyText() {
    ServiceAccount impostor = new ServiceAccount(account.email(), ServiceAccount.create("x").keys());
    Map<String, Object> settings = impostor.settings("", server.url("/token").toString(), server.url("/").toString());
    try (LogCapture logs = new LogCapture()) {
      KmsClient client = driver.newClient("gcp-kms://" + KEY, settings);
      assertThatThrownBy(() -> client.encrypt(DEK)).as("the deployment's credentials, refused")
          .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasNoCause()
          .hasMessageContaining(KEY).hasMessageContaining("invalid_grant").satisfies(e -> assertNoSecret(e, impostor));
      assertThat(client.toString()).contains(KEY).doesNotContain(impostor.privateKeyBase64().substring(0, 40));
      assertThat(logs.lines()).noneMatch(line -> line.contains(impostor.privateKeyBase64().substring(0, 40)));
    }
    assertThat(kms.requests).isEmpty();
  }

  @Test
  void badSettings_failWithTheSettingsName_neverItsValue() {
    Map<String, Object> partial = settings();
    partial.remove("private.key.id");
    assertThatThrownBy(() -> driver.newClient("gcp-kms://" + KEY, partial))
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining("[private.key.id]")
        .satisfies(e -> assertNoSecret(e, account));

    Map<String, Object> notPem = settings();
    notPem.put("private.key", "-----BEGIN PRIVATE KEY-----\\nTk9UQUtFWQ==" + account.privateKeyBase64().substring(0, 40)
        + "\\n-----END PRIVATE KEY-----");
    assertThatThrownBy(() -> driver.newClient("gcp-kms://" + KEY, notPem))
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("private.key").hasMessageNotContaining("Tk9UQUtFWQ")
        .satisfies(e -> assertNoSecret(e, account));

    Map<String, Object> user = settings();
    user.put("account.type", "authorized_user");
    assertThatThrownBy(() -> driver.newClient("gcp-kms://" + KEY, user))
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining("account.type")
        .hasMessageContaining("authorized_user");

    assertThatThrownBy(() -> driver.newClient("gcp-kms://projects/acme/keyRings/kavro", settings()))
        .isInstanceOf(RuleException.class).hasMessageContaining("gcp-kms://projects/<project>/locations/");
  }

  @Test
  void alternateKeys_triedInOrder_whenTheKeksOwnFails() throws Exception {
    String gone = "projects/acme/locations/global/keyRings/kavro/cryptoKeys/gone";
    Map<String, Object> settings = settings();
    settings.put("encrypt.alternate.kms.key.ids", " gcp-kms://" + OTHER_KEY + " , " + KEY);
    byte[] byKey = kms.encryptAsConfluent(KEY, DEK);
    try (LogCapture logs = new LogCapture()) {
      KmsClient client = driver.newClient("gcp-kms://" + gone, settings);
      assertThat(client.decrypt(byKey)).isEqualTo(DEK);
      assertThat(logs.lines()).anyMatch(line -> line.contains(gone) && line.contains("NOT_FOUND"));
    }
    assertThat(kms.paths()).containsExactly("POST /v1/" + gone + ":decrypt", "POST /v1/" + OTHER_KEY + ":decrypt",
        "POST /v1/" + KEY + ":decrypt");

    kms.throttle(3, 503);
    KmsClient client = driver.newClient("gcp-kms://" + gone, settings);
    assertThatThrownBy(() -> client.decrypt(byKey)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("none of the 3 Cloud KMS keys");
  }

  private static void assertFinal(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String... parts) {
    var thrown = assertThatThrownBy(call).isInstanceOf(GeneralSecurityException.class)
        .isNotInstanceOf(KmsUnavailableException.class);
    for (String part : parts) {
      thrown.hasMessageContaining(part);
    }
  }

  /** Neither the private key nor a token in the message of {@code e} or of its causes. */
  static void assertNoSecret(Throwable e, ServiceAccount account) {
    String key = account.privateKeyBase64();
    for (Throwable t = e; t != null; t = t.getCause()) {
      String text = String.valueOf(t.getMessage()) + t;
      assertThat(text).doesNotContain(key.substring(0, 40)).doesNotContain(key.substring(key.length() - 40))
          .doesNotContain("ya29.");
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new java.util.ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  private static byte[] decode(String base64) {
    return base64.contains("-") || base64.contains("_")
        ? Base64.getUrlDecoder().decode(base64) : Base64.getDecoder().decode(base64);
  }

  @Test
  void keksOfOneSettings_shareOneCloudKmsClient_andItsToken() throws Exception {
    KmsClient people = client(KEY);
    KmsClient spare = client(OTHER_KEY);

    assertThat(people.decrypt(people.encrypt(DEK))).isEqualTo(DEK);
    assertThat(spare.decrypt(spare.encrypt(DEK))).isEqualTo(DEK);

    assertThat(driver.cloudKmsClients()).isEqualTo(1);
    assertThat(kms.tokensIssued()).as("one token for both KEKs").isEqualTo(1);
    driver.newClient("gcp-kms://" + KEY, account.settings("", server.url("/token").toString(),
        server.url("/other/").toString()));
    assertThat(driver.cloudKmsClients()).as("another endpoint, another client").isEqualTo(2);
  }
}
