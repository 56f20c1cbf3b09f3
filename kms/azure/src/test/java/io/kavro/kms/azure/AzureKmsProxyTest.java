package io.kavro.kms.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SystemProperties;
import io.kavro.registry.TunnelProxy;
import io.kavro.rules.encryption.KmsClient;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.junit.jupiter.api.Test;

/**
 * The azure-kms driver behind a corporate proxy, set up the JVM's way ({@code https.proxyHost},
 * {@code https.proxyPort}, nothing of azure-core's own): Key Vault ({@code proxied.vault.azure.net}, a name no
 * hosts file here resolves) and Entra ID are asked of the proxy, which tunnels them to the double, whose
 * certificate the JVM's trust store ({@code javax.net.ssl.trustStore}, {@link TestTls}) trusts. The properties are
 * set after the driver's HTTP client is made, so what is tested is the JDK's default {@link java.net.ProxySelector},
 * which that client uses when azure-core found no proxy setting at its making (set at the JVM's start, azure-core
 * reads them then and fixes them in the client).
 */
class AzureKmsProxyTest {
  private static final String SECRET = "Xq8~kavro-Cl1ent-S3cret.value";
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  static {
    TestTls.CA.certificate(); // the JVM's trust store, before any TLS
  }

  @StartStop
  final MockWebServer server = new MockWebServer();

  @Test
  void keyVaultAndEntraId_goThroughTheJvmsHttpsProxy() throws Exception {
    KeyVaultDouble vault = new KeyVaultDouble(SECRET).serveOn(server);
    String version = vault.addVersion("kek");
    // The driver's one HTTP client for the process, made before the proxy is set, as by any earlier test in this
    // JVM: azure-core finds no proxy setting then, so the JDK's default ProxySelector decides each request, and the
    // tests after this one, the proxy gone, reach the double directly.
    KeyVaultTransport.http();
    try (TunnelProxy proxy = TunnelProxy.routingTo(new InetSocketAddress(server.getHostName(), server.getPort()));
         SystemProperties jvm = new SystemProperties().httpsProxy(proxy)) {
      KmsClient client = new AzureKmsDriver().newClient("azure-kms://" + vault.keyUrl("proxied", "kek") + "/"
          + version, Map.of("tenant.id", KeyVaultDouble.TENANT, "client.id", KeyVaultDouble.CLIENT,
          "client.secret", SECRET));

      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);

      assertThat(proxy.tunnels()).as("the proxy's log").contains("proxied.vault.azure.net:" + server.getPort(),
          "login.microsoftonline.com:" + server.getPort());
      assertThat(vault.requests()).contains("POST proxied.vault.azure.net /keys/kek/" + version + "/encrypt",
          "POST proxied.vault.azure.net /keys/kek/" + version + "/decrypt");
    }
  }
}
