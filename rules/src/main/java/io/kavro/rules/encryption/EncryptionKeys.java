package io.kavro.rules.encryption;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleUnavailableException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.RetriableException;

/**
 * The KEKs and DEKs of one encryption executor, with Confluent's flow (get the KEK, or create it on write; get the
 * DEK, or make one on write, encrypted by the KEK in its KMS) and bounded caches of KEKs and decrypted DEKs, so
 * that once warm a record needs neither the registry nor the KMS. Thread-safe.
 *
 * <p>Settings: {@code cache.size} (entries per cache, 10000) and {@code cache.expiry.secs} (how long a key is kept
 * before it is asked for again; by default, until evicted), plus the KMS drivers' own ({@code secret}).
 *
 * <p>It owns the KMS clients it asks the drivers for ({@link KmsClients}), and {@link #close()} closes them.
 */
final class EncryptionKeys implements AutoCloseable {
  static final String CACHE_SIZE = "cache.size";
  static final String CACHE_EXPIRY_SECS = "cache.expiry.secs";
  private static final long DAY_MILLIS = 86_400_000L;

  private final KmsClients clients;
  private final Cache<KekId, KekHandle> keks;
  private final Cache<DekId, DataKey> deks;

  EncryptionKeys(Map<String, ?> configs, KmsDrivers drivers) {
    Map<String, Object> copy = new HashMap<>();
    configs.forEach((k, v) -> {
      if (v != null) {
        copy.put(k, v);
      }
    });
    this.clients = new KmsClients(Map.copyOf(copy), drivers);
    long size = longSetting(configs, CACHE_SIZE, 10_000);
    long expirySecs = longSetting(configs, CACHE_EXPIRY_SECS, -1);
    this.keks = cache(size, expirySecs);
    this.deks = cache(size, expirySecs);
  }

  /** The keys of an executor configured with {@code configs}, with the KMS drivers of the class path. */
  static EncryptionKeys configured(Map<String, ?> configs) {
    return new EncryptionKeys(configs, KmsDrivers.load(EncryptionKeys.class.getClassLoader()));
  }

  /**
   * The DEK to write with: the cached one while it has not expired, else the registry's latest, else a new one
   * (version 1, or the next on rotation).
   */
  DataKey writeKey(EncryptionParams params, String subject, Supplier<DekRegistry> registry) {
    DekId id = new DekId(params.kekName(), subject, params.algorithm(), DekRegistry.LATEST, false);
    DataKey key = deks.get(id, k -> loadWriteKey(params, k, registry));
    if (isExpired(params, key.timestamp())) {
      deks.asMap().remove(id, key);
      key = deks.get(id, k -> loadWriteKey(params, k, registry));
    }
    return key;
  }

  /**
   * The DEK to read with.
   *
   * @param version the version the ciphertext names, or {@link DekRegistry#LATEST} when DEKs do not rotate
   */
  DataKey readKey(EncryptionParams params, String subject, int version, Supplier<DekRegistry> registry) {
    DekId id = new DekId(params.kekName(), subject, params.algorithm(), version, true);
    return deks.get(id, k -> loadReadKey(params, k, registry));
  }

  private DataKey loadWriteKey(EncryptionParams params, DekId id, Supplier<DekRegistry> registry) {
    KekHandle kek = kek(params, false, registry);
    DekRegistry dekRegistry = registry.get();
    Dek dek = call(id, () -> dekRegistry.dek(id.kekName(), id.subject(), id.algorithm().name(), DekRegistry.LATEST,
        false)).filter(d -> d.encryptedKeyMaterial() != null).orElse(null);
    if (dek != null && !isExpired(params, dek.timestamp())) {
      return dataKey(kek, dek, id);
    }
    int version = dek == null ? 1 : dek.version() + 1;
    byte[] material = null;
    String encrypted = null;
    if (!kek.kek().shared()) {
      material = id.algorithm().generateKeyMaterial();
      encrypted = Base64.getEncoder().encodeToString(kmsEncrypt(kek, material, id));
    }
    String sent = encrypted;
    Dek created = call(id, () -> dekRegistry.createDek(id.kekName(), id.subject(), id.algorithm().name(), version,
        sent));
    if (material != null && encrypted.equals(created.encryptedKeyMaterial())) {
      return new DataKey(created.version(), created.timestamp(), id.algorithm().cryptor(material));
    }
    return dataKey(kek, created, id); // another client made it first, or the registry made it (shared KEK)
  }

