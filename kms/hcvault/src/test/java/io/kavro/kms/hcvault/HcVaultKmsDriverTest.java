package io.kavro.kms.hcvault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import io.kavro.serde.rules.RuleException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okhttp3.tls.HandshakeCertificates;
import org.apache.kafka.common.config.types.Password;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hcvault driver against a double of Vault's transit API that really encrypts: Confluent's request and
 * ciphertext layout, credentials (token, namespace, AppRole by pairs in Confluent's order, environment, Kafka
 * Passwords), alternate keys, TLS, and the faults classified (temporary: 429, 503, a proxy's 404, a 307/308 redirect
 * never followed, no answer; final: 403, 400, with Vault's reason), never a secret in a message or a log line.
 */
class HcVaultKmsDriverTest {
  private static final String TOKEN = "hvs.t0ken-SECRET-123";
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  @StartStop
  final MockWebServer server = new MockWebServer();

  @TempDir
  Path dir;

  private final VaultTransitDouble vault = new VaultTransitDouble(TOKEN).key("transit", "orders");
  private final Map<String, String> environment = new HashMap<>();
  private final HcVaultKmsDriver driver = new HcVaultKmsDriver(environment::get);

  @BeforeEach
  void serve() {
    server.setDispatcher(vault);
  }

  private String keyUrl(String mountAndName) {
    String address = server.url("/").toString();
    return "hcvault://" + address + mountAndName.replaceFirst("/", "/keys/");
  }

  private KmsClient client(String mountAndName, Object... keyValues) {
    Map<String, Object> configs = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      configs.put((String) keyValues[i], keyValues[i + 1]);
    }
    return driver.newClient(keyUrl(mountAndName), configs);
  }

  @Test
  void wrapsAsConfluent_vaultCiphertextAsUtf8_emptyContext_andUnwraps() throws Exception {
    KmsClient client = client("transit/orders", "token.id", TOKEN);

    byte[] wrapped = client.encrypt(DEK);

    assertThat(new String(wrapped, StandardCharsets.UTF_8)).startsWith("vault:v1:");
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    VaultTransitDouble.Seen encrypt = vault.requests.get(0);
    assertThat(encrypt.path()).isEqualTo("/v1/transit/encrypt/orders");
    assertThat(encrypt.token()).isTrue();
    assertThat(encrypt.namespace()).isNull();
    assertThat(encrypt.body().path("context").asText("absent")).isEmpty();
    assertThat(encrypt.body().path("plaintext").asText())
        .isEqualTo(java.util.Base64.getEncoder().encodeToString(DEK));
    assertThat(vault.requests.get(1).path()).isEqualTo("/v1/transit/decrypt/orders");
  }

  /** What Confluent's JavaScript client wrapped (node-vault sends no context) unwraps, and survives rotation. */
  @Test
  void unwrapsWhatConfluentsJsClientWrapped_andOlderVersionsAfterRotation() throws Exception {
    KmsClient client = client("transit/orders", "token.id", TOKEN);
    String byJs = vault.encryptWithoutContext("transit", "orders", DEK);

    vault.rotate("transit", "orders");
    byte[] rewrapped = client.encrypt(DEK);

    assertThat(client.decrypt(byJs.getBytes(StandardCharsets.UTF_8))).isEqualTo(DEK);
    assertThat(new String(rewrapped, StandardCharsets.UTF_8)).startsWith("vault:v2:");
    assertThat(client.decrypt(rewrapped)).isEqualTo(DEK);
  }

  @Test
  void noScheme_isHttps_andMountMayHaveSeveralSegments() {
    VaultKey key = VaultKey.parse("hcvault://vault.example.com:8200/team/transit/keys/orders");

    assertThat(key.address().scheme()).isEqualTo("https");
    assertThat(key.operation("encrypt").toString())
        .isEqualTo("https://vault.example.com:8200/v1/team/transit/encrypt/orders");
    assertThat(key).hasToString("hcvault://https://vault.example.com:8200/team/transit/keys/orders");
    assertThat(VaultKey.parse("hcvault://http://127.0.0.1:8200/transit/keys/k").operation("decrypt").toString())
        .isEqualTo("http://127.0.0.1:8200/v1/transit/decrypt/k");
    assertThat(VaultKey.parse("hcvault://httpvault.example.com/transit/keys/k").operation("encrypt").toString())
        .isEqualTo("https://httpvault.example.com/v1/transit/encrypt/k");
  }

  @Test
  void badKeyUri_failsNamingTheForm_withoutUserInfo() {
    assertThatThrownBy(() -> VaultKey.parse("hcvault://https://admin:hunter2@vault:8200/transit/orders"))
        .isInstanceOf(RuleException.class).hasMessageContaining("<mount>/keys/<name>")
        .hasMessageNotContaining("hunter2");
    assertThatThrownBy(() -> VaultKey.parse("hcvault://admin:hunter2@vault:8200/transit/orders"))
        .as("no scheme: https is assumed, the user info is still there").isInstanceOf(RuleException.class)
        .hasMessageContaining("***@vault:8200/transit/orders").hasMessageNotContaining("hunter2")
        .hasMessageNotContaining("admin");
    assertThatThrownBy(() -> VaultKey.parse("hcvault://vault:8200/transit/orders?token=hvs.QUERY-SECRET"))
        .isInstanceOf(RuleException.class).hasMessageContaining("vault:8200/transit/orders?***")
        .hasMessageNotContaining("QUERY-SECRET");
  }

  @Test
  void redact_dropsEveryFormOfUserInfo_andTheQuery() {
    assertThat(VaultKey.redact("https://admin:hunter2@vault:8200/transit/keys/k"))
        .isEqualTo("https://***@vault:8200/transit/keys/k");
    assertThat(VaultKey.redact("admin:hunter2@vault:8200/transit/keys/k")).isEqualTo("***@vault:8200/transit/keys/k");
    assertThat(VaultKey.redact("https://admin:hun@ter/2@vault/transit/keys/k"))
        .isEqualTo("https://***@vault/transit/keys/k");
    assertThat(VaultKey.redact("https://vault/transit/keys/k?x=1#frag")).isEqualTo("https://vault/transit/keys/k?***");
    assertThat(VaultKey.redact("vault:8200/transit/keys/k")).isEqualTo("vault:8200/transit/keys/k");
    // An @ in the query is the query's: the address stays, the token goes.
    assertThat(VaultKey.redact("https://vault/transit/keys/k?token=ab@cd"))
        .isEqualTo("https://vault/transit/keys/k?***");
    assertThat(VaultKey.redact("https://admin:pw@vault/transit/keys/k?token=ab@cd#x@y"))
        .isEqualTo("https://***@vault/transit/keys/k?***");
    // A raw ? in a password: nothing of the user info is left.
    assertThat(VaultKey.redact("https://admin:hun?ter2@vault/transit/keys/k")).isEqualTo("https://***");
  }

  @Test
  void namespace_isSentAsHeader_fromTheSettingOrTheEnvironment() throws Exception {
    vault.namespace("team-a");
    assertThat(client("transit/orders", "token.id", TOKEN, "namespace", "team-a").encrypt(DEK)).isNotEmpty();

    environment.put("VAULT_NAMESPACE", "team-a");
    environment.put("VAULT_TOKEN", TOKEN);
    assertThat(client("transit/orders").encrypt(DEK)).isNotEmpty();
    assertThat(vault.requests).extracting(VaultTransitDouble.Seen::namespace).containsOnly("team-a");

    environment.clear();
    assertThatThrownBy(() -> client("transit/orders", "token.id", TOKEN).encrypt(DEK))
        .isNotInstanceOf(KmsUnavailableException.class).hasMessageContaining("HTTP 403");
  }

  @Test
  void noCredentials_failsNamingTheSettings_halfAnAppRoleToo() {
    assertThatThrownBy(() -> client("transit/orders"))
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("token.id").hasMessageContaining("VAULT_TOKEN").hasMessageContaining("approle.role.id");
    assertThatThrownBy(() -> client("transit/orders", "approle.role.id", "role-1"))
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining("approle.secret.id")
        .hasMessageNotContaining("role-1");
  }

  /** Confluent's getRoleId: the settings' pair, else the environment's pair; never one half of each. */
  @Test
  void appRole_goesByPairs_halfInTheSettingsHalfInTheEnvironment_isAnError() {
    vault.appRole("role-1", "SECRET-ID-42");
    environment.put("VAULT_APPROLE_SECRET_ID", "SECRET-ID-42");
    assertThatThrownBy(() -> client("transit/orders", "approle.role.id", "role-1", "token.id", TOKEN))
        .isInstanceOf(RuleException.class).hasMessageContaining("approle.role.id is set but approle.secret.id is not")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("role-1", "SECRET-ID", TOKEN));

    environment.clear();
    environment.put("VAULT_APPROLE_ROLE_ID", "role-1");
    assertThatThrownBy(() -> client("transit/orders", "approle.secret.id", "SECRET-ID-42"))
        .isInstanceOf(RuleException.class).hasMessageContaining("approle.secret.id is set but approle.role.id is not")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("role-1", "SECRET-ID"));
    assertThatThrownBy(() -> client("transit/orders", "token.id", TOKEN)).as("half a pair in the environment")
        .isInstanceOf(RuleException.class)
        .hasMessageContaining("VAULT_APPROLE_ROLE_ID is set but VAULT_APPROLE_SECRET_ID is not")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("role-1", TOKEN));
  }

  /** Confluent's order: settings' AppRole, environment's AppRole, token.id, VAULT_TOKEN. */
  @Test
  void appRole_order_settingsPair_thenEnvironmentPair_thenToken_thenVaultToken() throws Exception {
    vault.appRole("role-1", "SECRET-ID-42");
    environment.put("VAULT_APPROLE_ROLE_ID", "role-env");
    environment.put("VAULT_APPROLE_SECRET_ID", "SECRET-ID-WRONG");
    client("transit/orders", "approle.role.id", "role-1", "approle.secret.id", "SECRET-ID-42").encrypt(DEK);
    assertThat(vault.logins()).as("the settings' pair, not the environment's").isEqualTo(1);

    environment.put("VAULT_APPROLE_ROLE_ID", "role-1");
    environment.put("VAULT_APPROLE_SECRET_ID", "SECRET-ID-42");
    client("transit/orders", "token.id", "hvs.NOT-ACCEPTED").encrypt(DEK);
    assertThat(vault.logins()).as("the environment's pair wins over token.id, as in Confluent's driver").isEqualTo(2);

    environment.clear();
    environment.put("VAULT_TOKEN", "hvs.NOT-ACCEPTED");
    assertThat(client("transit/orders", "token.id", TOKEN).encrypt(DEK)).as("token.id over VAULT_TOKEN").isNotEmpty();
    environment.put("VAULT_TOKEN", TOKEN);
    assertThat(client("transit/orders").encrypt(DEK)).isNotEmpty();
    assertThat(vault.logins()).isEqualTo(2);
  }

  /** An AppRole that Vault refuses is the deployment's fault, which every key and record meets; no secret shown. */
  @Test
  void appRoleVaultRefuses_isADeploymentFault_withoutItsSecret() {
    vault.appRole("role-1", "SECRET-ID-42");
    KmsClient client = client("transit/orders", "approle.role.id", "role-1", "approle.secret.id",
        "SECRET-ID-41");
    assertThatThrownBy(() -> client.encrypt(DEK))
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining("AppRole")
        .hasMessageContaining("invalid role or secret ID")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("SECRET-ID"));
  }

  /**
   * No AppRole auth method where the driver logs in: Vault's own 404 (its JSON) is the deployment's, as its refusal
   * is; a proxy's bare 404 on the same path is an outage.
   */
  @Test
  void appRoleLogin_vaultsOwn404_isADeploymentFault_aProxysIsAnOutage() {
    server.setDispatcher(new mockwebserver3.Dispatcher() {
      @Override
      public mockwebserver3.MockResponse dispatch(mockwebserver3.RecordedRequest request) {
        return new mockwebserver3.MockResponse.Builder().code(404).addHeader("Content-Type", "application/json")
            .body("{\"errors\":[\"no handler for route \\\"auth/approle/login\\\". route entry not found.\"]}")
            .build();
      }
    });
    assertThatThrownBy(() -> client("transit/orders", "approle.role.id", "role-1", "approle.secret.id",
        "SECRET-ID-42").encrypt(DEK))
        .isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class).hasMessageContaining("HTTP 404")
        .hasMessageContaining("route entry not found").hasMessageContaining("the AppRole's credentials are refused")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("SECRET-ID"));

    server.setDispatcher(new mockwebserver3.Dispatcher() {
      @Override
      public mockwebserver3.MockResponse dispatch(mockwebserver3.RecordedRequest request) {
        return new mockwebserver3.MockResponse.Builder().code(404).body("<html>Not Found</html>").build();
      }
    });
    assertThatThrownBy(() -> client("transit/orders", "approle.role.id", "role-1", "approle.secret.id",
        "SECRET-ID-42").encrypt(DEK))
        .isInstanceOf(KmsUnavailableException.class).hasMessageContaining("not Vault's JSON");
  }

  /** As a ConfigDef PASSWORD setting or Kafka's own ssl.*.password gives them: the value, not "[hidden]". */
  @Test
  void kafkaPasswords_tokenAndAppRole_authenticate() throws Exception {
    assertThat(client("transit/orders", "token.id", new Password(TOKEN)).encrypt(DEK)).isNotEmpty();

    vault.appRole("role-1", "SECRET-ID-42");
    KmsClient appRole = client("transit/orders", "approle.role.id", new Password("role-1"), "approle.secret.id",
        new Password("SECRET-ID-42"));
    assertThat(appRole.decrypt(appRole.encrypt(DEK))).isEqualTo(DEK);
    assertThat(vault.logins()).isEqualTo(1);
  }

  /** Mutual TLS with the client's key in a PKCS12 key store whose password is a Kafka Password. */
  @Test
  void kafkaPasswords_keyStorePassword_opensTheKeyStore_forMutualTls() throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate serverCert = new HeldCertificate.Builder().signedBy(ca).addSubjectAlternativeName("localhost")
        .commonName("localhost").build();
    HeldCertificate clientCert = new HeldCertificate.Builder().signedBy(ca).commonName("kavro").build();
    server.useHttps(new HandshakeCertificates.Builder().heldCertificate(serverCert)
        .addTrustedCertificate(ca.certificate()).build().sslSocketFactory());
    server.requireClientAuth();
    char[] password = "ks-Pa55".toCharArray();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("kavro", clientCert.keyPair().getPrivate(), password,
        new java.security.cert.Certificate[] {clientCert.certificate(), ca.certificate()});
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    trust.setCertificateEntry("vault-ca", ca.certificate());
    Path keyStore = dir.resolve("client.p12");
    Path trustStore = dir.resolve("trust.p12");
    try (OutputStream out = Files.newOutputStream(keyStore)) {
      keys.store(out, password);
    }
    try (OutputStream out = Files.newOutputStream(trustStore)) {
      trust.store(out, "trust-Pa55".toCharArray());
    }

    KmsClient client = client("transit/orders", "token.id", TOKEN, "ssl.keystore.location", keyStore.toString(),
        "ssl.keystore.password", new Password("ks-Pa55"), "ssl.truststore.location", trustStore.toString(),
        "ssl.truststore.password", new Password("trust-Pa55"));

    assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
  }

  @Test
  void wrongToken_isFinal_namingTheKeyAndVaultsReason_neverTheToken() {
    KmsClient client = client("transit/orders", "token.id", "hvs.WRONG-guess");

    assertThatThrownBy(() -> client.encrypt(DEK))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining(keyUrl("transit/orders")).hasMessageContaining("HTTP 403")
        .hasMessageContaining("permission denied").hasMessageNotContaining("hvs.WRONG-guess");
    assertThat(client.toString()).doesNotContain("hvs.");
  }

  @Test
  void noSuchKey_isFinal_withVaultsReason() {
    assertThatThrownBy(() -> client("transit/nope", "token.id", TOKEN).encrypt(DEK))
        .isInstanceOf(GeneralSecurityException.class).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("HTTP 400").hasMessageContaining("encryption key not found");
  }

  @Test
  void aDekWrappedByAnotherKey_failsForGood_namingTheKeyItWasGivenTo() throws Exception {
    vault.key("transit", "other");
    byte[] wrapped = client("transit/other", "token.id", TOKEN).encrypt(DEK);
    KmsClient orders = client("transit/orders", "token.id", TOKEN);
    vault.requests.clear();

    assertThatThrownBy(() -> orders.decrypt(wrapped))
        .isExactlyInstanceOf(VaultTransitClient.VaultRefusedException.class)
        .hasMessageContaining("decrypt with the key " + keyUrl("transit/orders") + ":")
        .hasMessageContaining("HTTP 400").hasMessageContaining("message authentication failed");
    assertThat(vault.paths()).as("asked of the KEK's own key, not the one the ciphertext came from")
        .containsExactly("POST /v1/transit/decrypt/orders");
    assertThatThrownBy(() -> orders.decrypt(new byte[] {1, 2, 3}))
        .isExactlyInstanceOf(GeneralSecurityException.class).hasMessageContaining("not wrapped by Vault")
        .hasMessageContaining(keyUrl("transit/orders"));
  }

  @Test
  void throttled_or_sealed_isTemporary_thenRecovers() throws Exception {
    KmsClient client = client("transit/orders", "token.id", TOKEN);
    byte[] wrapped = client.encrypt(DEK);

    vault.throttle(1, 429);
    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("HTTP 429").hasMessageContaining("rate limit quota exceeded");
    vault.throttle(1, 503);
    assertThatThrownBy(() -> client.decrypt(wrapped)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("HTTP 503");

    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
  }

  @Test
  void aProxysBare404_isTemporary() {
    server.setDispatcher(new mockwebserver3.Dispatcher() {
      @Override
      public mockwebserver3.MockResponse dispatch(mockwebserver3.RecordedRequest request) {
        return new mockwebserver3.MockResponse.Builder().code(404).body("<html>Not Found</html>").build();
      }
    });
    assertThatThrownBy(() -> client("transit/orders", "token.id", TOKEN).encrypt(DEK))
        .isInstanceOf(KmsUnavailableException.class).hasMessageContaining("not Vault's JSON");
  }

  /**
   * A standby node (or a proxy) redirects to the active node: temporary, naming where it points (scheme, host and
   * port only: not the user info nor the query of the Location), and never followed, for OkHttp would send the
   * X-Vault-Token header to the other host.
   */
  @Test
  void aRedirect_307or308_isTemporary_namesTheHostOnly_andIsNeverFollowed() throws Exception {
    VaultTransitDouble active = new VaultTransitDouble(TOKEN).key("transit", "orders");
    try (MockWebServer elsewhere = new MockWebServer()) {
      elsewhere.setDispatcher(active);
      elsewhere.start();
      okhttp3.HttpUrl location = elsewhere.url("/v1/transit/encrypt/orders").newBuilder().username("admin")
          .password("hunter2").addQueryParameter("token", "hvs.QUERY-SECRET").build();
      String host = elsewhere.url("/").host() + ":" + elsewhere.getPort();
      for (int status : new int[] {307, 308}) {
        server.setDispatcher(new mockwebserver3.Dispatcher() {
          @Override
          public mockwebserver3.MockResponse dispatch(mockwebserver3.RecordedRequest request) {
            return new mockwebserver3.MockResponse.Builder().code(status).setHeader("Location", location.toString())
                .build();
          }
        });

        assertThatThrownBy(() -> client("transit/orders", "token.id", TOKEN).encrypt(DEK))
            .isInstanceOf(KmsUnavailableException.class).hasMessageContaining("HTTP " + status)
            .hasMessageContaining(keyUrl("transit/orders")).hasMessageContaining("http://" + host)
            .satisfies(e -> assertThat(e.getMessage()).doesNotContain("hunter2", "admin", "QUERY-SECRET", TOKEN));
      }
      assertThat(active.requests).as("the redirect was not followed: the token went nowhere else").isEmpty();
    }
  }

  @Test
  void noAnswer_isTemporary() throws Exception {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    KmsClient client = driver.newClient("hcvault://http://127.0.0.1:" + port + "/transit/keys/orders",
        Map.of("token.id", TOKEN));

    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("did not answer").hasMessageNotContaining(TOKEN);
  }

  @Test
  void appRole_logsInOnce_andAgainWhenTheTokenExpires() throws Exception {
    vault.appRole("role-1", "SECRET-ID-42");
    KmsClient client = client("transit/orders", "approle.role.id", "role-1", "approle.secret.id", "SECRET-ID-42");

    byte[] wrapped = client.encrypt(DEK);
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    assertThat(vault.logins()).isEqualTo(1);
    assertThat(vault.paths()).containsExactly("POST /v1/auth/approle/login", "POST /v1/transit/encrypt/orders",
        "POST /v1/transit/decrypt/orders");

    vault.revokeAllBut(TOKEN);
    assertThat(client.decrypt(wrapped)).isEqualTo(DEK);
    assertThat(vault.logins()).isEqualTo(2);
  }

  @Test
  void appRole_fromTheEnvironment_wrongSecret_isFinal_neverPrinted() {
    vault.appRole("role-1", "SECRET-ID-42");
    environment.put("VAULT_APPROLE_ROLE_ID", "role-1");
    environment.put("VAULT_APPROLE_SECRET_ID", "SECRET-ID-41");

    assertThatThrownBy(() -> client("transit/orders").encrypt(DEK))
        .isNotInstanceOf(KmsUnavailableException.class).hasMessageContaining("AppRole")
        .hasMessageContaining("invalid role or secret ID").hasMessageNotContaining("SECRET-ID");
  }

  @Test
  void alternates_areTriedInOrder_whenTheKeksOwnKeyFails() throws Exception {
    vault.key("transit", "backup");
    KmsClient backupOnly = client("transit/backup", "token.id", TOKEN);
    byte[] wrappedByBackup = backupOnly.encrypt(DEK);
    String alternates = keyUrl("transit/gone").substring("hcvault://".length()) + " , " + keyUrl("transit/backup");
    KmsClient client = client("transit/missing", "token.id", TOKEN, "encrypt.alternate.kms.key.ids", alternates);
    vault.requests.clear();

    try (LogCapture logs = new LogCapture()) {
      assertThat(client.decrypt(wrappedByBackup)).isEqualTo(DEK);
      assertThat(logs.lines()).isNotEmpty().allSatisfy(line -> assertThat(line).doesNotContain(TOKEN));
    }
    assertThat(vault.paths()).containsExactly("POST /v1/transit/decrypt/missing", "POST /v1/transit/decrypt/gone",
        "POST /v1/transit/decrypt/backup");
    assertThat(new String(client.encrypt(DEK), StandardCharsets.UTF_8)).startsWith("vault:v1:");
  }

  @Test
  void alternates_allFail_temporaryIfAnyWas_elseFinal() {
    String alternates = keyUrl("transit/backup");
    KmsClient client = client("transit/missing", "token.id", TOKEN, "encrypt.alternate.kms.key.ids", alternates);

    assertThatThrownBy(() -> client.encrypt(DEK)).isNotInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("none of the 2 Vault keys").hasMessageContaining("encryption key not found");
    vault.throttle(1, 429);
    assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class)
        .hasMessageContaining("HTTP 429");
  }

  /** Vault served over TLS with a certificate of a private CA; the CA in a JKS trust store. */
  private Path serveTlsWithAPrivateCa() throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(ca).addSubjectAlternativeName("localhost")
        .commonName("localhost").build();
    server.useHttps(new HandshakeCertificates.Builder().heldCertificate(cert).build().sslSocketFactory());
    KeyStore trust = KeyStore.getInstance("JKS");
    trust.load(null, null);
    trust.setCertificateEntry("vault-ca", ca.certificate());
    Path store = dir.resolve("truststore.jks");
    try (OutputStream out = Files.newOutputStream(store)) {
      trust.store(out, "changeit".toCharArray());
    }
    return store;
  }

  @Test
  void tls_trustStoreSetting_andDefaultTrustRefusesAPrivateCa() throws Exception {
    Path store = serveTlsWithAPrivateCa();

    KmsClient trusting = client("transit/orders", "token.id", TOKEN, "ssl.truststore.location", store.toString());
    assertThat(trusting.decrypt(trusting.encrypt(DEK))).isEqualTo(DEK);

    assertThatThrownBy(() -> client("transit/orders", "token.id", TOKEN).encrypt(DEK))
        .isInstanceOf(KmsUnavailableException.class).hasMessageContaining("SSLHandshakeException");
    assertThatThrownBy(() -> client("transit/orders", "token.id", TOKEN, "ssl.truststore.location",
        dir.resolve("nope.jks").toString())).isExactlyInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("ssl.truststore.location");
  }

  /** Without ssl.* settings the JVM's default trust applies, as a user points every client at a private CA. */
  @Test
  void tls_theJvmsTrustStoreProperty_isHonoured() throws Exception {
    Path store = serveTlsWithAPrivateCa();
    String before = System.getProperty("javax.net.ssl.trustStore");
    System.setProperty("javax.net.ssl.trustStore", store.toString());
    try {
      KmsClient client = new HcVaultKmsDriver(environment::get).newClient(keyUrl("transit/orders"),
          Map.of("token.id", TOKEN));
      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
    } finally {
      if (before == null) {
        System.clearProperty("javax.net.ssl.trustStore");
      } else {
        System.setProperty("javax.net.ssl.trustStore", before);
      }
    }
  }

  @Test
  void credentials_toString_namesTheKindOnly() {
    VaultCredentials token = VaultCredentials.of(Map.of("token.id", TOKEN, "namespace", "ns1"), name -> null,
        VaultKey.parse("hcvault://http://v:1/transit/keys/k"));
    VaultCredentials appRole = VaultCredentials.of(Map.of("approle.role.id", "r", "approle.secret.id", "SECRET-ID"),
        name -> null, VaultKey.parse("hcvault://http://v:1/transit/keys/k"));

    assertThat(List.of(token.toString(), appRole.toString(), driver.toString()))
        .noneMatch(text -> text.contains(TOKEN) || text.contains("SECRET-ID"));
    assertThat(token).hasToString("Vault credentials (token, namespace ns1)");
  }

  @Test
  void keysOfOneSettings_shareOneHttpClient_itsConnectionsClosedWithTheLastClient() throws Exception {
    vault.key("transit", "spare");
    KmsClient orders = client("transit/orders", "token.id", TOKEN);
    KmsClient spare = client("transit/spare", "token.id", TOKEN);
    KmsClient otherToken = client("transit/orders", "token.id", "hvs.other");
    okhttp3.ConnectionPool pool = ((VaultTransitClient) orders).http().connectionPool();

    assertThat(orders.decrypt(orders.encrypt(DEK))).isEqualTo(DEK);
    assertThat(spare.decrypt(spare.encrypt(DEK))).isEqualTo(DEK);
    assertThat(((VaultTransitClient) spare).http()).isSameAs(((VaultTransitClient) orders).http());
    assertThat(driver.openHttpClients()).as("one per settings").isEqualTo(2);
    assertThat(pool.connectionCount()).as("kept alive").isEqualTo(1);

    orders.close();
    orders.close(); // a second close releases nothing more
    assertThat(pool.connectionCount()).isEqualTo(1);
    assertThat(spare.decrypt(spare.encrypt(DEK))).as("the shared client still works").isEqualTo(DEK);
    spare.close();
    assertThat(pool.connectionCount()).as("closed with the last client").isZero();
    assertThat(driver.openHttpClients()).isEqualTo(1);
    otherToken.close();
    assertThat(driver.openHttpClients()).isZero();
  }

  @Test
  void alternateThatCannotBeMade_theClientsMadeSoFarAreReleased() {
    assertThatThrownBy(() -> client("transit/orders", "token.id", TOKEN, HcVaultKmsDriver.ALTERNATE_KEY_IDS,
        "not a key")).isInstanceOf(RuleException.class);

    assertThat(driver.openHttpClients()).isZero();
  }
}
