package io.kavro.kms.hcvault;

import io.kavro.rules.encryption.KmsSettings;
import io.kavro.serde.rules.RuleDeploymentException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;

/**
 * The TLS settings of Confluent's Vault driver: {@code ssl.keystore.location} and {@code ssl.keystore.password} (the
 * client's certificate, for Vault's cert auth or mutual TLS) and {@code ssl.truststore.location} (the CAs to trust,
 * read without a password, as Confluent's driver reads it, unless {@code ssl.truststore.password} is set), each a
 * JKS or PKCS12 file. Without a trust store the
 * JVM's default trust applies ({@code javax.net.ssl.trustStore} honoured). A password may be a Kafka
 * {@code Password}. Applied to an OkHttp client.
 */
final class VaultTls {
  static final String KEYSTORE_LOCATION = "ssl.keystore.location";
  static final String KEYSTORE_PASSWORD = "ssl.keystore.password";
  static final String TRUSTSTORE_LOCATION = "ssl.truststore.location";
  /** Not Confluent's: for a trust store that needs one (PKCS12); Confluent's driver reads it without. */
  static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";

  private VaultTls() {}

  /**
   * The client with the settings' trust and key stores, or {@code client} itself when none is set.
   *
   * @throws RuleDeploymentException when a store cannot be read, naming the setting and the file (never the password)
   */
  static OkHttpClient apply(OkHttpClient client, Map<String, ?> configs) {
    String keyStore = KmsSettings.text(configs.get(KEYSTORE_LOCATION));
    String trustStore = KmsSettings.text(configs.get(TRUSTSTORE_LOCATION));
    if (keyStore == null && trustStore == null) {
      return client;
    }
    char[] secret = chars(configs.get(KEYSTORE_PASSWORD));
    char[] trustSecret = chars(configs.get(TRUSTSTORE_PASSWORD));
    try {
      TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(trustStore == null ? null : load(trustStore, trustSecret, TRUSTSTORE_LOCATION));
      X509TrustManager trustManager = x509(trust.getTrustManagers());
      javax.net.ssl.KeyManager[] keyManagers = null;
      if (keyStore != null) {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(load(keyStore, secret, KEYSTORE_LOCATION), secret);
        keyManagers = keys.getKeyManagers();
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keyManagers, new TrustManager[] {trustManager}, null);
      return client.newBuilder().sslSocketFactory(context.getSocketFactory(), trustManager).build();
    } catch (GeneralSecurityException e) {
      throw new RuleDeploymentException("cannot set up TLS to Vault with "
          + (keyStore != null ? KEYSTORE_LOCATION + " '" + keyStore + "'" : "")
          + (keyStore != null && trustStore != null ? " and " : "")
          + (trustStore != null ? TRUSTSTORE_LOCATION + " '" + trustStore + "'" : "") + ": " + e.getMessage(), e);
    } finally {
      for (char[] chars : new char[][] {secret, trustSecret}) {
        if (chars != null) {
          java.util.Arrays.fill(chars, '\0');
        }
      }
    }
  }

  private static KeyStore load(String location, char[] password, String setting) throws GeneralSecurityException {
    try (InputStream in = Files.newInputStream(Path.of(location))) {
      KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType()); // PKCS12, which reads JKS too
      store.load(in, password);
      return store;
    } catch (IOException e) {
      throw new RuleDeploymentException("cannot read the " + setting + " '" + location + "' for Vault (a wrong path or "
          + (password != null ? "password" : "format") + "?): " + e.getMessage(), e);
    }
  }

  private static X509TrustManager x509(TrustManager[] managers) {
    for (TrustManager manager : managers) {
      if (manager instanceof X509TrustManager x509) {
        return x509;
      }
    }
    throw new RuleDeploymentException("the JVM has no X.509 trust manager for Vault's TLS");
  }

  private static char[] chars(Object value) {
    String text = KmsSettings.text(value);
    return text == null ? null : text.toCharArray();
  }
}
