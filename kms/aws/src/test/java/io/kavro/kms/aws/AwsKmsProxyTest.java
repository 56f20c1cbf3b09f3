package io.kavro.kms.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SystemProperties;
import io.kavro.registry.TestTls;
import io.kavro.registry.TunnelProxy;
import io.kavro.rules.encryption.KmsClient;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import okhttp3.tls.HeldCertificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The aws-kms driver behind a corporate proxy, set up the JVM's way ({@code https.proxyHost},
 * {@code https.proxyPort}) with no endpoint override: the SDK asks the proxy for AWS's own regional endpoint, which
 * nothing here resolves, and the proxy tunnels it to the KMS double, whose certificate (for that host name, from a
 * private CA) the JVM's trust store ({@code javax.net.ssl.trustStore}) trusts.
 */
class AwsKmsProxyTest {
  private static final byte[] DEK = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

  @Test
  void kmsCalls_goThroughTheJvmsHttpsProxy_toAwsRegionalEndpoint_trustedByTheJvmsTrustStore(@TempDir Path dir)
      throws Exception {
    HeldCertificate ca = new HeldCertificate.Builder().certificateAuthority(0).build();
    HeldCertificate certificate = new HeldCertificate.Builder().signedBy(ca)
        .addSubjectAlternativeName("kms.eu-west-1.amazonaws.com").build();
    try (AwsKmsDouble kms = AwsKmsDouble.startTls(certificate)
            .credentials(AwsKmsDriverTest.ACCESS_KEY_ID, AwsKmsDriverTest.SECRET);
         TunnelProxy proxy = TunnelProxy.routingTo(address(kms.url()));
         SystemProperties jvm = new SystemProperties()) {
      String arn = kms.createKey("eu-west-1", "behind-the-proxy");
      jvm.clear("aws.endpointUrlKms").clear("aws.endpointUrl").httpsProxy(proxy)
          .set("javax.net.ssl.trustStore", TestTls.truststore(ca, dir).toString())
          .set("javax.net.ssl.trustStorePassword", TestTls.PASSWORD)
          .set("javax.net.ssl.trustStoreType", "PKCS12");
      KmsClient client = new AwsKmsDriver(name -> null).newClient("aws-kms://" + arn, Map.of(
          "access.key.id", AwsKmsDriverTest.ACCESS_KEY_ID, "secret.access.key", AwsKmsDriverTest.SECRET));

      assertThat(client.decrypt(client.encrypt(DEK))).isEqualTo(DEK);

      assertThat(proxy.tunnels()).as("the proxy's log").isNotEmpty()
          .containsOnly("kms.eu-west-1.amazonaws.com:443");
      assertThat(kms.requests()).extracting(AwsKmsDouble.Request::target, AwsKmsDouble.Request::status)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("Encrypt", 200),
              org.assertj.core.groups.Tuple.tuple("Decrypt", 200));
    }
  }

  private static InetSocketAddress address(String url) {
    URI uri = URI.create(url);
    return new InetSocketAddress(uri.getHost(), uri.getPort());
  }
}
