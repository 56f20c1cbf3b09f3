package io.kavro.rules.encryption;

import java.security.GeneralSecurityException;

/**
 * The KMS could not answer for now: it throttled the call, timed out, could not be reached, or answered with a
 * server error. What a {@link KmsClient} throws for a failure that a later attempt may not meet; any other
 * {@link GeneralSecurityException} says the KMS refused (a wrong key, a ciphertext not made by this KEK, access
 * denied) and is final.
 *
 * <p>Field encryption never lets a rule's {@code onFailure} action pass a record over for it: the serde fails the
 * record with a retriable Kafka exception, on write and on read, as for a registry outage, so that a throttling KMS
 * never puts plaintext on the wire nor hands ciphertext to a reader with {@code "ERROR,NONE"}. A driver maps its
 * SDK's transient errors (throttling, HTTP 429 and 5xx, timeouts, connection failures) to this, keeping the SDK's
 * exception as the cause; an {@link java.io.IOException} among the causes of a plain
 * {@link GeneralSecurityException} is read as such a failure too.
 *
 * <p>Its message never holds key material or credentials.
 */
public class KmsUnavailableException extends GeneralSecurityException {
  private static final long serialVersionUID = 1L;

  /** @param message what failed ("Throttling", "timed out after 10 s"), never a secret */
  public KmsUnavailableException(String message) {
    super(message);
  }

  /** @param message what failed, never a secret; @param cause the SDK's exception */
  public KmsUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
