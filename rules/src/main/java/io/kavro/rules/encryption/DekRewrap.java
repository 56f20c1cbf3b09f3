package io.kavro.rules.encryption;

import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import io.kavro.serde.rules.RuleDeploymentException;
import io.kavro.serde.rules.RuleException;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-wraps the DEKs of a KEK under the KEK's current KMS key version, as Confluent's {@code RewrapDeks} does: for
 * each subject (one, or every subject with DEKs under the KEK), each algorithm and each version, it has the KMS
 * unwrap the DEK and wrap the same key material again, and stores the new wrapping in the DEK registry
 * ({@link DekRegistry#rewrapDek}). The key material never changes, so every record stays readable; only the
 * wrapping does.
 *
 * <ul>
 *   <li>Before anything is written, the new wrapping is unwrapped again and compared with the key: a KMS answer that
 *       would lose the key is a failure of that DEK, never stored.</li>
 *   <li>A dry run does all of that but the write.</li>
 *   <li>A DEK the KMS refuses (a wrong key, access denied) or that has no encrypted key material fails alone, and
 *       the walk goes on. A KMS or registry that cannot answer for now ({@link KmsUnavailableException}, an
 *       {@link RegistryUnavailableException}) stops the walk: {@link StoppedException}, with what was done so far;
 *       so do settings or credentials the KMS refuses ({@link RuleDeploymentException}), which every DEK would meet.
 *       Running it again is safe: a DEK re-wrapped twice has the same key.</li>
 *   <li>A shared KEK's DEKs are wrapped by the registry itself: each is sent without key material, and the registry
 *       re-wraps it.</li>
 * </ul>
 *
 * <p>Neither key material nor KMS settings appear in an outcome, a message or a log line.
 */
public final class DekRewrap {
  private static final Logger LOG = LoggerFactory.getLogger(DekRewrap.class);
  /** Every algorithm a DEK can have, walked in this order. */
  private static final List<String> ALGORITHMS = List.of(DekAlgorithm.AES128_GCM.name(),
      DekAlgorithm.AES256_GCM.name(), DekAlgorithm.AES256_SIV.name());

  private final DekRegistry registry;
  private final Map<String, ?> kmsConfigs;
  private final KmsDrivers drivers;

  /**
   * With the KMS drivers of the class path.
   *
   * @param kmsConfigs the KMS settings (credentials, {@code secret}, ...), under which the KEK's {@code kmsProps}
   *     are laid; they may hold secrets, never printed
   */
  public DekRewrap(DekRegistry registry, Map<String, ?> kmsConfigs) {
    this(registry, kmsConfigs, KmsDrivers.load(DekRewrap.class.getClassLoader()));
  }

  DekRewrap(DekRegistry registry, Map<String, ?> kmsConfigs, KmsDrivers drivers) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.kmsConfigs = java.util.Collections.unmodifiableMap(new HashMap<>(kmsConfigs));
    this.drivers = drivers;
  }

  /** What happened to one DEK version. */
  public enum Outcome {
    /** Its new wrapping is stored. */
    REWRAPPED,
    /** A dry run: it would have been re-wrapped. */
    WOULD_REWRAP,
    /** Nothing to do: the KMS gave back the wrapping the registry holds. */
    SKIPPED,
    /** Left as it was, for the reason given. */
    FAILED
  }

  /**
   * One DEK version and what happened to it.
   *
   * @param reason why it failed or was skipped; null otherwise. Names no key material nor setting value
   */
  public record Result(String subject, String algorithm, int version, boolean deleted, Outcome outcome,
      String reason) {}

  /** The DEK versions seen, and how many had each outcome. */
  public record Counts(int seen, int rewrapped, int wouldRewrap, int skipped, int failed) {
    Counts plus(Outcome outcome) {
      return new Counts(seen + 1, rewrapped + (outcome == Outcome.REWRAPPED ? 1 : 0),
          wouldRewrap + (outcome == Outcome.WOULD_REWRAP ? 1 : 0), skipped + (outcome == Outcome.SKIPPED ? 1 : 0),
          failed + (outcome == Outcome.FAILED ? 1 : 0));
    }

    /** One line: {@code seen N, re-wrapped N, ...}. */
    @Override
    public String toString() {
      return "DEKs seen " + seen + ", re-wrapped " + rewrapped + ", would re-wrap " + wouldRewrap + ", skipped "
          + skipped + ", failed " + failed;
    }
  }

  /**
   * The walk stopped before the end: the KMS or the registry could not answer for now (retriable), or the KMS
   * refused this deployment's settings or credentials (a {@link RuleDeploymentException} cause: fix them first).
   */
  public static final class StoppedException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Counts counts;

    StoppedException(String message, Counts counts, Throwable cause) {
      super(message, cause);
      this.counts = counts;
    }

    /** What was done before it stopped. */
    public Counts counts() {
      return counts;
    }
  }

  /**
   * Re-wraps the DEKs of a KEK.
   *
   * @param subject the one subject whose DEKs to re-wrap, or null for every subject with DEKs under the KEK
   * @param deleted whether soft-deleted DEKs are re-wrapped too (a reader of old records may need them)
   * @param dryRun whether to write nothing
   * @param results told of each DEK version as it is done
   * @return the counts
   * @throws IllegalArgumentException when the registry has no such KEK
   * @throws StoppedException when the KMS or the registry could not answer for now, or the KMS refused this
   *     deployment's settings or credentials, with what was done so far
   * @throws RuleException when no KMS driver or client can be made for the KEK (a missing setting)
   */
  public Counts run(String kekName, String subject, boolean deleted, boolean dryRun, Consumer<Result> results) {
    Counts counts = new Counts(0, 0, 0, 0, 0);
    KmsClient kms = null;
    try {
      Kek kek = registry.kek(kekName, deleted)
          .orElseThrow(() -> new IllegalArgumentException("the DEK registry has no KEK '" + kekName + "'"));
      kms = kek.shared() ? null : client(kek);
      List<String> subjects = subject != null ? List.of(subject) : registry.dekSubjects(kekName, deleted);
      for (String s : subjects) {
        for (String algorithm : ALGORITHMS) {
          for (int version : registry.dekVersions(kekName, s, algorithm, deleted)) {
            Optional<Dek> dek = registry.dek(kekName, s, algorithm, version, deleted);
            if (dek.isEmpty()) {
              continue; // deleted between the listing and the lookup
            }
            Result result = rewrap(kek, kms, dek.get(), dryRun, counts);
            counts = counts.plus(result.outcome());
            results.accept(result);
          }
        }
      }
      return counts;
    } catch (RegistryUnavailableException e) {
      throw new StoppedException("the schema registry could not answer for now (" + e.getMessage() + "); stopped "
          + "after " + counts + "; run again: re-wrapping is idempotent", counts, e);
    } finally {
      if (kms != null) {
        close(kms); // the KMS client is this run's own
      }
    }
  }

  private Result rewrap(Kek kek, KmsClient kms, Dek dek, boolean dryRun, Counts counts) {
    if (kek.shared()) {
      if (!dryRun) {
        registry.rewrapDek(dek, null);
      }
      return result(dek, dryRun ? Outcome.WOULD_REWRAP : Outcome.REWRAPPED, null);
    }
    if (dek.encryptedKeyMaterial() == null) {
      return result(dek, Outcome.SKIPPED, "no encrypted key material to re-wrap");
    }
    byte[] wrapped;
    try {
      wrapped = Base64.getDecoder().decode(dek.encryptedKeyMaterial());
    } catch (IllegalArgumentException e) {
      return result(dek, Outcome.FAILED, "its encrypted key material is not base64");
    }
    byte[] key = null;
    byte[] check = null;
    try {
      key = kms.decrypt(wrapped);
      byte[] rewrapped = kms.encrypt(key);
      if (Arrays.equals(rewrapped, wrapped)) {
        return result(dek, Outcome.SKIPPED, "the KMS wraps it as it is already wrapped");
      }
      check = kms.decrypt(rewrapped);
      if (!MessageDigest.isEqual(check, key)) {
        return result(dek, Outcome.FAILED, "the KMS's new wrapping does not unwrap to the same key; not written");
      }
      if (dryRun) {
        return result(dek, Outcome.WOULD_REWRAP, null);
      }
      String encoded = Base64.getEncoder().encodeToString(rewrapped);
      Dek stored = registry.rewrapDek(dek, encoded);
      if (!encoded.equals(stored.encryptedKeyMaterial())) {
        return result(dek, Outcome.FAILED, "the registry answered the rewrap with another wrapping");
      }
      return result(dek, Outcome.REWRAPPED, null);
    } catch (GeneralSecurityException e) {
      if (EncryptionKeys.isTransient(e)) {
        Counts done = counts;
        throw new StoppedException("the KMS of " + kek + " could not answer for now on " + dek + " ("
            + e.getMessage() + "); stopped after " + done + "; run again: re-wrapping is idempotent", done, e);
      }
      return result(dek, Outcome.FAILED, "the KMS refused: " + e.getMessage());
    } catch (RuleDeploymentException e) {
      // the deployment's settings or credentials, which every DEK of the KEK would meet: stop, keeping the counts
      Counts done = counts;
      throw new StoppedException("the KMS of " + kek + " refused this deployment's settings or credentials on " + dek
          + " (" + e.getMessage() + "); stopped after " + done + "; fix them and run again: re-wrapping is idempotent",
          done, e);
    } finally {
      if (key != null) {
        Arrays.fill(key, (byte) 0);
      }
      if (check != null) {
        Arrays.fill(check, (byte) 0);
      }
    }
  }

  private KmsClient client(Kek kek) {
    KmsDriver driver = drivers.driver(kek.kmsType());
    return driver.newClient(kek.kmsType() + "://" + kek.kmsKeyId(), KmsSettings.merged(kmsConfigs, kek, driver));
  }

  /** Closes the run's client; a driver's client that throws (which it should not) hides nothing of the run. */
  private static void close(KmsClient kms) {
    try {
      kms.close();
    } catch (RuntimeException e) {
      LOG.warn("cannot close {} ({})", kms, e.getClass().getName());
    }
  }

  private static Result result(Dek dek, Outcome outcome, String reason) {
    return new Result(dek.subject(), dek.algorithm(), dek.version(), dek.deleted(), outcome, reason);
  }
}
