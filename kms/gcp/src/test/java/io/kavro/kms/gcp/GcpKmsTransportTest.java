package io.kavro.kms.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsUnavailableException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
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
   * The JVM's proxy settings apply: the token request goes to {@code https.proxyHost} as a CONNECT to the token
   * endpoint (plain http is refused but to the loopback, which the JDK never proxies, so the tunnel is what shows
   * the proxy in use). The proxy refuses the tunnel: a temporary failure.
   */
  @Test
  void endpointBehindTheJvmsProxy() throws Exception {
    String[] names = {"https.proxyHost", "https.proxyPort", "http.nonProxyHosts"};
    String[] saved = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      saved[i] = System.getProperty(names[i]);
    }
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
      System.setProperty("https.proxyHost", "127.0.0.1");
      System.setProperty("https.proxyPort", Integer.toString(proxy.getLocalPort()));
      System.setProperty("http.nonProxyHosts", "nothing.invalid");
      KmsClient client = new GcpKmsDriver().newClient("gcp-kms://" + KEY, account.settings("",
          "https://oauth2.private.invalid/token", "https://cloudkms.private.invalid"));
      assertThatThrownBy(() -> client.encrypt(DEK)).isInstanceOf(KmsUnavailableException.class);
      assertThat(requestLine.get(10, TimeUnit.SECONDS)).startsWith("CONNECT oauth2.private.invalid:443 ");
    } finally {
      for (int i = 0; i < names.length; i++) {
        if (saved[i] == null) {
          System.clearProperty(names[i]);
        } else {
          System.setProperty(names[i], saved[i]);
        }
      }
    }
  }

}
