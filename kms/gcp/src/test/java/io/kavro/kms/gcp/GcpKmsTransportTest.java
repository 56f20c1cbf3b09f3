package io.kavro.kms.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SystemProperties;
import io.kavro.registry.TunnelProxy;
import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLSocketFactory;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;

/**
 * The driver reaches Cloud KMS the way users reach a private endpoint: through the JVM's default TLS trust (what
 * {@code javax.net.ssl.trustStore} sets) and the JVM's proxy settings ({@code http(s).proxyHost}), not a trust
 * store of its own as Tink's transport does.
 */
class GcpKmsTransportTest {
  private static final String KEY = GcpKmsDriverTest.KEY;
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes();

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final ServiceAccount account = ServiceAccount.create("kavro@acme.iam.gserviceaccount.com");
  private final CloudKmsDouble kms = new CloudKmsDouble().account(account.email(), account.keys().getPublic())
      .key(KEY, account.email());

  @Test
  void privateEndpointOverTls_trustedThroughTheJvmsDefaultTrust() throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(ca).addSubjectAlternativeName("localhost")
        .addSubjectAlternativeName("127.0.0.1").addSubjectAlternativeName(server.getHostName()).build();
    server.useHttps(new HandshakeCertificates.Builder().heldCertificate(cert).build().sslSocketFactory());
    server.setDispatcher(kms);
    Map<String, Object> settings = account.settings("", server.url("/token").toString(), server.url("/").toString());
    assertThat(server.url("/").toString()).startsWith("https://");

    KmsClient untrusted = new GcpKmsDriver().newClient("gcp-kms://" + KEY, settings);
    assertThatThrownBy(() -> untrusted.encrypt(DEK)).isInstanceOf(GeneralSecurityException.class)
        .hasMessageContaining(KEY);

    SSLSocketFactory jvmDefault = HttpsURLConnection.getDefaultSSLSocketFactory();
    HttpsURLConnection.setDefaultSSLSocketFactory(new HandshakeCertificates.Builder()
        .addTrustedCertificate(ca.certificate()).build().sslSocketFactory());
    try {
      KmsClient client = new GcpKmsDriver().newClient("gcp-kms://" + KEY, settings);
      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
    } finally {
      HttpsURLConnection.setDefaultSSLSocketFactory(jvmDefault);
    }
  }

  /**
   * The JVM's proxy settings apply ({@code https.proxyHost}, {@code https.proxyPort}): the token endpoint and Cloud
   * KMS, by names nothing here resolves, are asked of the proxy as {@code CONNECT}s, which it tunnels to the double,
   * whose certificate the JVM's default trust (what {@code javax.net.ssl.trustStore} sets) trusts.
   */
  @Test
  void endpointBehindTheJvmsProxy_tunnelledToTheDouble() throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(ca)
        .addSubjectAlternativeName("cloudkms.private.invalid").addSubjectAlternativeName("oauth2.private.invalid")
        .build();
    server.useHttps(new HandshakeCertificates.Builder().heldCertificate(cert).build().sslSocketFactory());
    server.setDispatcher(kms);
    SSLSocketFactory jvmDefault = HttpsURLConnection.getDefaultSSLSocketFactory();
    try (TunnelProxy proxy = TunnelProxy.routingTo(new InetSocketAddress(server.getHostName(), server.getPort()));
         SystemProperties jvm = new SystemProperties().httpsProxy(proxy)) {
      HttpsURLConnection.setDefaultSSLSocketFactory(new HandshakeCertificates.Builder()
          .addTrustedCertificate(ca.certificate()).build().sslSocketFactory());
      KmsClient client = new GcpKmsDriver().newClient("gcp-kms://" + KEY, account.settings("",
          "https://oauth2.private.invalid/token", "https://cloudkms.private.invalid"));

      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);

      assertThat(proxy.tunnels()).as("the proxy's log").contains("oauth2.private.invalid:443",
          "cloudkms.private.invalid:443");
      assertThat(server.getRequestCount()).as("the double saw token, encrypt and decrypt").isGreaterThanOrEqualTo(3);
    } finally {
      HttpsURLConnection.setDefaultSSLSocketFactory(jvmDefault);
    }
  }

  /** A proxy that refuses the tunnel: a temporary failure, not a refusal of the key. */
  @Test
  void proxyRefusesTheTunnel_isTemporary() throws Exception {
    try (ServerSocket proxy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      CompletableFuture<String> requestLine = CompletableFuture.supplyAsync(() -> {
        try (Socket socket = proxy.accept()) {
          String line = new BufferedReader(new InputStreamReader(socket.getInputStream(),
              StandardCharsets.ISO_8859_1)).readLine();
          socket.getOutputStream().write("HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"
              .getBytes(StandardCharsets.ISO_8859_1));
          socket.getOutputStream().flush();
          return line;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      try (SystemProperties jvm = new SystemProperties().set("https.proxyHost", "127.0.0.1")
          .set("https.proxyPort", Integer.toString(proxy.getLocalPort()))) {
        KmsClient client = new GcpKmsDriver().newClient("gcp-kms://" + KEY, account.settings("",
            "https://oauth2.private.invalid/token", "https://cloudkms.private.invalid"));
        assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class);
        assertThat(requestLine.get(10, TimeUnit.SECONDS)).startsWith("CONNECT oauth2.private.invalid:443 ");
      }
    }
  }
}
