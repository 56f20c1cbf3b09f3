package io.kavro.registry.internal.http;

import io.kavro.registry.RegistryConfig;
import io.kavro.registry.RegistryConfigException;
import io.kavro.registry.Secret;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;

/** Applies {@code schema.registry.ssl.*} to an OkHttp client: trust, client keys and hostname checks. */
final class TlsSettings {
  private TlsSettings() {}

  static void apply(RegistryConfig.Tls tls, OkHttpClient.Builder builder) {
    if (tls.truststoreLocation() != null || tls.keystoreLocation() != null) {
      try {
        X509TrustManager trust = trustManager(tls.truststoreLocation() == null ? null : load(
            tls.truststoreLocation(), tls.truststoreType(), tls.truststorePassword(),
            RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG));
        KeyManager[] keys = null;
        if (tls.keystoreLocation() != null) {
          KeyStore store = load(tls.keystoreLocation(), tls.keystoreType(), tls.keystorePassword(),
              RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG);
          KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
          factory.init(store, chars(tls.keyPassword() != null ? tls.keyPassword() : tls.keystorePassword()));
          keys = factory.getKeyManagers();
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, new TrustManager[] {trust}, null);
        builder.sslSocketFactory(context.getSocketFactory(), trust);
      } catch (GeneralSecurityException e) {
        throw new RegistryConfigException(RegistryConfig.SSL_PREFIX + "*",
            "cannot set up TLS for the schema registry: " + e.getMessage());
      }
    }
    if (!tls.verifyHostname()) {
      builder.hostnameVerifier((host, session) -> true);
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
