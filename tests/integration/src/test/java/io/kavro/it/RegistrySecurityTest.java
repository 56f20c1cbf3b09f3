package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kavro.registry.LogCapture;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.TestTls;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RetriableSerdeException;
import io.kavro.serde.UnknownSchemaIdException;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** TLS in front of the real registry, and credentials kept out of logs and exceptions, end to end. */
@ExtendWith(KavroStackExtension.class)
class RegistrySecurityTest {
  private static final String SECRET = "pa55-w0rd-never-logged";
  private static final HeldCertificate CA = new HeldCertificate.Builder().certificateAuthority(0).build();

  private final TestStack stack;

  @TempDir
  Path dir;

  RegistrySecurityTest(TestStack stack) {
    this.stack = stack;
  }

  /** A TLS-terminating proxy in front of the registry whose certificate names {@code host}. */
  private FaultyProxy tlsProxy(String host) throws Exception {
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(CA).addSubjectAlternativeName(host).build();
    HandshakeCertificates server = new HandshakeCertificates.Builder().heldCertificate(cert, CA.certificate()).build();
    java.net.URI uri = java.net.URI.create(stack.registryUrl());
    return new FaultyProxy(uri.getHost(), uri.getPort(), server.sslContext().getServerSocketFactory());
  }

  @Test
  void pemTrustAndMutualTls_endToEnd_throughATlsProxyThatNeedsAClientCertificate() throws Exception {
    HeldCertificate clientCa = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate client = new HeldCertificate.Builder().signedBy(clientCa).commonName("kavro-app").build();
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(CA).addSubjectAlternativeName("127.0.0.1").build();
    HandshakeCertificates server = new HandshakeCertificates.Builder().heldCertificate(cert, CA.certificate())
        .addTrustedCertificate(clientCa.certificate()).build();
    java.net.URI uri = java.net.URI.create(stack.registryUrl());
    try (FaultyProxy proxy = new FaultyProxy(uri.getHost(), uri.getPort(),
        server.sslContext().getServerSocketFactory(), true)) {
      Map<String, Object> config = new HashMap<>();
      config.put("schema.registry.url", proxy.via(stack.registryUrl()));
      config.put("max.retries", 0);
      config.put("schema.registry.ssl.truststore.type", "PEM");
      config.put("schema.registry.ssl.truststore.certificates", CA.certificatePem());

      try (KafkaAvroSerializer withoutKey = serializer(config)) {
        assertThatThrownBy(() -> withoutKey.serialize("tls-mutual", RegistryOutageTest.event(1)))
            .isInstanceOf(RetriableSerdeException.class);
      }

      config.put("schema.registry.ssl.keystore.type", "PEM");
      config.put("schema.registry.ssl.keystore.key", client.privateKeyPkcs8Pem());
      config.put("schema.registry.ssl.keystore.certificate.chain", client.certificatePem());
      try (KafkaAvroSerializer serializer = serializer(config);
          KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
        deserializer.configure(config, false);
        byte[] bytes = serializer.serialize("tls-mutual", RegistryOutageTest.event(7));
        assertThat(deserializer.deserialize("tls-mutual", bytes)).hasToString(RegistryOutageTest.event(7).toString());
      }
    }
  }

  private Map<String, Object> tlsConfig(String url, HeldCertificate trusted) throws Exception {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", url);
    config.putAll(TestTls.trustSettings(TestTls.truststore(trusted, dir)));
    config.put("max.retries", 0);
    return config;
  }

  private static KafkaAvroSerializer serializer(Map<String, Object> config) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    return serializer;
  }

  @Test
  void trustedCertificate_worksOverTls() throws Exception {
    try (FaultyProxy proxy = tlsProxy("127.0.0.1");
        KafkaAvroSerializer serializer = serializer(tlsConfig(proxy.via(stack.registryUrl()), CA))) {
      byte[] bytes = serializer.serialize("tls-ok", RegistryOutageTest.event(1));

      assertThat(bytes[0]).isZero();
    }
  }

  @Test
  void untrustedCertificate_fails() throws Exception {
    HeldCertificate otherCa = new HeldCertificate.Builder().certificateAuthority(0).build();
    try (FaultyProxy proxy = tlsProxy("127.0.0.1");
        KafkaAvroSerializer serializer = serializer(tlsConfig(proxy.via(stack.registryUrl()), otherCa))) {
      assertThatThrownBy(() -> serializer.serialize("tls-untrusted", RegistryOutageTest.event(1)))
          .isInstanceOf(RetriableSerdeException.class)
          .hasCauseInstanceOf(RegistryUnavailableException.class)
          .hasMessageContaining("SSLHandshakeException");
    }
  }

  @Test
  void hostnameMismatch_failsByDefault_passesOnlyWhenTurnedOff() throws Exception {
    try (FaultyProxy proxy = tlsProxy("registry.example.com")) {
      Map<String, Object> config = tlsConfig(proxy.via(stack.registryUrl()), CA);
      try (KafkaAvroSerializer serializer = serializer(config)) {
        assertThatThrownBy(() -> serializer.serialize("tls-mismatch", RegistryOutageTest.event(1)))
            .isInstanceOf(RetriableSerdeException.class)
          .hasCauseInstanceOf(RegistryUnavailableException.class)
            .hasMessageContaining("SSLPeerUnverifiedException");
      }
      config.put("schema.registry.ssl.endpoint.identification.algorithm", "");
      try (KafkaAvroSerializer serializer = serializer(config)) {
        assertThat(serializer.serialize("tls-mismatch", RegistryOutageTest.event(1))).isNotNull();
      }
    }
  }

  @Test
  void credentials_neverInLogsOrExceptions() throws Exception {
    try (LogCapture logs = new LogCapture(); FaultyProxy proxy = FaultyProxy.in(stack.registryUrl())) {
      String url = proxy.via(stack.registryUrl()).replace("http://", "http://alice:" + SECRET + "@");
      Map<String, Object> config = Map.of("schema.registry.url", url, "max.retries", 1, "retries.wait.ms", 10,
          "retries.max.wait.ms", 10, "bearer.auth.token", SECRET + "-token");
      // The unavailable case: a port that nothing listens on (a proxy switched to refusing could race).
      int closedPort;
      try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
        closedPort = probe.getLocalPort();
      }
      Map<String, Object> down = new java.util.HashMap<>(config);
      down.put("schema.registry.url", "http://alice:" + SECRET + "@127.0.0.1:" + closedPort + "/apis/ccompat/v7");
      List<Throwable> failures = new java.util.ArrayList<>();
      try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
          KafkaAvroSerializer serializer = serializer(down)) {
        deserializer.configure(config, false);
        failures.add(catchThrowable(() -> deserializer.deserialize("creds", new byte[] {0, 0x7f, 0, 0, 1, 2})));
        failures.add(catchThrowable(() -> serializer.serialize("creds", RegistryOutageTest.event(1))));
      }

      assertThat(failures.get(0)).isInstanceOf(UnknownSchemaIdException.class);
      assertThat(failures.get(1)).isInstanceOf(RetriableSerdeException.class)
          .hasCauseInstanceOf(RegistryUnavailableException.class);
      for (Throwable failure : failures) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
          assertThat(t.toString()).doesNotContain(SECRET).doesNotContain("alice:");
        }
      }
      assertThat(logs.lines()).isNotEmpty().noneMatch(line -> line.contains(SECRET));
    }
  }
}
