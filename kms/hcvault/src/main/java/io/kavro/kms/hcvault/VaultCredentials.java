package io.kavro.kms.hcvault;

import io.kavro.rules.encryption.KmsSettings;
import io.kavro.serde.rules.RuleDeploymentException;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * How the driver signs in to Vault, read once, in the order of Confluent's Java driver, an AppRole going by pairs:
 * the settings' AppRole ({@code approle.role.id} and {@code approle.secret.id}), else the environment's
 * ({@code VAULT_APPROLE_ROLE_ID} and {@code VAULT_APPROLE_SECRET_ID}), else the settings' token ({@code token.id}),
 * else {@code VAULT_TOKEN}; an AppRole wins over a token, as in Confluent's driver. Half a pair is an error naming the
 * missing half, never mixed with the other source's half. And the Enterprise namespace ({@code namespace}, else
 * {@code VAULT_NAMESPACE}) or none. A Kafka {@code Password} gives its value. Immutable; its {@link #toString} shows
 * which kind, never a secret.
 *
 * @param token the token, or null with an AppRole
 * @param roleId the AppRole's role id, or null with a token
 * @param secretId the AppRole's secret id, or null with a token
 * @param namespace the namespace, or null
 */
record VaultCredentials(String token, String roleId, String secretId, String namespace) {
  static final String TOKEN_ID = "token.id";
  static final String NAMESPACE = "namespace";
  static final String APPROLE_ROLE_ID = "approle.role.id";
  static final String APPROLE_SECRET_ID = "approle.secret.id";
  static final String TOKEN_ENV = "VAULT_TOKEN";
  static final String NAMESPACE_ENV = "VAULT_NAMESPACE";
  static final String ROLE_ID_ENV = "VAULT_APPROLE_ROLE_ID";
  static final String SECRET_ID_ENV = "VAULT_APPROLE_SECRET_ID";

  /**
   * The credentials of the settings, else of the environment.
   *
   * @throws RuleDeploymentException when there is neither a token nor an AppRole, or half an AppRole, naming the
   *     settings or variables (never a value)
   */
  static VaultCredentials of(Map<String, ?> configs, UnaryOperator<String> environment, VaultKey key) {
    String namespace = or(KmsSettings.text(configs.get(NAMESPACE)), KmsSettings.text(environment.apply(NAMESPACE_ENV)));
    String roleId = KmsSettings.text(configs.get(APPROLE_ROLE_ID));
    String secretId = KmsSettings.text(configs.get(APPROLE_SECRET_ID));
    String source = "settings";
    if (roleId == null && secretId == null) {
      roleId = KmsSettings.text(environment.apply(ROLE_ID_ENV));
      secretId = KmsSettings.text(environment.apply(SECRET_ID_ENV));
      source = "environment variables";
    }
    if (roleId != null && secretId != null) {
      return new VaultCredentials(null, roleId, secretId, namespace);
    }
    if (roleId != null || secretId != null) {
      boolean settings = source.equals("settings");
      String missing = roleId == null ? (settings ? APPROLE_ROLE_ID : ROLE_ID_ENV)
          : (settings ? APPROLE_SECRET_ID : SECRET_ID_ENV);
      String given = roleId != null ? (settings ? APPROLE_ROLE_ID : ROLE_ID_ENV)
          : (settings ? APPROLE_SECRET_ID : SECRET_ID_ENV);
      throw new RuleDeploymentException("the Vault key " + key + " has half an AppRole in its " + source + ": " + given
          + " is set but " + missing + " is not; set both, or neither (a token: " + TOKEN_ID + " or " + TOKEN_ENV
          + ")");
    }
    String token = or(KmsSettings.text(configs.get(TOKEN_ID)), KmsSettings.text(environment.apply(TOKEN_ENV)));
    if (token == null) {
      throw new RuleDeploymentException("the Vault key " + key + " has no credentials: set " + TOKEN_ID
          + " (in the serde's settings, e.g. rule.executors._default_.param." + TOKEN_ID + ", or the KEK's kmsProps) "
          + "or the environment variable " + TOKEN_ENV + ", or an AppRole: " + APPROLE_ROLE_ID + " and "
          + APPROLE_SECRET_ID);
    }
    return new VaultCredentials(token, null, null, namespace);
  }

  /** Whether the token comes from an AppRole login. */
  boolean appRole() {
    return roleId != null;
  }

  private static String or(String value, String otherwise) {
    return value != null ? value : otherwise;
  }

  /** The kind of credentials and the namespace, never a secret. */
  @Override
  public String toString() {
    return "Vault credentials (" + (appRole() ? "AppRole" : "token") + (namespace != null ? ", namespace "
        + namespace : "") + ")";
  }
}
