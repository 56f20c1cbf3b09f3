package io.kavro.registry.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.RegistryAccessDeniedException;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.TestTls;
import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryConfigException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Basic and bearer auth headers, TLS trust and hostname checks, and credentials kept out of messages. */
class SecurityTest {
  private static final String SCHEMA = "{\"schema\":\"\\\"string\\\"\"}";
  private static final String SECRET = "s3cr3t-p4ss";

  @StartStop
  final MockWebServer server = new MockWebServer();

  @TempDir
  Path dir;

  private HttpSchemaRegistryClient client(String url, Map<String, Object> extra) {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", url);
    config.put("max.retries", 0);
    config.putAll(extra);
    return new HttpSchemaRegistryClient(RegistryConfig.from(config));
  }

  private void ok() {
    server.enqueue(new MockResponse.Builder().body(SCHEMA).build());
  }

  private static String basic(String userInfo) {
    return "Basic " + Base64.getEncoder().encodeToString(userInfo.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void basicAuth_fromUrlUserInfo() throws Exception {
    ok();
    String url = server.url("/").newBuilder().username("alice").password(SECRET).build().toString();

    client(url, Map.of()).schemaById(1);

    var request = server.takeRequest();
    assertThat(request.getHeaders().get("Authorization")).isEqualTo(basic("alice:" + SECRET));
    assertThat(request.getUrl().username()).isEmpty();
  }

  @Test
  void basicAuth_fromUserInfoConfig() throws Exception {
    ok();

    client(server.url("/").toString(), Map.of("basic.auth.credentials.source", "USER_INFO",
        "basic.auth.user.info", "bob:" + SECRET)).schemaById(1);

    assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo(basic("bob:" + SECRET));
  }

  @Test
  void basicAuth_userInfoSourceWithoutUserInfo_configError() {
    assertThatThrownBy(() -> client(server.url("/").toString(), Map.of("basic.auth.credentials.source", "USER_INFO")))
        .isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("basic.auth.user.info");
  }

  @Test
  void bearerAuth_staticToken() throws Exception {
    ok();

    client(server.url("/").toString(), Map.of("bearer.auth.credentials.source", "STATIC_TOKEN",
        "bearer.auth.token", SECRET)).schemaById(1);

    assertThat(server.takeRequest().getHeaders().get("Authorization")).isEqualTo("Bearer " + SECRET);
  }

  @Test
  void noAuth_noHeader() throws Exception {
    ok();

    client(server.url("/").toString(), Map.of()).schemaById(1);

    assertThat(server.takeRequest().getHeaders().get("Authorization")).isNull();
  }

  @Test
  void tls_trustedCertificate_connects() throws Exception {
    Path truststore = serveTls("localhost");
    ok();

    HttpSchemaRegistryClient client = client(server.url("/").toString(), TestTls.trustSettings(truststore));

    assertThat(client.schemaById(1)).isNotNull();
  }

  @Test
  void tls_hostnameMismatch_failsByDefault() throws Exception {
    Path truststore = serveTls("registry.example.com");
    ok();

    HttpSchemaRegistryClient client = client(server.url("/").toString(), TestTls.trustSettings(truststore));

    assertThatThrownBy(() -> client.schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("SSLPeerUnverifiedException");
  }

  @Test
  void tls_hostnameMismatch_passesWhenVerificationOff() throws Exception {
    Path truststore = serveTls("registry.example.com");
    ok();
    Map<String, Object> config = new HashMap<>(TestTls.trustSettings(truststore));
    config.put("schema.registry.ssl.endpoint.identification.algorithm", "");

    assertThat(client(server.url("/").toString(), config).schemaById(1)).isNotNull();
  }

  /**
   * Issue 22, item 11: turning off hostname checks for the registry (a self-signed registry) leaves them on for
   * the OAuth issuer, which receives the client secret.
   */
  @Test
  void tls_hostnameChecksOffForTheRegistry_stayOnForTheOAuthIssuer() throws Exception {
    Path truststore = serveTls("registry.example.com");
    Map<String, Object> config = new HashMap<>(TestTls.trustSettings(truststore));
    config.put("schema.registry.ssl.endpoint.identification.algorithm", "");
    config.put("bearer.auth.credentials.source", "OAUTHBEARER");
    config.put("bearer.auth.issuer.endpoint.url", server.url("/token").toString());
    config.put("bearer.auth.client.id", "kavro-app");
    config.put("bearer.auth.client.secret", "s3cret");

    assertThatThrownBy(() -> client(server.url("/").toString(), config).schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("cannot get an OAuth token").hasMessageContaining("SSLPeerUnverifiedException");
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void tls_untrustedCertificate_fails() throws Exception {
    serveTls("localhost");
    ok();
    Path otherTruststore = truststore(new HeldCertificate.Builder().certificateAuthority(0).build());

    HttpSchemaRegistryClient client = client(server.url("/").toString(), TestTls.trustSettings(otherTruststore));

    assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("SSLHandshakeException");
  }

  @Test
  void mutualTls_clientCertificateFromKeystore() throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate serverCert = new HeldCertificate.Builder().signedBy(ca).addSubjectAlternativeName("localhost")
        .build();
    HeldCertificate clientCert = new HeldCertificate.Builder().signedBy(ca).commonName("kavro-client").build();
    server.useHttps(new HandshakeCertificates.Builder().heldCertificate(serverCert)
        .addTrustedCertificate(ca.certificate()).build().sslSocketFactory());
    server.requireClientAuth();
    ok();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    keys.load(null, null);
    keys.setKeyEntry("client", clientCert.keyPair().getPrivate(), "keypass".toCharArray(),
        new java.security.cert.Certificate[] {clientCert.certificate(), ca.certificate()});
    Path keystore = Files.createTempFile(dir, "keys", ".p12");
    try (OutputStream out = Files.newOutputStream(keystore)) {
      keys.store(out, "keypass".toCharArray());
    }
    Map<String, Object> config = new HashMap<>(TestTls.trustSettings(truststore(ca)));
    config.put("schema.registry.ssl.keystore.location", keystore.toString());
    config.put("schema.registry.ssl.keystore.password", "keypass");
    config.put("schema.registry.ssl.keystore.type", "PKCS12");

    assertThat(client(server.url("/").toString(), config).schemaById(1)).isNotNull();
    assertThat(server.takeRequest().getHandshake().peerPrincipal().getName()).contains("kavro-client");
  }

  @Test
  void mutualTls_withoutClientCertificate_fails() throws Exception {
    Path truststore = serveTls("localhost");
    server.requireClientAuth();
    ok();

    assertThatThrownBy(() -> client(server.url("/").toString(), TestTls.trustSettings(truststore)).schemaById(1))
        .isInstanceOf(RegistryUnavailableException.class);
  }

  @Test
  void tls_wrongTruststorePassword_configErrorWithoutSecret() throws Exception {
    Path truststore = serveTls("localhost");
    Map<String, Object> config = new HashMap<>(TestTls.trustSettings(truststore));
    config.put("schema.registry.ssl.truststore.password", SECRET);

    assertThatThrownBy(() -> client(server.url("/").toString(), config))
        .isInstanceOf(RegistryConfigException.class)
        .hasMessageContaining("schema.registry.ssl.truststore.location")
        .hasMessageNotContaining(SECRET);
  }

  @Test
  void credentials_neverInExceptionsOrLogs() throws Exception {
    try (LogCapture logs = new LogCapture()) {
      server.enqueue(new MockResponse.Builder().code(503).body("{\"error_code\":50301,\"message\":\"down\"}").build());
      // 401, then 401 again to the request the client repeats once with a fresh bearer token.
      server.enqueue(new MockResponse.Builder().code(401).body("{\"error_code\":401,\"message\":\"who?\"}").build());
      server.enqueue(new MockResponse.Builder().code(401).body("{\"error_code\":401,\"message\":\"who?\"}").build());
      String url = server.url("/").newBuilder().username("alice").password(SECRET).build().toString();
      // A short read timeout: the second call finds no answer queued and fails on it, as a hung registry would.
      Map<String, Object> config = Map.of("schema.registry.url", url, "max.retries", 1, "retries.wait.ms", 1,
          "retries.max.wait.ms", 1, "bearer.auth.token", SECRET + "-token", "http.read.timeout.ms", 300);
      SchemaRegistryClient client = SchemaRegistryClients.create(config);

      Throwable denied = org.assertj.core.api.Assertions.catchThrowable(() -> client.schemaById(1));
      Throwable timedOut = org.assertj.core.api.Assertions.catchThrowable(() -> client.schemaById(2));
      Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
          () -> SchemaRegistryClients.create(Map.of("schema.registry.url", "ftp://alice:" + SECRET + "@host")));

      assertThat(denied).isInstanceOf(RegistryAccessDeniedException.class);
      assertThat(timedOut).isInstanceOf(RegistryUnavailableException.class);
      assertThat(refused).isInstanceOf(RegistryConfigException.class);
      for (Throwable thrown : List.of(denied, timedOut)) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
          assertThat(t.toString()).doesNotContain(SECRET);
        }
        assertThat(((SchemaRegistryException) thrown).url()).doesNotContain("alice");
      }
      assertThat(refused.getMessage()).doesNotContain(SECRET);
      assertThat(RegistryConfig.from(config).toString()).doesNotContain(SECRET);
      assertThat(logs.lines()).isNotEmpty().noneMatch(line -> line.contains(SECRET));
    }
  }

  /** Issue 13, item 16: a registry on https:// that redirects to http:// is not followed there. */
  @Test
  void httpsRedirectToHttp_notFollowed_credentialsStayOnTls() throws Exception {
    Path truststore = serveTls("localhost");
    try (MockWebServer plain = new MockWebServer()) {
      plain.start();
      plain.enqueue(new MockResponse.Builder().body(SCHEMA).build());
      server.enqueue(new MockResponse.Builder().code(302)
          .setHeader("Location", plain.url("/schemas/ids/1").toString()).build());
      Map<String, Object> config = new HashMap<>(TestTls.trustSettings(truststore));
      config.put("basic.auth.credentials.source", "USER_INFO");
      config.put("basic.auth.user.info", "alice:" + SECRET);

      HttpSchemaRegistryClient client = client(server.url("/").toString(), config);

      assertThatThrownBy(() -> client.schemaById(1)).isInstanceOf(SchemaRegistryException.class);
      assertThat(plain.getRequestCount()).isZero();
    }
  }

  /** Issue 13, item 16: credentials for a plain http:// URL are sent, with a warning that names the URL only. */
  @Test
  void credentialsOverPlainHttp_warned() {
    try (LogCapture logs = new LogCapture()) {
      String url = server.url("/").newBuilder().username("alice").password(SECRET).build().toString();
      client(url, Map.of());
      client(server.url("/without-credentials/").toString(), Map.of());

      // One warning, for the client with credentials (the capture may see a line once per logger it hangs on).
      assertThat(logs.lines().stream().filter(line -> line.contains("over plain http://")).distinct())
          .hasSize(1).allMatch(line -> !line.contains(SECRET) && !line.contains("alice"));
    }
  }

  private Path serveTls(String hostName) throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(ca).addSubjectAlternativeName(hostName)
        .commonName(hostName).build();
    HandshakeCertificates serverCerts = new HandshakeCertificates.Builder().heldCertificate(cert).build();
    server.useHttps(serverCerts.sslSocketFactory());
    return truststore(ca);
  }

  private Path truststore(HeldCertificate ca) throws Exception {
    return TestTls.truststore(ca, dir);
  }
}
