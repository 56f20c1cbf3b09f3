package io.kavro.kms.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.rules.encryption.KmsClient;
import java.security.GeneralSecurityException;
import java.util.Map;
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

  @Test
  void endpointBehindTheJvmsProxy() throws Exception {
    server.setDispatcher(kms);
    String[] names = {"http.proxyHost", "http.proxyPort", "http.nonProxyHosts"};
    String[] saved = new String[names.length];
    for (int i = 0; i < names.length; i++) {
      saved[i] = System.getProperty(names[i]);
    }
    System.setProperty("http.proxyHost", server.getHostName());
    System.setProperty("http.proxyPort", Integer.toString(server.getPort()));
    System.setProperty("http.nonProxyHosts", "nothing.invalid");
    try {
      KmsClient client = new GcpKmsDriver().newClient("gcp-kms://" + KEY, account.settings("",
          "http://oauth2.private.invalid/token", "http://cloudkms.private.invalid"));
      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);
    } finally {
      for (int i = 0; i < names.length; i++) {
        if (saved[i] == null) {
          System.clearProperty(names[i]);
        } else {
          System.setProperty(names[i], saved[i]);
        }
      }
    }
    assertThat(kms.requests).hasSize(2).allMatch(r -> "cloudkms.private.invalid".equals(r.host()));
    assertThat(kms.tokensIssued()).isEqualTo(1);
  }
}
