package io.kavro.kms.gcp;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;

/**
 * A Google service account for the tests: a fresh RSA key pair, and the settings that name it with Confluent's
 * names ({@code client.id}, {@code client.email}, {@code private.key.id}, {@code private.key}, the PEM with its
 * newlines written as {@code \n}, as Confluent's users write it).
 */
record ServiceAccount(String email, KeyPair keys) {
  static ServiceAccount create(String email) {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return new ServiceAccount(email, generator.generateKeyPair());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The private key's base64 body, as a PEM holds it on one line: what must never appear in text. */
  String privateKeyBase64() {
    return Base64.getEncoder().encodeToString(keys.getPrivate().getEncoded());
  }

  /** PKCS#8 PEM, newlines escaped as {@code \n} (two characters). */
  String privateKeyPem() {
    String body = String.join("\\n", privateKeyBase64().split("(?<=\\G.{64})"));
    return "-----BEGIN PRIVATE KEY-----\\n" + body + "\\n-----END PRIVATE KEY-----\\n";
  }

  /** The settings, under {@code prefix} (e.g. {@code rule.executors._default_.param.}). */
  Map<String, Object> settings(String prefix, String tokenUri, String endpoint) {
    Map<String, Object> settings = new HashMap<>();
    settings.put(prefix + "client.id", "1234567890");
    settings.put(prefix + "client.email", email);
    settings.put(prefix + "private.key.id", "k-0001");
    settings.put(prefix + "private.key", privateKeyPem());
    settings.put(prefix + "gcp.token.uri", tokenUri);
    settings.put(prefix + "gcp.kms.endpoint", endpoint);
    return settings;
  }
}
