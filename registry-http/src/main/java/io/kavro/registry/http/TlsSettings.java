package io.kavro.registry.http;

import io.kavro.registry.RegistryConfig;
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
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/** Applies {@code schema.registry.ssl.*} to an OkHttp client: trust, client keys and hostname checks. */
final class TlsSettings {
  private TlsSettings() {}

  static void apply(RegistryConfig config, OkHttpClient.Builder builder) {
    String truststore = config.getString(RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG);
    String keystore = config.getString(RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG);
    if (truststore != null || keystore != null) {
      try {
        X509TrustManager trust = trustManager(truststore == null ? null : load(truststore,
            config.getString(RegistryConfig.SSL_TRUSTSTORE_TYPE_CONFIG),
            config.getPassword(RegistryConfig.SSL_TRUSTSTORE_PASSWORD_CONFIG),
            RegistryConfig.SSL_TRUSTSTORE_LOCATION_CONFIG));
        KeyManager[] keys = null;
        if (keystore != null) {
          Password storePassword = config.getPassword(RegistryConfig.SSL_KEYSTORE_PASSWORD_CONFIG);
          Password keyPassword = config.getPassword(RegistryConfig.SSL_KEY_PASSWORD_CONFIG);
          KeyStore store = load(keystore, config.getString(RegistryConfig.SSL_KEYSTORE_TYPE_CONFIG), storePassword,
              RegistryConfig.SSL_KEYSTORE_LOCATION_CONFIG);
          KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
          factory.init(store, chars(keyPassword != null ? keyPassword : storePassword));
          keys = factory.getKeyManagers();
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, new TrustManager[] {trust}, null);
        builder.sslSocketFactory(context.getSocketFactory(), trust);
      } catch (GeneralSecurityException e) {
        throw new ConfigException("cannot set up TLS for the schema registry: " + e.getMessage());
      }
    }
    if (!config.verifyHostname()) {
      builder.hostnameVerifier((host, session) -> true);
    }
  }

  private static KeyStore load(String location, String type, Password password, String key)
      throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(type);
    try (InputStream in = Files.newInputStream(Path.of(location))) {
      store.load(in, chars(password));
      return store;
    } catch (IOException e) {
      // The message of a wrong password is "keystore password was incorrect": no secret in it.
      throw new ConfigException(key, location, "cannot read " + type + " store: " + e.getMessage());
    }
  }

  private static X509TrustManager trustManager(KeyStore store) throws GeneralSecurityException {
    TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return Arrays.stream(factory.getTrustManagers())
        .filter(X509TrustManager.class::isInstance)
        .map(X509TrustManager.class::cast)
        .findFirst()
        .orElseThrow(() -> new ConfigException("no X509 trust manager available"));
  }

  private static char[] chars(Password password) {
    return password == null ? null : password.value().toCharArray();
  }
}
