package io.kavro.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.config.RegistryConfigException;
import io.kavro.registry.factory.SchemaRegistryClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKey;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.PBEParameterSpec;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.junit5.StartStop;
import okhttp3.CipherSuite;
import okhttp3.TlsVersion;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code schema.registry.ssl.*} with Kafka's PEM keys ({@code truststore.type=PEM} with
 * {@code truststore.certificates} or a PEM file, {@code keystore.key} with {@code keystore.certificate.chain}),
 * mutual TLS, and the protocol and cipher suite keys, against a TLS server.
 */
class PemTlsTest {
  private static final String SCHEMA = "{\"schema\":\"\\\"string\\\"\"}";

  @StartStop
  final MockWebServer server = new MockWebServer();

  @TempDir
  Path dir;

  private final HeldCertificate serverCa = new HeldCertificate.Builder().certificateAuthority(0).build();
  private final HeldCertificate clientCa = new HeldCertificate.Builder().certificateAuthority(0).build();
  private final HeldCertificate clientCert = new HeldCertificate.Builder().signedBy(clientCa)
      .commonName("kavro-client").build();

  @BeforeEach
  void serveTls() {
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(serverCa).addSubjectAlternativeName("localhost")
        .commonName("localhost").build();
    HandshakeCertificates certs = new HandshakeCertificates.Builder().heldCertificate(cert)
        .addTrustedCertificate(clientCa.certificate()).build();
    server.useHttps(certs.sslSocketFactory());
  }

  private RecordedRequest fetch(Object... keyValues) throws Exception {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/").toString());
    config.put("max.retries", 0);
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    server.enqueue(new MockResponse.Builder().body(SCHEMA).build());
    try (SchemaRegistryClient client = SchemaRegistryClients.create(config)) {
      client.schemaById(1);
    }
    return server.takeRequest(5, TimeUnit.SECONDS);
  }

  @Test
  void pemTrust_inlineCertificates() throws Exception {
    RecordedRequest request = fetch("schema.registry.ssl.truststore.type", "PEM",
        "schema.registry.ssl.truststore.certificates", serverCa.certificatePem());

    assertThat(request.getHandshake()).isNotNull();
  }

  @Test
  void pemTrust_fromAPemFile() throws Exception {
    Path pem = Files.writeString(dir.resolve("ca.pem"), serverCa.certificatePem());

    assertThat(fetch("schema.registry.ssl.truststore.type", "PEM",
        "schema.registry.ssl.truststore.location", pem.toString()).getHandshake()).isNotNull();
  }

  @Test
  void pemTrust_otherCa_handshakeFails() {
    assertThatThrownBy(() -> fetch("schema.registry.ssl.truststore.type", "PEM",
        "schema.registry.ssl.truststore.certificates", clientCa.certificatePem()))
        .isInstanceOf(RegistryUnavailableException.class).hasMessageContaining("SSLHandshakeException");
  }

  @Test
  void mutualTls_pemKeyAndChain_serverSeesTheClientCertificate() throws Exception {
    server.requireClientAuth();

    RecordedRequest request = fetch("schema.registry.ssl.truststore.type", "PEM",
        "schema.registry.ssl.truststore.certificates", serverCa.certificatePem(),
        "schema.registry.ssl.keystore.type", "PEM",
        "schema.registry.ssl.keystore.key", clientCert.privateKeyPkcs8Pem(),
        "schema.registry.ssl.keystore.certificate.chain", clientCert.certificatePem() + clientCa.certificatePem());

    assertThat(request.getHandshake().peerPrincipal().getName()).contains("CN=kavro-client");
  }

