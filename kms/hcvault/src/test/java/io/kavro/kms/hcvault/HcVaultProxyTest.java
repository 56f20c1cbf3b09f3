package io.kavro.kms.hcvault;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SystemProperties;
import io.kavro.registry.TestTls;
import io.kavro.registry.TunnelProxy;
import io.kavro.rules.encryption.KmsClient;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hcvault driver behind a corporate proxy, set up the JVM's way ({@code https.proxyHost},
 * {@code https.proxyPort}; OkHttp asks the JVM's default {@link java.net.ProxySelector}): Vault's address, a name
 * nothing here resolves, is asked of the proxy, which tunnels it to the double, whose certificate the JVM's trust
 * store ({@code javax.net.ssl.trustStore}, no {@code ssl.*} setting) trusts.
 */
class HcVaultProxyTest {
  private static final String TOKEN = "hvs.t0ken-SECRET-123";
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  @StartStop
  final MockWebServer server = new MockWebServer();

  @Test
  void transitCalls_goThroughTheJvmsHttpsProxy_trustedByTheJvmsTrustStore(@TempDir Path dir) throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate cert = new HeldCertificate.Builder().signedBy(ca)
        .addSubjectAlternativeName("vault.kavro.invalid").build();
    server.useHttps(new HandshakeCertificates.Builder().heldCertificate(cert).build().sslSocketFactory());
    VaultTransitDouble vault = new VaultTransitDouble(TOKEN).key("transit", "orders");
    server.setDispatcher(vault);
    try (TunnelProxy proxy = TunnelProxy.routingTo(new InetSocketAddress(server.getHostName(), server.getPort()));
         SystemProperties jvm = new SystemProperties().httpsProxy(proxy)
             .set("javax.net.ssl.trustStore", TestTls.truststore(ca, dir).toString())
             .set("javax.net.ssl.trustStorePassword", TestTls.PASSWORD)
             .set("javax.net.ssl.trustStoreType", "PKCS12")) {
      KmsClient client = new HcVaultKmsDriver(name -> null).newClient(
          "hcvault://https://vault.kavro.invalid:8200/transit/keys/orders", Map.of("token.id", TOKEN));

      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);

      assertThat(proxy.tunnels()).as("the proxy's log").isNotEmpty().containsOnly("vault.kavro.invalid:8200");
      assertThat(vault.paths()).containsExactly("POST /v1/transit/encrypt/orders",
          "POST /v1/transit/decrypt/orders");
    }
  }
}
