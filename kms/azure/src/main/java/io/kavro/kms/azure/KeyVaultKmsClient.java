package io.kavro.kms.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.security.keyvault.keys.KeyClient;
import com.azure.security.keyvault.keys.KeyClientBuilder;
import com.azure.security.keyvault.keys.cryptography.CryptographyClient;
import com.azure.security.keyvault.keys.cryptography.CryptographyClientBuilder;
import com.azure.security.keyvault.keys.cryptography.models.EncryptionAlgorithm;
import com.azure.security.keyvault.keys.models.KeyVaultKey;
import io.kavro.rules.encryption.KmsClient;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * One Key Vault key as a {@link KmsClient}, byte for byte as Confluent's Azure driver uses it: a DEK is encrypted
 * with RSA-OAEP-256 by Key Vault's {@code encrypt} operation (not {@code wrapKey}) and the raw ciphertext stored;
 * with {@code encrypt.azure.key.version.save} on, it is stored as {@code azure:v1:<version>:<ciphertext>}, the
 * version being the key id's own or, for a versionless id, the key's current one (asked of Key Vault on each
 * encrypt, so that a rotation takes effect). Decrypt reads both forms: a prefixed DEK is decrypted by the version it
 * names. Thread-safe.
 */
final class KeyVaultKmsClient implements KmsClient {
  /** Confluent's algorithm; the SDK does it on the service side (it has no local RSA-OAEP-256). */
  static final EncryptionAlgorithm ALGORITHM = EncryptionAlgorithm.RSA_OAEP_256;

  private final KeyVaultKeyId keyId;
  private final boolean saveVersion;
  private final TokenCredential credential;
  private final String secret;
  private final Duration retryBaseDelay;
  private final CryptographyClient client;
  private final ConcurrentMap<String, CryptographyClient> versions = new ConcurrentHashMap<>();
  private volatile KeyClient keys;

  /** A client of one key, whose calls back off from {@code retryBaseDelay} ({@link KeyVaultTransport#retries}). */
  KeyVaultKmsClient(KeyVaultKeyId keyId, boolean saveVersion, TokenCredential credential, String secret,
      Duration retryBaseDelay) {
    this.keyId = keyId;
    this.saveVersion = saveVersion;
    this.credential = credential;
    this.secret = secret;
    this.retryBaseDelay = retryBaseDelay;
    this.client = cryptography(keyId);
  }

  KeyVaultKeyId keyId() {
    return keyId;
  }

  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    if (!saveVersion) {
      return call("encrypt", () -> client.encrypt(ALGORITHM, plaintext).getCipherText());
    }
    String version = keyId.version() != null ? keyId.version() : currentVersion();
    if (!VersionedCiphertext.isVersion(version)) {
      throw new GeneralSecurityException("Azure Key Vault key " + keyId + " has version '" + version
          + "', not 32 hex characters: it cannot be saved in an azure:v1: DEK (encrypt.azure.key.version.save)");
    }
    byte[] ciphertext = call("encrypt", () -> version(version).encrypt(ALGORITHM, plaintext).getCipherText());
    return VersionedCiphertext.of(version, ciphertext);
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    String version = VersionedCiphertext.versionOf(ciphertext);
    if (version == null) {
      return call("decrypt", () -> client.decrypt(ALGORITHM, ciphertext).getPlainText());
    }
    if (!VersionedCiphertext.isVersion(version)) {
      throw new GeneralSecurityException("a DEK of Azure Key Vault key " + keyId
          + " starts with azure:v1: but names no key version (32 hex characters)");
    }
    byte[] wrapped = VersionedCiphertext.ciphertextOf(ciphertext);
    return call("decrypt", () -> version(version).decrypt(ALGORITHM, wrapped).getPlainText());
  }

  private String currentVersion() throws GeneralSecurityException {
    KeyVaultKey key = call("find the current version of", () -> keyClient().getKey(keyId.name()));
    String id = key == null ? null : key.getId();
    String version = id == null ? null : id.substring(id.lastIndexOf('/') + 1);
    if (version == null || version.isEmpty() || version.equals(keyId.name())) {
      throw new GeneralSecurityException("Azure Key Vault named no version for key " + keyId);
    }
    return version;
  }

  private CryptographyClient version(String version) {
    if (version.equals(keyId.version())) {
      return client;
    }
    return versions.computeIfAbsent(version, v -> cryptography(keyId.withVersion(v)));
  }

  private KeyClient keyClient() {
    KeyClient k = keys;
    if (k == null) {
      k = new KeyClientBuilder().vaultUrl(keyId.vaultUrl()).credential(credential)
          .httpClient(KeyVaultTransport.http()).retryOptions(KeyVaultTransport.retries(retryBaseDelay))
          .buildClient();
      keys = k;
    }
    return k;
  }

  private CryptographyClient cryptography(KeyVaultKeyId id) {
    return new CryptographyClientBuilder().keyIdentifier(id.toString()).credential(credential)
        .httpClient(KeyVaultTransport.http()).retryOptions(KeyVaultTransport.retries(retryBaseDelay))
        .buildClient();
  }

  private <T> T call(String operation, Supplier<T> call) throws GeneralSecurityException {
    try {
      return call.get();
    } catch (RuntimeException e) {
      throw KeyVaultFaults.of(keyId, operation, e, secret);
    }
  }

  /** The key id; never a credential. */
  @Override
  public String toString() {
    return "Azure Key Vault client of " + keyId;
  }
}