  @Test
  void mutualTls_encryptedPemKey_withKeyPassword() throws Exception {
    server.requireClientAuth();
    String encrypted = encrypt(clientCert.keyPair().getPrivate().getEncoded(), "k3y-pass");

    RecordedRequest request = fetch("schema.registry.ssl.truststore.type", "PEM",
        "schema.registry.ssl.truststore.certificates", serverCa.certificatePem(),
        "schema.registry.ssl.keystore.type", "PEM",
        "schema.registry.ssl.keystore.key", encrypted,
        "schema.registry.ssl.keystore.certificate.chain", clientCert.certificatePem(),
        "schema.registry.ssl.key.password", "k3y-pass");

    assertThat(request.getHandshake().peerPrincipal().getName()).contains("CN=kavro-client");
    assertThatThrownBy(() -> fetch("schema.registry.ssl.truststore.type", "PEM",
        "schema.registry.ssl.truststore.certificates", serverCa.certificatePem(),
        "schema.registry.ssl.keystore.type", "PEM", "schema.registry.ssl.keystore.key", encrypted,
        "schema.registry.ssl.keystore.certificate.chain", clientCert.certificatePem(),
        "schema.registry.ssl.key.password", "n0t-the-pass"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("Cannot decrypt")
        .hasMessageNotContaining("n0t-the-pass").hasMessageNotContaining("PRIVATE KEY");
  }

  @Test
  void enabledProtocolsAndCipherSuites_areWhatTheHandshakeUses() throws Exception {
    RecordedRequest request = fetch("schema.registry.ssl.truststore.type", "PEM",
        "schema.registry.ssl.truststore.certificates", serverCa.certificatePem(),
        "schema.registry.ssl.protocol", "TLSv1.2",
        "schema.registry.ssl.enabled.protocols", "TLSv1.2",
        "schema.registry.ssl.cipher.suites", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");

    assertThat(request.getHandshake().tlsVersion()).isEqualTo(TlsVersion.TLS_1_2);
    assertThat(request.getHandshake().cipherSuite()).isEqualTo(CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256);
  }

  @Test
  void pemKeysNeedThePemType_andComeTogether() {
    assertThatThrownBy(() -> fetch("schema.registry.ssl.truststore.certificates", serverCa.certificatePem()))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("truststore.type=PEM");
    assertThatThrownBy(() -> fetch("schema.registry.ssl.keystore.type", "PEM",
        "schema.registry.ssl.keystore.key", clientCert.privateKeyPkcs8Pem()))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("must be set together");
    assertThatThrownBy(() -> fetch("schema.registry.ssl.enabled.protocols", "SSLv2"))
        .isInstanceOf(RegistryConfigException.class).hasMessageContaining("not a TLS version");
  }

  /** A PKCS#8 key encrypted with PBES2 (PBKDF2 with HMAC-SHA256, AES-256), as openssl pkcs8 -topk8 writes it. */
  private static String encrypt(byte[] pkcs8, String password) throws Exception {
    String algorithm = "PBEWithHmacSHA256AndAES_256";
    byte[] salt = new byte[16];
    byte[] iv = new byte[16];
    new SecureRandom().nextBytes(salt);
    new SecureRandom().nextBytes(iv);
    SecretKey key = SecretKeyFactory.getInstance(algorithm).generateSecret(new PBEKeySpec(password.toCharArray()));
    Cipher cipher = Cipher.getInstance(algorithm);
    cipher.init(Cipher.ENCRYPT_MODE, key, new PBEParameterSpec(salt, 10_000, new IvParameterSpec(iv)));
    byte[] encrypted = cipher.doFinal(pkcs8);
    // Named by its OID's name, PBES2, as a PEM file names it (the JDK cannot name PBEWithHmacSHA256AndAES_256).
    java.security.AlgorithmParameters pbes2 = java.security.AlgorithmParameters.getInstance("PBES2");
    pbes2.init(cipher.getParameters().getEncoded());
    EncryptedPrivateKeyInfo info = new EncryptedPrivateKeyInfo(pbes2, encrypted);
    return "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(info.getEncoded())
        + "\n-----END ENCRYPTED PRIVATE KEY-----\n";
  }
}
