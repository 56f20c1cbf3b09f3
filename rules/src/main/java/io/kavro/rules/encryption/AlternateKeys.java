package io.kavro.rules.encryption;

import io.kavro.serde.rules.RuleDeploymentException;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A KEK's own key and its alternates ({@code encrypt.alternate.kms.key.ids}), tried as Confluent's clients try them:
 * each call, encrypt or decrypt, goes to the KEK's own key, then to each alternate in the order given while the
 * previous one fails, on any {@link GeneralSecurityException} or {@link RuleDeploymentException} (a warning per
 * failure: an alternate may be in another region, vault or tenant, whose credentials differ). When every key fails,
 * the failure is temporary ({@link KmsUnavailableException}) if any key's was, since a later attempt may reach that
 * key; else the deployment's ({@link RuleDeploymentException}) if any key's was; otherwise it is final, naming every
 * key's reason (each key's own message: a {@link KmsClient} never prints a secret). The first failure that decided
 * the kind is the cause, the others are suppressed.
 *
 * <p>What a {@link KmsDriver} uses so that it only builds a client for one key id:
 * <pre>{@code
 * public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
 *   Settings settings = ...;                                  // parsed once, shared by every key
 *   return AlternateKeys.of("Azure Key Vault", oneKey(kekUrl, settings), configs,
 *       keyId -> oneKey(keyId, settings));                    // each alternate id as the user wrote it
 * }
 * }</pre>
 * Thread-safe when the keys' clients are. {@link #close()} closes every key's client.
 */
public final class AlternateKeys implements KmsClient {
  /** Confluent's setting of the alternate key ids: comma-separated, tried in order after the KEK's own key. */
  public static final String ALTERNATE_KEY_IDS = "encrypt.alternate.kms.key.ids";

  private static final Logger LOG = LoggerFactory.getLogger(AlternateKeys.class);

  /** Builds the client of one alternate key. */
  @FunctionalInterface
  public interface KeyClientFactory {
    /**
     * The client of one key.
     *
     * @param keyId an alternate key id as given in {@value #ALTERNATE_KEY_IDS}, trimmed, never empty; with or without
     *     the {@code <kmsType>://} prefix, as the user wrote it
     * @throws io.kavro.serde.rules.RuleException when the id is not one of the driver's keys; the message names
     *     {@value #ALTERNATE_KEY_IDS} and the id
     */
    KmsClient newKeyClient(String keyId);
  }

  private final String kms;
  private final List<KmsClient> keys;

  private AlternateKeys(String kms, List<KmsClient> keys) {
    this.kms = kms;
    this.keys = keys;
  }

  /**
   * The KEK's client: its own key's alone when {@value #ALTERNATE_KEY_IDS} names no key, else that key's then the
   * alternates', tried in order.
   *
   * @param kms the KMS's name for messages ("AWS KMS", "Vault"): "none of the 2 Vault keys could decrypt: ..."
   * @param primary the client of the KEK's own key
   * @param configs the settings {@link KmsDriver#newClient} was given
   * @param alternates builds the client of each alternate key id, in order
   * @throws RuntimeException what {@code alternates} throws, after closing the clients made so far, {@code primary}
   *     included
   */
  public static KmsClient of(String kms, KmsClient primary, Map<String, ?> configs, KeyClientFactory alternates) {
    List<String> ids = alternateKeyIds(configs);
    if (ids.isEmpty()) {
      return primary;
    }
    List<KmsClient> keys = new ArrayList<>(ids.size() + 1);
    keys.add(primary);
    try {
      ids.forEach(id -> keys.add(alternates.newKeyClient(id)));
    } catch (RuntimeException e) {
      new AlternateKeys(kms, keys).close(); // the clients made so far are nobody else's
      throw e;
    }
    return of(kms, keys);
  }

