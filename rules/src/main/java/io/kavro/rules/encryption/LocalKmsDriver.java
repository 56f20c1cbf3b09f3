package io.kavro.rules.encryption;

import com.google.crypto.tink.Aead;
import com.google.crypto.tink.subtle.AesGcmJce;
import com.google.crypto.tink.subtle.Hkdf;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The {@code local-kms} KMS of Confluent's clients, for tests and development: the KEK is derived from a secret,
 * so every client that knows the secret can read what another wrote. The key is
 * {@code HKDF-SHA256(ikm = UTF-8(secret), salt = 32 zero bytes, info = empty, length = 16)}, used as AES-128-GCM
 * ({@code iv(12) ‖ ciphertext ‖ tag(16)}, empty associated data). The KEK's key id is not used.
 *
 * <p>The secret is the setting {@code secret} (in the serde's settings, {@code rule.executors._default_.param.secret}
 * or the KEK's {@code kmsProps}), else the environment variable {@code LOCAL_SECRET}.
 */
public final class LocalKmsDriver implements KmsDriver {
  /** The KMS type. */
  public static final String KMS_TYPE = "local-kms";
  /** The setting that holds the secret. */
  public static final String SECRET = "secret";
  /** The environment variable that holds the secret when no setting does. */
  public static final String SECRET_ENV = "LOCAL_SECRET";

  private static final int KEY_SIZE = 16;
  /** HKDF's "no salt": as many zero bytes as SHA-256 gives. */
  private static final int SALT_SIZE = 32;

  private final UnaryOperator<String> environment;

  /** The driver, reading {@code LOCAL_SECRET} from the process's environment. */
  public LocalKmsDriver() {
    this(System::getenv);
  }

  LocalKmsDriver(UnaryOperator<String> environment) {
    this.environment = environment;
  }

  @Override
  public String kmsType() {
    return KMS_TYPE;
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    Object setting = configs.get(SECRET);
    String secret = setting != null ? setting.toString() : environment.apply(SECRET_ENV);
    if (secret == null || secret.isEmpty()) {
      throw new RuleDeploymentException("the local KMS of " + kekUrl + " has no secret: set '" + SECRET + "' (in the "
          + "serde's settings, e.g. rule.executors._default_.param." + SECRET + ") or the environment variable "
          + SECRET_ENV);
    }
    byte[] ikm = secret.getBytes(StandardCharsets.UTF_8);
    byte[] key = null;
    try {
      key = Hkdf.computeHkdf("HMACSHA256", ikm, new byte[SALT_SIZE], new byte[0], KEY_SIZE);
      return new Client(new AesGcmJce(key));
    } catch (GeneralSecurityException e) {
      throw new RuleException("cannot derive the local KMS key of " + kekUrl + ": " + e.getMessage(), e);
    } finally {
      Arrays.fill(ikm, (byte) 0);
      if (key != null) {
        Arrays.fill(key, (byte) 0);
      }
    }
  }

  /** The driver's type only. */
  @Override
  public String toString() {
    return "KMS driver " + KMS_TYPE;
  }

  private static final class Client implements KmsClient {
    private final Aead aead;

    Client(Aead aead) {
      this.aead = aead;
    }

    @Override
    public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
      return aead.encrypt(plaintext, Cryptor.EMPTY_AAD);
    }

    @Override
    public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
      return aead.decrypt(ciphertext, Cryptor.EMPTY_AAD);
    }

    @Override
    public String toString() {
      return "local KMS client";
    }
  }
}
