package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import io.kavro.registry.mock.MockRegistries;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DekRewrap} when the KMS ({@link FlakyKmsDriver}) throttles mid-way: it stops with what was done and a
 * retriable message, and a second run finishes with every key unchanged.
 */
class DekRewrapTest {
  private static final String SECRET = "s3cret-kek-value";

  private final String scope = "dek-rewrap-unit-" + UUID.randomUUID();
  private final DekRegistry deks = MockRegistries.scope(scope).dekRegistry();
  private final KmsClient local =
      new LocalKmsDriver(name -> null).newClient("local-kms://k", Map.of("secret", SECRET));

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
    FlakyKmsDriver.reset();
  }

  @Test
  void aThrottlingKms_stopsTheRun_retriably_andARerunFinishes() throws GeneralSecurityException {
    deks.createKek(new Kek("kek1", FlakyKmsDriver.KMS_TYPE, "k", Map.of(), null, false, false));
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      byte[] key = new byte[32];
      key[0] = (byte) i;
      deks.createDek("kek1", "s" + i + "-value", "AES256_GCM", 1,
          Base64.getEncoder().encodeToString(local.encrypt(key)));
      keys.add(Base64.getEncoder().encodeToString(key));
    }
    DekRewrap rewrap = new DekRewrap(deks, Map.of("secret", SECRET), new KmsDrivers(List.of(new FlakyKmsDriver())));
    AtomicInteger done = new AtomicInteger();

    // After the second DEK, the KMS throttles its next call: the third DEK's unwrap.
    assertThatThrownBy(() -> rewrap.run("kek1", null, true, false, result -> {
      if (done.incrementAndGet() == 2) {
        FlakyKmsDriver.throttles.set(1);
      }
    }))
        .isInstanceOfSatisfying(DekRewrap.StoppedException.class, e -> {
          assertThat(e.counts()).isEqualTo(new DekRewrap.Counts(2, 2, 0, 0, 0));
          assertThat(e.getMessage()).contains("could not answer for now").contains("s2-value")
              .contains("Throttling").contains("run again").doesNotContain(SECRET);
          assertThat(e.getCause()).isInstanceOf(KmsUnavailableException.class);
        });

    DekRewrap.Counts again = rewrap.run("kek1", null, true, false, result -> { });

    assertThat(again).isEqualTo(new DekRewrap.Counts(10, 10, 0, 0, 0));
    for (int i = 0; i < 10; i++) {
      byte[] key = local.decrypt(Base64.getDecoder().decode(
          deks.dek("kek1", "s" + i + "-value", "AES256_GCM", 1, false).orElseThrow().encryptedKeyMaterial()));
      assertThat(Base64.getEncoder().encodeToString(key)).isEqualTo(keys.get(i));
    }
  }

  /**
   * Credentials the KMS refuses halfway through a run (a session token that expired) stop it, keeping the counts,
   * rather than fail every DEK left or escape without them.
   */
  @Test
  void refusedCredentials_stopTheRun_withWhatWasDone() throws GeneralSecurityException {
    deks.createKek(new Kek("kek1", FlakyKmsDriver.KMS_TYPE, "k", Map.of(), null, false, false));
    for (int i = 0; i < 4; i++) {
      deks.createDek("kek1", "s" + i + "-value", "AES256_GCM", 1,
          Base64.getEncoder().encodeToString(local.encrypt(new byte[32])));
    }
    DekRewrap rewrap = new DekRewrap(deks, Map.of("secret", SECRET), new KmsDrivers(List.of(new FlakyKmsDriver())));
    AtomicInteger done = new AtomicInteger();

    assertThatThrownBy(() -> rewrap.run("kek1", null, true, false, result -> {
      if (done.incrementAndGet() == 1) {
        FlakyKmsDriver.settingFaults.set(1);
      }
    }))
        .isInstanceOfSatisfying(DekRewrap.StoppedException.class, e -> {
          assertThat(e.counts()).isEqualTo(new DekRewrap.Counts(1, 1, 0, 0, 0));
          assertThat(e.getMessage()).contains("refused this deployment's settings or credentials")
              .contains(FlakyKmsDriver.SETTING_FAULT).contains("fix them and run again").doesNotContain(SECRET);
          assertThat(e.getCause()).isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class);
        });
  }

  /**
   * The local KMS, with one setting ({@code test.endpoint}) only the executor's settings may set, as the GCP
   * driver's endpoint; it records the settings each client is made with, and its clients' close throws when asked.
   */
  private static final class GuardedKmsDriver implements KmsDriver {
    final List<Map<String, ?>> made = new ArrayList<>();
    final AtomicInteger closes = new AtomicInteger();
    final boolean closeThrows;

    GuardedKmsDriver(boolean closeThrows) {
      this.closeThrows = closeThrows;
    }

    @Override
    public String kmsType() {
      return "guarded-kms";
    }

    @Override
    public java.util.Set<String> executorOnlySettings() {
      return java.util.Set.of("test.endpoint");
    }

    @Override
    public KmsClient newClient(String kekUrl, Map<String, ?> configs) {
      made.add(configs);
      KmsClient local = new LocalKmsDriver(name -> null).newClient("local-kms://k", configs);
      return new KmsClient() {
        @Override
        public byte[] encrypt(byte[] plaintext) throws GeneralSecurityException {
          return local.encrypt(plaintext);
        }

        @Override
        public byte[] decrypt(byte[] ciphertext) throws GeneralSecurityException {
          return local.decrypt(ciphertext);
        }

        @Override
        public void close() {
          closes.incrementAndGet();
          if (closeThrows) {
            throw new IllegalStateException("cannot close");
          }
        }
      };
    }
  }

  private void oneDek(String kekName, Map<String, String> kmsProps) throws GeneralSecurityException {
    deks.createKek(new Kek(kekName, "guarded-kms", "k", kmsProps, null, false, false));
    deks.createDek(kekName, "s-value", "AES256_GCM", 1,
        Base64.getEncoder().encodeToString(local.encrypt(new byte[32])));
  }

  /** A KEK's creator cannot point the run's credentials elsewhere: an executor-only setting in kmsProps is ignored. */
  @Test
  void aKeksKmsProps_cannotSetAnExecutorOnlySetting() throws GeneralSecurityException {
    oneDek("kek1", Map.of("test.endpoint", "https://attacker.example", "other", "kek's"));
    GuardedKmsDriver driver = new GuardedKmsDriver(false);
    DekRewrap rewrap = new DekRewrap(deks, Map.of("secret", SECRET, "test.endpoint", "https://kms.example"),
        new KmsDrivers(List.of(driver)));

    assertThat(rewrap.run("kek1", null, false, false, result -> { })).isEqualTo(new DekRewrap.Counts(1, 1, 0, 0, 0));

    assertThat(driver.made).singleElement().satisfies(configs -> {
      assertThat(configs.get("test.endpoint")).isEqualTo("https://kms.example");
      assertThat(configs.get("other")).as("any other kmsProps applies").isEqualTo("kek's");
    });
  }

  /** A client whose close throws (which it should not) hides neither the run's counts nor its stop. */
  @Test
  void aClientWhoseCloseThrows_hidesNeitherTheCountsNorTheStop() throws GeneralSecurityException {
    oneDek("kek1", Map.of());
    GuardedKmsDriver driver = new GuardedKmsDriver(true);
    DekRewrap rewrap = new DekRewrap(deks, Map.of("secret", SECRET), new KmsDrivers(List.of(driver)));

    assertThat(rewrap.run("kek1", null, false, true, result -> { })).isEqualTo(new DekRewrap.Counts(1, 0, 1, 0, 0));
    assertThatThrownBy(() -> rewrap.run("kek1", null, false, true, result -> {
      throw new io.kavro.registry.RegistryUnavailableException("registry down", 503, 0, "http://registry", null);
    })).isInstanceOf(DekRewrap.StoppedException.class);
    assertThat(driver.closes).hasValue(2);
  }
}
