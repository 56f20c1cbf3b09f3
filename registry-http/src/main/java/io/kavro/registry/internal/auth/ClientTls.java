package io.kavro.registry.internal.auth;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryConfigException;
import io.kavro.registry.config.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import okhttp3.TlsVersion;

/**
 * Configures an OkHttp client with {@code schema.registry.ssl.*}: trust (a JKS or PKCS12 store, or PEM
 * certificates), client keys for mutual TLS (a store, or a PEM key and certificate chain), protocol versions,
 * cipher suites and hostname checks, with the meaning of Kafka's own {@code ssl.*} keys.
 */
public final class ClientTls {
  private ClientTls() {}

  public static void configure(RegistryConfig.Tls tls, OkHttpClient.Builder builder) {
    try {
      if (tls.hasStores() || !tls.protocol().equals(RegistryConfig.Tls.DEFAULT.protocol())) {
        X509TrustManager trust = trustManager(trustStore(tls));
        KeyManager[] keys = null;
        KeyStore keyStore = keyStore(tls);
        if (keyStore != null) {
          KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
          factory.init(keyStore, keyPassword(tls));
          keys = factory.getKeyManagers();
        }
        SSLContext context = SSLContext.getInstance(tls.protocol());
        context.init(keys, new TrustManager[] {trust}, null);
        builder.sslSocketFactory(context.getSocketFactory(), trust);
      }
    } catch (GeneralSecurityException e) {
      throw new RegistryConfigException(RegistryConfig.SSL_PREFIX + "*",
          "cannot set up TLS for the schema registry: " + e.getMessage());
    }
    ConnectionSpec.Builder spec = new ConnectionSpec.Builder(ConnectionSpec.MODERN_TLS)
        .tlsVersions(tls.enabledProtocols().stream().map(ClientTls::version).toArray(TlsVersion[]::new));
    if (tls.cipherSuites().isEmpty()) {
      spec.allEnabledCipherSuites();
    } else {
      spec.cipherSuites(tls.cipherSuites().toArray(String[]::new));
    }
    builder.connectionSpecs(List.of(spec.build(), ConnectionSpec.CLEARTEXT));
    if (!tls.verifyHostname()) {
      builder.hostnameVerifier((host, session) -> true);
    }
  }

  private static TlsVersion version(String name) {
    try {
      return TlsVersion.forJavaName(name.trim());
    } catch (IllegalArgumentException e) {
      throw new RegistryConfigException(RegistryConfig.SSL_ENABLED_PROTOCOLS_CONFIG, "Invalid value " + name
          + " for configuration " + RegistryConfig.SSL_ENABLED_PROTOCOLS_CONFIG + ": not a TLS version");
    }
  }

  /** The configured trust, or {@code null} for the JDK's. */
  private static KeyStore trustStore(RegistryConfig.Tls tls) throws GeneralSecurityException {
    if (tls.truststoreType().equals("PEM")) {
      String pem = tls.truststoreCertificates() != null ? tls.truststoreCertificates()
          : tls.truststoreLocation() != null ? read(tls.truststoreLocation(), RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG)
          : null;
      return pem == null ? null : PemKeys.trustStore(pem, RegistryConfig.SSL_TRUSTSTORE_CERTIFICATES_CONFIG);
    }
    return tls.truststoreLocation() == null ? null : load(tls.truststoreLocation(), tls.truststoreType(),
        tls.truststorePassword(), RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG);
  }

  /** The client's key and certificate chain, or {@code null} for none. */
  private static KeyStore keyStore(RegistryConfig.Tls tls) throws GeneralSecurityException {
    if (tls.keystoreType().equals("PEM")) {
      if (tls.keystoreKey() != null) {
        return PemKeys.keyStore(tls.keystoreKey().value(), tls.keystoreCertificateChain(), tls.keyPassword(),
            keyPassword(tls));
      }
      if (tls.keystoreLocation() != null) {
        String pem = read(tls.keystoreLocation(), RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG);
        return PemKeys.keyStore(pem, pem, tls.keyPassword(), keyPassword(tls));
      }
      return null;
    }
    return tls.keystoreLocation() == null ? null : load(tls.keystoreLocation(), tls.keystoreType(),
        tls.keystorePassword(), RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG);
  }

  /** The password that protects the key in the key store: the key's, else the store's, else none. */
  private static char[] keyPassword(RegistryConfig.Tls tls) {
    char[] password = chars(tls.keyPassword() != null ? tls.keyPassword() : tls.keystorePassword());
    return password != null ? password : new char[0];
  }

  private static String read(String location, String key) {
    try {
      return Files.readString(Path.of(location));
    } catch (IOException e) {
      throw new RegistryConfigException(key, "Invalid value " + location + " for configuration " + key
          + ": cannot read the PEM file: " + e.getMessage());
    }
  }

  private static KeyStore load(String location, String type, Secret password, String key)
      throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type);
    try (InputStream in = Files.newInputStream(Path.of(location))) {
      store.load(in, chars(password));
      return store;
    } catch (IOException e) {
      // The message of a wrong password is "keystore password was incorrect": no secret in it.
      throw new RegistryConfigException(key, "Invalid value " + location + " for configuration " + key
          + ": cannot read " + type + " store: " + e.getMessage());
    }
  }

  private static X509TrustManager trustManager(KeyStore store) throws GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return Arrays.stream(factory.getTrustManagers())
        .filter(X509TrustManager.class::isInstance)
        .map(X509TrustManager.class::cast)
        .findFirst()
        .orElseThrow(() -> new RegistryConfigException(RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG,
            "no X509 trust manager available"));
  }

  private static char[] chars(Secret password) {
    return password == null ? null : password.value().toCharArray();
  }
}
