package io.kavro.kms.hcvault;

import io.kavro.serde.rules.RuleException;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * How the driver signs in to Vault, read once from the executor's settings, each with Confluent's name, else from
 * its environment variable: a token ({@code token.id}, {@code VAULT_TOKEN}), or an AppRole ({@code approle.role.id}
 * and {@code approle.secret.id}, {@code VAULT_APPROLE_ROLE_ID} and {@code VAULT_APPROLE_SECRET_ID}), which wins when
 * both are given, as in Confluent's drivers; and the Enterprise namespace ({@code namespace}, {@code VAULT_NAMESPACE})
 * or none. Immutable; its {@link #toString} shows which kind, never a secret.
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
   * @throws RuleException when there is neither a token nor a whole AppRole, naming the settings (never a value)
   */
  static VaultCredentials of(Map<String, ?> configs, UnaryOperator<String> environment, VaultKey key) {
    String roleId = setting(configs, APPROLE_ROLE_ID, environment, ROLE_ID_ENV);
    String secretId = setting(configs, APPROLE_SECRET_ID, environment, SECRET_ID_ENV);
    String namespace = setting(configs, NAMESPACE, environment, NAMESPACE_ENV);
    if ((roleId == null) != (secretId == null)) {
      throw new RuleException("the Vault key " + key + " has half an AppRole: set both " + APPROLE_ROLE_ID + " and "
          + APPROLE_SECRET_ID + " (or " + ROLE_ID_ENV + " and " + SECRET_ID_ENV + ")");
    }
    if (roleId != null) {
      return new VaultCredentials(null, roleId, secretId, namespace);
    }
    String token = setting(configs, TOKEN_ID, environment, TOKEN_ENV);
    if (token == null) {
      throw new RuleException("the Vault key " + key + " has no credentials: set " + TOKEN_ID + " (in the serde's "
          + "settings, e.g. rule.executors._default_.param." + TOKEN_ID + ", or the KEK's kmsProps) or the environment "
          + "variable " + TOKEN_ENV + ", or an AppRole: " + APPROLE_ROLE_ID + " and " + APPROLE_SECRET_ID);
    }
    return new VaultCredentials(token, null, null, namespace);
  }

  /** Whether the token comes from an AppRole login. */
  boolean appRole() {
    return roleId != null;
  }

  private static String setting(Map<String, ?> configs, String name, UnaryOperator<String> environment,
      String variable) {
    Object value = configs.get(name);
    String text = value != null ? value.toString() : environment.apply(variable);
    return text == null || text.isBlank() ? null : text.trim();
  }

  /** The kind of credentials and the namespace, never a secret. */
  @Override
  public String toString() {
    return "Vault credentials (" + (appRole() ? "AppRole" : "token") + (namespace != null ? ", namespace "
        + namespace : "") + ")";
  }
}
