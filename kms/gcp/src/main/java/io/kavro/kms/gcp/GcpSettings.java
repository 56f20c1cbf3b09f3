package io.kavro.kms.gcp;

import io.kavro.rules.encryption.KmsSettings;
import io.kavro.serde.rules.RuleDeploymentException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The settings of one {@code gcp-kms} KEK, parsed once, from the executor's settings with the KEK's
 * {@code kmsProps} over them. Confluent's names: {@code account.type}, {@code client.id}, {@code client.email},
 * {@code private.key.id} and {@code private.key}; Kavro's own, which a KEK may not set
 * ({@link GcpKmsDriver#executorOnlySettings()}) and which must be https unless to the loopback:
 * {@code gcp.kms.endpoint} and {@code gcp.token.uri}. Immutable; its {@code toString} holds no secret.
 *
 * @param endpoint the root URL of the Cloud KMS REST API, ending with {@code /}
 * @param serviceAccount the service account of the settings, or {@code null} for application default credentials
 */
record GcpSettings(String endpoint, ServiceAccount serviceAccount) {
  /** Confluent's setting: the credential's type; only {@code service_account} is supported, its default. */
  static final String ACCOUNT_TYPE = "account.type";
  /** Confluent's setting: the service account's OAuth client id. */
  static final String CLIENT_ID = "client.id";
  /** Confluent's setting: the service account's e-mail. */
  static final String CLIENT_EMAIL = "client.email";
  /** Confluent's setting: the id of the service account's private key. */
  static final String PRIVATE_KEY_ID = "private.key.id";
  /** Confluent's setting: the service account's private key, PKCS#8 PEM (newlines as is or as {@code \n}). */
  static final String PRIVATE_KEY = "private.key";
  /** Kavro's setting: the Cloud KMS endpoint (a private or regional endpoint, a proxy). */
  static final String ENDPOINT = "gcp.kms.endpoint";
  /** Kavro's setting: the OAuth token endpoint of the service account (its {@code token_uri}). */
  static final String TOKEN_URI = "gcp.token.uri";

  static final String DEFAULT_ENDPOINT = "https://cloudkms.googleapis.com/";
  static final String SERVICE_ACCOUNT = "service_account";

  /**
   * The settings of a KEK.
   *
   * @throws RuleDeploymentException when a setting is wrong or only some of the service account's are set, naming the
   *     setting, never a secret's value
   */
  static GcpSettings parse(String kekUrl, Map<String, ?> configs) {
    return new GcpSettings(endpoint(kekUrl, configs), serviceAccount(kekUrl, configs));
  }

  private static String endpoint(String kekUrl, Map<String, ?> configs) {
    String endpoint = KmsSettings.text(configs, ENDPOINT);
    if (endpoint == null) {
      return DEFAULT_ENDPOINT;
    }
    if (!endpoint.contains("://")) {
      endpoint = "https://" + endpoint;
    }
    secure(kekUrl, ENDPOINT, uri(kekUrl, ENDPOINT, endpoint), "https://cloudkms.googleapis.com/");
    return endpoint.endsWith("/") ? endpoint : endpoint + "/";
  }

  /**
   * Checks that a URL that credentials or tokens are sent to is https, or http to the loopback only (a local
   * proxy or a test double).
   */
  private static URI secure(String kekUrl, String setting, URI uri, String example) {
    String scheme = uri.getScheme();
    boolean https = "https".equalsIgnoreCase(scheme);
    if (uri.getHost() == null || !https && !("http".equalsIgnoreCase(scheme) && isLoopback(uri.getHost()))) {
      throw new RuleDeploymentException("the setting " + setting + " of " + kekUrl + " is '" + uri
          + "', not an https URL such as " + example + " (http only to localhost or 127.0.0.1)");
    }
    return uri;
  }

  private static boolean isLoopback(String host) {
    return host.equalsIgnoreCase("localhost") || host.matches("127(\\.\\d{1,3}){3}") || host.equals("[::1]");
  }

  private static ServiceAccount serviceAccount(String kekUrl, Map<String, ?> configs) {
    String email = KmsSettings.text(configs, CLIENT_EMAIL);
    String keyId = KmsSettings.text(configs, PRIVATE_KEY_ID);
    String key = KmsSettings.text(configs, PRIVATE_KEY);
    if (email == null && keyId == null && key == null) {
      return null; // client.id alone may be a Kafka client's: Confluent's driver then uses the default credentials
    }
    String clientId = KmsSettings.text(configs, CLIENT_ID);
    List<String> missing = new ArrayList<>();
    for (String[] setting : new String[][] {{CLIENT_ID, clientId}, {CLIENT_EMAIL, email},
        {PRIVATE_KEY_ID, keyId}, {PRIVATE_KEY, key}}) {
      if (setting[1] == null) {
        missing.add(setting[0]);
      }
    }
    if (!missing.isEmpty()) {
      throw new RuleDeploymentException("the Google service account of " + kekUrl + " lacks the settings " + missing
          + ": set all of " + List.of(CLIENT_ID, CLIENT_EMAIL, PRIVATE_KEY_ID, PRIVATE_KEY)
          + ", or none for the application default credentials");
    }
    String type = KmsSettings.text(configs, ACCOUNT_TYPE);
    if (type != null && !SERVICE_ACCOUNT.equals(type)) {
      throw new RuleDeploymentException("the setting " + ACCOUNT_TYPE + " of " + kekUrl + " is '" + type + "'; with "
          + CLIENT_EMAIL + " and " + PRIVATE_KEY + " only '" + SERVICE_ACCOUNT + "' is supported");
    }
    String tokenUri = KmsSettings.text(configs, TOKEN_URI);
    return new ServiceAccount(clientId, email, keyId, key.replace("\\n", "\n"),
        tokenUri == null ? null : secure(kekUrl, TOKEN_URI, uri(kekUrl, TOKEN_URI, tokenUri),
            "https://oauth2.googleapis.com/token"));
  }

  private static URI uri(String kekUrl, String setting, String value) {
    try {
      return new URI(value);
    } catch (URISyntaxException e) {
      throw new RuleDeploymentException("the setting " + setting + " of " + kekUrl + " is '" + value + "', not a URL");
    }
  }

  /**
   * A Google service account, as Confluent's settings give it.
   *
   * @param privateKey PKCS#8 PEM, a secret: never printed
   * @param tokenUri the OAuth token endpoint, or {@code null} for Google's
   */
  record ServiceAccount(String clientId, String clientEmail, String privateKeyId, String privateKey, URI tokenUri) {
    /** The account's e-mail and key id, never the key. */
    @Override
    public String toString() {
      return "service account " + clientEmail + " (key " + privateKeyId + ")";
    }
  }

  /** The endpoint and the account's e-mail (or the default credentials); no secret. */
  @Override
  public String toString() {
    return "Cloud KMS settings (endpoint " + endpoint + ", " + (serviceAccount == null ? "application default "
        + "credentials" : serviceAccount) + ")";
  }
}
