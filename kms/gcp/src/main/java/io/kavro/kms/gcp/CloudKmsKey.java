package io.kavro.kms.gcp;

import com.google.api.services.cloudkms.v1.CloudKMS;
import com.google.api.services.cloudkms.v1.model.DecryptRequest;
import com.google.api.services.cloudkms.v1.model.DecryptResponse;
import com.google.api.services.cloudkms.v1.model.EncryptRequest;
import com.google.api.services.cloudkms.v1.model.EncryptResponse;
import io.kavro.rules.encryption.KmsClient;
import java.io.IOException;
import java.security.GeneralSecurityException;

/**
 * One Cloud KMS CryptoKey as a KEK's client: {@code POST v1/{name}:encrypt} and {@code :decrypt}, with empty
 * additional authenticated data, as Confluent's driver (Tink's {@code GcpKmsAead}) sends them; the wrapped DEK is
 * Cloud KMS's ciphertext unchanged, which names the key version that made it. Thread-safe.
 */
final class CloudKmsKey implements KmsClient {
  private static final byte[] EMPTY_AAD = new byte[0];

  private final CloudKMS kms;
  private final GcpKeyName key;

  CloudKmsKey(CloudKMS kms, GcpKeyName key) {
    this.kms = kms;
    this.key = key;
  }

  GcpKeyName key() {
    return key;
  }

  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    EncryptRequest request = new EncryptRequest().encodePlaintext(plaintext).encodeAdditionalAuthenticatedData(EMPTY_AAD);
    EncryptResponse response;
    try {
      response = kms.projects().locations().keyRings().cryptoKeys().encrypt(key.resourceName(), request).execute();
    } catch (IOException | RuntimeException e) {
      throw CloudKmsFaults.of(key, "encrypt", e);
    }
    byte[] ciphertext = response == null ? null : response.decodeCiphertext();
    if (ciphertext == null || ciphertext.length == 0) {
      throw new GeneralSecurityException("Cloud KMS key " + key + " answered encrypt without a ciphertext");
    }
    return ciphertext;
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    DecryptRequest request = new DecryptRequest().encodeCiphertext(ciphertext).encodeAdditionalAuthenticatedData(EMPTY_AAD);
    DecryptResponse response;
    try {
      response = kms.projects().locations().keyRings().cryptoKeys().decrypt(key.resourceName(), request).execute();
    } catch (IOException | RuntimeException e) {
      throw CloudKmsFaults.of(key, "decrypt", e);
    }
    byte[] plaintext = response == null ? null : response.decodePlaintext();
    if (plaintext == null) {
      throw new GeneralSecurityException("Cloud KMS key " + key + " answered decrypt without a plaintext");
    }
    return plaintext;
  }

  /** The key's name only. */
  @Override
  public String toString() {
    return "Cloud KMS client of " + key;
  }
}