  private DataKey loadReadKey(EncryptionParams params, DekId id, Supplier<DekRegistry> registry) {
    KekHandle kek = kek(params, true, registry);
    DekRegistry dekRegistry = registry.get();
    Dek dek = call(id, () -> dekRegistry.dek(id.kekName(), id.subject(), id.algorithm().name(), id.version(), true))
        .filter(d -> d.encryptedKeyMaterial() != null || d.keyMaterial() != null)
        .orElseThrow(() -> new RuleException("no DEK of KEK '" + id.kekName() + "' for subject '" + id.subject()
            + "' (" + id.algorithm() + ", " + id.describeVersion() + ") in the DEK registry during consume"));
    return dataKey(kek, dek, id);
  }

  private DataKey dataKey(KekHandle kek, Dek dek, DekId id) {
    byte[] material = dek.keyMaterial() != null
        ? decodeBase64(dek.keyMaterial(), "keyMaterial", dek)
        : kmsDecrypt(kek, decodeBase64(dek.encryptedKeyMaterial(), "encryptedKeyMaterial", dek), dek);
    try {
      return new DataKey(dek.version(), dek.timestamp(), id.algorithm().cryptor(material));
    } catch (RuleException e) {
      throw new RuleException(dek + ": " + e.getMessage());
    } finally {
      java.util.Arrays.fill(material, (byte) 0);
    }
  }

  private KekHandle kek(EncryptionParams params, boolean read, Supplier<DekRegistry> registry) {
    KekHandle handle = keks.get(new KekId(params.kekName(), read), id -> loadKek(params, id, registry));
    Kek kek = handle.kek();
    if (params.kmsType() != null && !params.kmsType().equals(kek.kmsType())) {
      throw new RuleException("found " + kek + " with KMS type '" + kek.kmsType()
          + "', which differs from the rule's " + EncryptionParams.KMS_TYPE + " '" + params.kmsType() + "'");
    }
    if (params.kmsKeyId() != null && !params.kmsKeyId().equals(kek.kmsKeyId())) {
      throw new RuleException("found " + kek + " with KMS key id '" + kek.kmsKeyId()
          + "', which differs from the rule's " + EncryptionParams.KMS_KEY_ID + " '" + params.kmsKeyId() + "'");
    }
    return handle;
  }

  private KekHandle loadKek(EncryptionParams params, KekId id, Supplier<DekRegistry> registry) {
    DekRegistry dekRegistry = registry.get();
    Optional<Kek> found = callKek(id.name(), () -> dekRegistry.kek(id.name(), id.read()));
    if (found.isPresent()) {
      return new KekHandle(found.get());
    }
    if (id.read()) {
      throw new RuleException("no KEK '" + id.name() + "' in the DEK registry during consume");
    }
    if (params.kmsType() == null || params.kmsKeyId() == null) {
      throw new RuleException("no KEK '" + id.name() + "' in the DEK registry, and the rule cannot create it "
          + "during produce: it needs " + EncryptionParams.KMS_TYPE + " and " + EncryptionParams.KMS_KEY_ID);
    }
    Kek kek = new Kek(id.name(), params.kmsType(), params.kmsKeyId(), Map.of(), null, false, false);
    return new KekHandle(callKek(id.name(), () -> dekRegistry.createKek(kek)));
  }

  private byte[] kmsEncrypt(KekHandle kek, byte[] material, DekId id) {
    String what = "the KMS of " + kek.kek() + " cannot encrypt a new DEK for subject '" + id.subject() + "'";
    try {
      return kek.client().encrypt(material);
    } catch (GeneralSecurityException e) {
      throw kmsFailure(what, "", e);
    } catch (RuleDeploymentException e) {
      // the deployment's settings or credentials, refused or unusable (making the client or in the call): the KEK named
      throw new RuleDeploymentException(what + ": " + e.getMessage(), e);
    } catch (RuleException e) {
      throw e; // the driver's own other failure (a key id that does not parse, a RuleUnavailableException)
    } catch (RuntimeException e) {
      throw kmsFailure(what, "", e);
    }
  }

  private byte[] kmsDecrypt(KekHandle kek, byte[] encrypted, Dek dek) {
    String what = "the KMS of " + kek.kek() + " cannot decrypt " + dek;
    try {
      return kek.client().decrypt(encrypted);
    } catch (GeneralSecurityException e) {
      throw kmsFailure(what, " (a wrong KMS key or secret?)", e);
    } catch (RuleDeploymentException e) {
      // the deployment's settings or credentials, refused or unusable (making the client or in the call): the KEK named
      throw new RuleDeploymentException(what + ": " + e.getMessage(), e);
    } catch (RuleException e) {
      throw e; // the driver's own other failure (a key id that does not parse, a RuleUnavailableException)
    } catch (RuntimeException e) {
      throw kmsFailure(what, " (a wrong KMS key or secret?)", e);
    }
  }

