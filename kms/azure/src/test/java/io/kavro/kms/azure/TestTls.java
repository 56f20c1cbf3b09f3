package io.kavro.kms.azure;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import okhttp3.tls.HandshakeCertificates;
import okhttp3.tls.HeldCertificate;

/**
 * The test's TLS: a CA, a server certificate for the double's host names, and the JVM's trust store set to that CA
 * ({@code javax.net.ssl.trustStore}, read when the JVM's default SSL context is first made), so that the Azure SDK
 * reaches the double the way it reaches a private endpoint: through the JVM's standard settings.
 */
final class TestTls {
  static final HeldCertificate CA = new HeldCertificate.Builder().certificateAuthority(0)
      .commonName("Kavro test CA").build();
  static final HeldCertificate SERVER = new HeldCertificate.Builder().signedBy(CA).commonName("kavro test")
      .addSubjectAlternativeName("kavro.vault.azure.net").addSubjectAlternativeName("other.vault.azure.net")
      .addSubjectAlternativeName("proxied.vault.azure.net") // in no hosts file: reached through a proxy only
      .addSubjectAlternativeName("login.microsoftonline.com").addSubjectAlternativeName("localhost").build();
  static final HandshakeCertificates SERVER_CERTIFICATES = new HandshakeCertificates.Builder()
      .heldCertificate(SERVER, CA.certificate()).build();

  /** The CA's certificate as a PEM file, for a client that is not a JVM (Node's {@code NODE_EXTRA_CA_CERTS}). */
  static final Path CA_PEM;

  static {
    try {
      CA_PEM = Files.createTempFile("kavro-azure-ca", ".pem");
      CA_PEM.toFile().deleteOnExit();
      Files.writeString(CA_PEM, CA.certificatePem());
      KeyStore trust = KeyStore.getInstance("PKCS12");
      trust.load(null, null);
      trust.setCertificateEntry("kavro-test-ca", CA.certificate());
      Path file = Files.createTempFile("kavro-azure-truststore", ".p12");
      file.toFile().deleteOnExit();
      try (OutputStream out = Files.newOutputStream(file)) {
        trust.store(out, "changeit".toCharArray());
      }
      System.setProperty("javax.net.ssl.trustStore", file.toString());
      System.setProperty("javax.net.ssl.trustStorePassword", "changeit");
      System.setProperty("javax.net.ssl.trustStoreType", "PKCS12");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private TestTls() {}
}
