package io.kavro.bench;

import io.kavro.rules.encryption.KmsClient;
import io.kavro.rules.encryption.KmsDriver;
import io.kavro.rules.encryption.LocalKmsDriver;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The local KMS ({@code local-kms}, the same keys and ciphers) under its own type, {@value #KMS_TYPE}, counting
 * every call into it: a benchmark proves with {@link #expectNoCalls()} that it measured no KMS call. Every DEK a
 * field rule loads into its cache is decrypted (or, new, encrypted) by the KMS, so no KMS call also means no
 * DEK registry lookup. Found by ServiceLoader, as any KMS driver.
 */
public final class CountingKmsDriver implements KmsDriver {
  /** The {@code encrypt.kms.type} of this driver's KEKs. */
  public static final String KMS_TYPE = "counting-local-kms";
  private static final LongAdder CALLS = new LongAdder();

  private final LocalKmsDriver local = new LocalKmsDriver();

  @Override
  public String kmsType() {
    return KMS_TYPE;
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    CALLS.increment();
    KmsClient client = local.newClient(kekUrl, configs);
    return new KmsClient() {
      @Override
      public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
        CALLS.increment();
        return client.encrypt(plaintext);
      }

      @Override
      public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
        CALLS.increment();
        return client.decrypt(ciphertext);
      }
    };
  }

  /**
   * A check to close after the trial: it fails if any KMS call was made between now and then.
   *
   * @return closing it throws {@link IllegalStateException} naming the number of calls
   */
  public static AutoCloseable expectNoCalls() {
    long before = CALLS.sum();
    return () -> {
      long calls = CALLS.sum() - before;
      if (calls != 0) {
        throw new IllegalStateException(calls + " KMS call(s) while measuring: the DEKs were not all cached");
      }
    };
  }
}