  /**
   * A KMS failure as the rule's: a {@link RuleUnavailableException} when it is {@link #isTransient transient}, else
   * a {@link RuleException} that the rule's action handles. A driver's {@link GeneralSecurityException} is its own,
   * and its message is kept; an unchecked exception is the SDK's, whose message may say anything (a request, a
   * credential's name): its class name and stack trace only.
   */
  private static RuleException kmsFailure(String what, String hint, Exception e) {
    boolean checked = e instanceof GeneralSecurityException;
    String why = checked ? e.getMessage() : e.getClass().getName();
    Throwable cause = checked ? e : RuleException.hidingValues(why, e).getCause();
    if (isTransient(e)) {
      return new RuleUnavailableException(what + " for now: " + why, cause);
    }
    return new RuleException(what + hint + ": " + why, cause);
  }

  /**
   * Whether a KMS failure is one a later attempt may not meet: a {@link KmsUnavailableException}, an {@link
   * java.io.IOException} (a driver or an SDK that wraps its timeout, an {@link java.io.UncheckedIOException}'s
   * cause) or a Kafka {@link RetriableException} among {@code e} and its causes. Checked or unchecked alike.
   */
  static boolean isTransient(Throwable e) {
    return Causes.first(e, cause -> cause instanceof KmsUnavailableException || cause instanceof java.io.IOException
        || cause instanceof RetriableException).isPresent();
  }

  private static byte[] decodeBase64(String value, String what, Dek dek) {
    try {
      return Base64.getDecoder().decode(value);
    } catch (IllegalArgumentException e) {
      throw new RuleException(dek + " has a " + what + " that is not base64");
    }
  }

  private static boolean isExpired(EncryptionParams params, long timestamp) {
    return params.rotates() && (System.currentTimeMillis() - timestamp) / DAY_MILLIS >= params.expiryDays();
  }

  private static <T> T call(DekId id, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuleException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new RuleException("the DEK registry failed on the DEK of KEK '" + id.kekName() + "' for subject '"
          + id.subject() + "': " + e.getMessage(), e);
    }
  }

  private static <T> T callKek(String name, Supplier<T> call) {
    try {
      return call.get();
    } catch (RuleException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new RuleException("the DEK registry failed on KEK '" + name + "': " + e.getMessage(), e);
    }
  }

  private static <K, V> Cache<K, V> cache(long size, long expirySecs) {
    Caffeine<Object, Object> builder = Caffeine.newBuilder().maximumSize(size);
    if (expirySecs >= 0) {
      builder.expireAfterWrite(Duration.ofSeconds(expirySecs));
    }
    return builder.build();
  }

  private static long longSetting(Map<String, ?> configs, String name, long defaultValue) {
    Object value = configs.get(name);
    if (value == null || value.toString().isBlank()) {
      return defaultValue;
    }
    try {
      return value instanceof Number n ? n.longValue() : Long.parseLong(value.toString().trim());
    } catch (NumberFormatException e) {
      throw new RuleException("the encryption setting " + name + " is '" + value + "', not a number");
    }
  }

  /** Closes the KMS clients, once (a second call does nothing); no key is loaded afterwards. */
  @Override
  public void close() {
    clients.close();
  }

  /** The keys of the executor configured again with {@code configs}; once they are made, these are closed. */
  EncryptionKeys reconfigured(Map<String, ?> configs) {
    EncryptionKeys next = configured(configs);
    close();
    return next;
  }

  /** A decrypted DEK: the cipher of one version. */
  record DataKey(int version, long timestamp, Cryptor cryptor) {}

  private record KekId(String name, boolean read) {}

  private record DekId(String kekName, String subject, DekAlgorithm algorithm, int version, boolean read) {
    String describeVersion() {
      return version == DekRegistry.LATEST ? "latest version" : "version " + version;
    }
  }

  /** A KEK, with its KMS client made when first needed (a shared KEK's may never be). */
  private final class KekHandle {
    private final Kek kek;
    private volatile KmsClient client;

    KekHandle(Kek kek) {
      this.kek = kek;
    }

    Kek kek() {
      return kek;
    }

    KmsClient client() {
      KmsClient c = client;
      if (c == null) {
        synchronized (this) {
          c = client;
          if (c == null) {
            c = clients.client(kek);
            client = c;
          }
        }
      }
      return c;
    }
  }
}
