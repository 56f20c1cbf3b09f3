package io.kavro.registry.internal.auth;

import io.kavro.registry.config.RegistryConfig;
import io.kavro.registry.config.RegistryConfigException;
import io.kavro.registry.config.Secret;
import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.EncryptedPrivateKeyInfo;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Key stores made from PEM text, as Kafka's {@code ssl.*.type=PEM} makes them: X.509 certificates, and a
 * PKCS#8 private key, plain ({@code BEGIN PRIVATE KEY}) or encrypted ({@code BEGIN ENCRYPTED PRIVATE KEY},
 * with {@code ssl.key.password}). Messages never show the key.
 */
final class PemKeys {
  private static final Pattern CERTIFICATE =
      Pattern.compile("-----BEGIN CERTIFICATE-----(.*?)-----END CERTIFICATE-----", Pattern.DOTALL);
  private static final Pattern KEY =
      Pattern.compile("-----BEGIN (ENCRYPTED )?PRIVATE KEY-----(.*?)-----END (ENCRYPTED )?PRIVATE KEY-----",
          Pattern.DOTALL);
  private static final String PBES2_OID = "1.2.840.113549.1.5.13";
  private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "DSA", "Ed25519", "Ed448"};

  private PemKeys() {}

  /** A trust store of every certificate in {@code pem}. */
  static KeyStore trustStore(String pem, String key) throws GeneralSecurityException {
    List<Certificate> certificates = certificates(pem, key);
    KeyStore store = emptyStore();
    for (int i = 0; i < certificates.size(); i++) {
      store.setCertificateEntry("kavro-ca-" + i, certificates.get(i));
    }
    return store;
  }

  /** A key store of the private key in {@code keyPem} with the certificate chain in {@code chainPem}. */
  static KeyStore keyStore(String keyPem, String chainPem, Secret keyPassword, char[] storePassword)
      throws GeneralSecurityException {
    PrivateKey key = privateKey(keyPem, keyPassword);
    List<Certificate> chain = certificates(chainPem, RegistryConfig.SSL_KEYSTORE_CERTIFICATE_CHAIN_CONFIG);
    KeyStore store = emptyStore();
    store.setKeyEntry("kavro-client", key, storePassword, chain.toArray(Certificate[]::new));
    return store;
  }

  private static List<Certificate> certificates(String pem, String key) throws GeneralSecurityException {
    CertificateFactory factory = CertificateFactory.getInstance("X.509");
    List<Certificate> certificates = new ArrayList<>();
    Matcher matcher = CERTIFICATE.matcher(pem);
    while (matcher.find()) {
      certificates.add(factory.generateCertificate(new ByteArrayInputStream(base64(matcher.group(1), key))));
    }
    if (certificates.isEmpty()) {
      throw new RegistryConfigException(key, "Invalid value for configuration " + key
          + ": no PEM certificate (-----BEGIN CERTIFICATE-----) in it");
    }
    return certificates;
  }

  private static PrivateKey privateKey(String pem, Secret password) throws GeneralSecurityException {
    String key = RegistryConfig.SSL_KEYSTORE_KEY_CONFIG;
    Matcher matcher = KEY.matcher(pem);
    if (!matcher.find()) {
      throw new RegistryConfigException(key, "Invalid value [hidden] for configuration " + key
          + ": no PKCS#8 PEM private key (-----BEGIN PRIVATE KEY----- or -----BEGIN ENCRYPTED PRIVATE KEY-----) "
          + "in it");
    }
    byte[] der = base64(matcher.group(2), key);
    PKCS8EncodedKeySpec spec;
    if (matcher.group(1) != null) {
      if (password == null) {
        throw new RegistryConfigException(RegistryConfig.SSL_KEY_PASSWORD_CONFIG, "The PEM private key is "
            + "encrypted: set " + RegistryConfig.SSL_KEY_PASSWORD_CONFIG);
      }
      EncryptedPrivateKeyInfo info;
      try {
        info = new EncryptedPrivateKeyInfo(der);
        String algorithm = info.getAlgName();
        if (algorithm.equalsIgnoreCase("PBES2") || algorithm.equals(PBES2_OID)) {
          // openssl's default: the parameters name the real scheme, e.g. PBEWithHmacSHA256AndAES_256.
          algorithm = info.getAlgParameters().toString();
        }
        SecretKeyFactory factory = SecretKeyFactory.getInstance(algorithm);
        Key pbe = factory.generateSecret(new PBEKeySpec(password.value().toCharArray()));
        Cipher cipher = Cipher.getInstance(algorithm);
        cipher.init(Cipher.DECRYPT_MODE, pbe, info.getAlgParameters());
        spec = info.getKeySpec(cipher);
      } catch (java.io.IOException | GeneralSecurityException e) {
        throw new RegistryConfigException(RegistryConfig.SSL_KEY_PASSWORD_CONFIG, "Cannot decrypt the PEM "
            + "private key of " + key + " (wrong " + RegistryConfig.SSL_KEY_PASSWORD_CONFIG
            + ", or an unsupported cipher): " + e.getClass().getSimpleName());
      }
    } else {
      spec = new PKCS8EncodedKeySpec(der);
    }
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // not this algorithm
      }
    }
    throw new RegistryConfigException(key, "Invalid value [hidden] for configuration " + key
        + ": not an RSA, EC, DSA or EdDSA private key");
  }

  private static byte[] base64(String body, String key) {
    try {
      return Base64.getMimeDecoder().decode(body.trim());
    } catch (IllegalArgumentException e) {
      throw new RegistryConfigException(key, "Invalid value for configuration " + key + ": corrupt PEM base64");
    }
  }

  private static KeyStore emptyStore() throws GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try {
      store.load(null, null);
    } catch (java.io.IOException e) {
      throw new GeneralSecurityException(e);
    }
    return store;
  }
}
