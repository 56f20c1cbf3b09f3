package io.kavro.kms.azure;

import io.kavro.serde.rules.RuleException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Arrays;

/**
 * A Key Vault key identifier, as Confluent's clients store it after {@code azure-kms://}: the vault's URL, the
 * key's name and, optionally, its version ({@code https://<vault>.vault.azure.net/keys/<name>[/<version>]}). The
 * vault URL is the endpoint the driver calls. Immutable.
 *
 * @param vaultUrl {@code scheme://host[:port]}
 * @param name the key's name
 * @param version the key's version, or null when the id names the key's current version
 */
record KeyVaultKeyId(String vaultUrl, String name, String version) {

  /**
   * Parses a key id.
   *
   * @throws RuleException when it is not a Key Vault key URL, naming it
   */
  static KeyVaultKeyId parse(String keyId) {
    URI uri;
    try {
      uri = new URI(keyId);
    } catch (URISyntaxException e) {
      throw invalid(keyId);
    }
    if (uri.getScheme() == null || uri.getRawAuthority() == null || uri.getRawPath() == null
        || uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw invalid(keyId);
    }
    String[] segments = Arrays.stream(uri.getPath().split("/")).filter(s -> !s.isEmpty()).toArray(String[]::new);
    if (segments.length < 2 || segments.length > 3 || !"keys".equals(segments[0])) {
      throw invalid(keyId);
    }
    return new KeyVaultKeyId(uri.getScheme() + "://" + uri.getRawAuthority(), segments[1],
        segments.length == 3 ? segments[2] : null);
  }

  private static RuleException invalid(String keyId) {
    return new RuleException("'" + keyId + "' is not an Azure Key Vault key id: expected "
        + "https://<vault>.vault.azure.net/keys/<name>/<version> (or .../keys/<name>)");
  }

  /** The id of one version of this key. */
  KeyVaultKeyId withVersion(String newVersion) {
    return new KeyVaultKeyId(vaultUrl, name, newVersion);
  }

  /** The key URL, as Key Vault and Confluent's clients name it. */
  @Override
  public String toString() {
    return vaultUrl + "/keys/" + name + (version != null ? "/" + version : "");
  }
}
