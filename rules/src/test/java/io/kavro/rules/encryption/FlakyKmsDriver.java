package io.kavro.rules.encryption;

import io.kavro.serde.rules.RuleDeploymentException;
import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A KMS driver for tests ({@code flaky-kms}, found by ServiceLoader from the test resources): the local KMS, whose
 * next {@link #throttles} calls throw {@link KmsUnavailableException}("Throttling"), as a cloud KMS under load,
 * whose next {@link #timeouts} calls throw a plain {@link GeneralSecurityException} caused by a socket timeout (as
 * a driver that wraps its SDK's I/O error), and whose next {@link #refusals} calls throw a plain
 * {@link GeneralSecurityException}, as a KMS that refuses; {@link #uncheckedTimeouts} and {@link #uncheckedRefusals}
 * throw as an SDK does, unchecked; {@link #settingFaults} throw a {@link RuleDeploymentException}, as a driver
 * whose setting fails every call (an AWS profile that no profile file has).
 * Its switches are static: one test class uses them at a time.
 */
public final class FlakyKmsDriver implements KmsDriver {
  /** The KMS type. */
  public static final String KMS_TYPE = "flaky-kms";
  /** How many of the next calls throttle. */
  public static final AtomicInteger throttles = new AtomicInteger();
  /** How many of the next calls time out: a plain GeneralSecurityException caused by a SocketTimeoutException. */
  public static final AtomicInteger timeouts = new AtomicInteger();
  /** How many of the next calls (after the throttled ones) are refused for good. */
  public static final AtomicInteger refusals = new AtomicInteger();
  /** How many of the next calls throw an SDK's unchecked timeout: an UncheckedIOException of a socket timeout. */
  public static final AtomicInteger uncheckedTimeouts = new AtomicInteger();
  /** How many of the next calls throw an SDK's unchecked refusal, whose message names a secret. */
  public static final AtomicInteger uncheckedRefusals = new AtomicInteger();
  /** How many of the next calls fail on a setting of the deployment. */
  public static final AtomicInteger settingFaults = new AtomicInteger();
  /** What a setting fault says. */
  public static final String SETTING_FAULT = "the flaky KMS's profile 'typo' is in no profile file";
  /** What an unchecked refusal's message says: never to be shown. */
  public static final String SDK_SAYS = "AccessDenied for credential sdk-secret-7";
  /** How many calls reached the KMS. */
  public static final AtomicInteger calls = new AtomicInteger();
  /** How many clients the driver made. */
  public static final AtomicInteger made = new AtomicInteger();
  /** How many times a client was closed (a second close of one client counts too). */
  public static final AtomicInteger closes = new AtomicInteger();

  private final LocalKmsDriver local = new LocalKmsDriver(name -> null);

  @Override
  public String kmsType() {
    return KMS_TYPE;
  }

  @Override
  public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
    KmsClient client = local.newClient(kekUrl, configs);
    made.incrementAndGet();
    return new KmsClient() {
      @Override
      public void close() {
        closes.incrementAndGet();
      }

      @Override
      public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
        fault();
        return client.encrypt(plaintext);
      }

      @Override
      public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
        fault();
        return client.decrypt(ciphertext);
      }
    };
  }

  private static void fault() throws GeneralSecurityException {
    calls.incrementAndGet();
    if (throttles.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new KmsUnavailableException("Throttling");
    }
    if (timeouts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new GeneralSecurityException("KMS call failed", new java.net.SocketTimeoutException("Read timed out"));
    }
    if (refusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new GeneralSecurityException("AccessDenied");
    }
    if (uncheckedTimeouts.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new java.io.UncheckedIOException(new java.net.SocketTimeoutException("Read timed out"));
    }
    if (uncheckedRefusals.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IllegalStateException(SDK_SAYS);
    }
    if (settingFaults.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new RuleDeploymentException(SETTING_FAULT);
    }
  }

  /** Puts the switches back. */
  public static void reset() {
    throttles.set(0);
    timeouts.set(0);
    refusals.set(0);
    uncheckedTimeouts.set(0);
    uncheckedRefusals.set(0);
    settingFaults.set(0);
    calls.set(0);
    made.set(0);
    closes.set(0);
  }
}