  /**
   * The clients of a KEK's keys, tried in order.
   *
   * @param kms the KMS's name for messages
   * @param keys the KEK's own key's client first, then the alternates'; at least one
   * @throws IllegalArgumentException when there is no key
   */
  public static KmsClient of(String kms, List<? extends KmsClient> keys) {
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("a KEK needs at least one key");
    }
    return keys.size() == 1 ? keys.get(0) : new AlternateKeys(kms, List.copyOf(keys));
  }

  /**
   * The alternate key ids of {@value #ALTERNATE_KEY_IDS}: split at commas, trimmed, empty ones and repeats dropped,
   * in order; none when the setting is absent.
   */
  public static List<String> alternateKeyIds(Map<String, ?> configs) {
    Object value = configs.get(ALTERNATE_KEY_IDS);
    if (value == null) {
      return List.of();
    }
    Set<String> ids = new LinkedHashSet<>();
    for (String id : value.toString().split(",")) {
      if (!id.isBlank()) {
        ids.add(id.trim());
      }
    }
    return List.copyOf(ids);
  }

  /**
   * The settings without {@value #ALTERNATE_KEY_IDS}: what a driver keys a shared SDK client by, since the alternate
   * ids do not change the client.
   *
   * @return a new, modifiable map
   */
  public static Map<String, Object> withoutAlternateKeyIds(Map<String, ?> configs) {
    Map<String, Object> settings = new HashMap<>(configs);
    settings.remove(ALTERNATE_KEY_IDS);
    return settings;
  }

  @Override
  public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
    return each("encrypt", key -> key.encrypt(plaintext));
  }

  @Override
  public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
    return each("decrypt", key -> key.decrypt(ciphertext));
  }

  private byte[] each(String operation, Call call) throws GeneralSecurityException {
    List<Exception> failures = new ArrayList<>(keys.size());
    for (KmsClient key : keys) {
      try {
        return call.on(key);
      } catch (GeneralSecurityException | RuleDeploymentException e) {
        failures.add(e);
        if (failures.size() < keys.size()) {
          LOG.warn("{} failed to {} ({}); trying the next of the KEK's {} keys", key, operation, e.getMessage(),
              keys.size());
        }
      }
    }
    StringBuilder reasons = new StringBuilder();
    KmsUnavailableException temporary = null;
    RuleDeploymentException deployment = null;
    for (Exception failure : failures) {
      reasons.append(reasons.length() == 0 ? "" : "; ").append(failure.getMessage());
      if (temporary == null && failure instanceof KmsUnavailableException unavailable) {
        temporary = unavailable;
      }
      if (deployment == null && failure instanceof RuleDeploymentException refused) {
        deployment = refused;
      }
    }
    String message = "none of the " + keys.size() + " " + kms + " keys could " + operation + ": " + reasons;
    if (temporary == null && deployment != null) {
      RuleDeploymentException thrown = new RuleDeploymentException(message, deployment);
      failures.stream().filter(f -> f != thrown.getCause()).forEach(thrown::addSuppressed);
      throw thrown;
    }
    GeneralSecurityException thrown = temporary != null
        ? new KmsUnavailableException(message, temporary) : new GeneralSecurityException(message, failures.get(0));
    failures.stream().filter(f -> f != thrown.getCause()).forEach(thrown::addSuppressed);
    throw thrown;
  }

  /**
   * Closes every key's client, in order, each once, even when one fails to. Never throws: a client that fails to
   * close is logged, named by its {@code toString} (which prints no secret), not by its key id.
   */
  @Override
  public void close() {
    for (KmsClient key : keys) {
      try {
        key.close();
      } catch (RuntimeException e) {
        LOG.warn("cannot close {} ({})", key, e.getClass().getName());
      }
    }
  }

  /** The keys' clients, in order (a {@link KmsClient} prints no secret). */
  @Override
  public String toString() {
    return kms + " client of " + keys;
  }

  @FunctionalInterface
  private interface Call {
    byte[] on(KmsClient key) throws GeneralSecurityException;
  }
}
