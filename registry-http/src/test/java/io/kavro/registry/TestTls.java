package io.kavro.registry;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Map;
import okhttp3.tls.HeldCertificate;

/** TLS test helpers shared by the registry client's tests and the end-to-end tests (via the test-jar). */
public final class TestTls {
  /** The password of every truststore written here. */
  public static final String PASSWORD = "changeit";

  private TestTls() {}

  /** Writes a PKCS12 truststore that trusts {@code ca} into a new file in {@code dir}. */
  public static Path truststore(HeldCertificate ca, Path dir) throws Exception {
    KeyStore store = KeyStore.getInstance("PKCS12");
    store.load(null, null);
    store.setCertificateEntry("ca", ca.certificate());
    Path file = Files.createTempFile(dir, "trust", ".p12");
    try (OutputStream out = Files.newOutputStream(file)) {
      store.store(out, PASSWORD.toCharArray());
    }
    return file;
  }

  /** The client settings that trust the truststore at {@code truststore}. */
  public static Map<String, Object> trustSettings(Path truststore) {
    return Map.of("schema.registry.ssl.truststore.location", truststore.toString(),
        "schema.registry.ssl.truststore.password", PASSWORD,
        "schema.registry.ssl.truststore.type", "PKCS12");
  }
}
