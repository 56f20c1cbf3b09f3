package io.kavro.registry.mock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryException;
import io.kavro.registry.UnsupportedRegistryApiException;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Kek;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code mock://} DEK registry: Confluent's semantics, one per scope. */
class InMemoryDekRegistryTest {
  private static final Kek KEK = new Kek("kek1", "local-kms", "mykey", Map.of("secret", "s"), null, false, false);

  private final DekRegistry deks = new InMemoryDekRegistry(Clock.fixed(Instant.ofEpochMilli(1718000000000L),
      ZoneOffset.UTC));

  @Test
  void kek_createdThenFound_aSecondCreateReturnsTheFirst() {
    assertThat(deks.kek("kek1", false)).isEmpty();

    assertThat(deks.createKek(KEK)).isEqualTo(KEK);
    Kek other = new Kek("kek1", "aws-kms", "arn:other", Map.of(), "doc", true, false);

    assertThat(deks.createKek(other)).isEqualTo(KEK);
    assertThat(deks.kek("kek1", false)).contains(KEK);
    assertThat(deks.kek("kek1", true)).contains(KEK);
  }

  @Test
  void dek_versionsFromOne_latestIsTheHighest_timestampSet() {
    deks.createKek(KEK);

    Dek first = deks.createDek("kek1", "orders-value", "AES256_GCM", 1, "AQIDBA==");
    Dek second = deks.createDek("kek1", "orders-value", "AES256_GCM", 2, "BQYHCA==");

    assertThat(first).isEqualTo(new Dek("kek1", "orders-value", 1, "AES256_GCM", "AQIDBA==", null, 1718000000000L,
        false));
    assertThat(second).isEqualTo(new Dek("kek1", "orders-value", 2, "AES256_GCM", "BQYHCA==", null,
        1718000000000L, false));
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).contains(second);
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 1, false)).contains(first);
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 3, false)).isEmpty();
    assertThat(deks.dek("kek1", "orders-value", "AES256_SIV", DekRegistry.LATEST, false)).isEmpty();
    assertThat(deks.dek("kek1", "other-value", "AES256_GCM", DekRegistry.LATEST, false)).isEmpty();
  }

  @Test
  void createDek_existingVersion_returnsTheOneThere() {
    deks.createKek(KEK);
    Dek first = deks.createDek("kek1", "orders-value", "AES256_GCM", 1, "AQIDBA==");

    assertThat(deks.createDek("kek1", "orders-value", "AES256_GCM", 1, "CQoLDA==")).isEqualTo(first);
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 1, false).get().encryptedKeyMaterial())
        .isEqualTo("AQIDBA==");
  }

  @Test
  void createDek_withoutAlgorithm_isAes256Gcm() {
    deks.createKek(KEK);

    assertThat(deks.createDek("kek1", "orders-value", null, 1, "AQIDBA==").algorithm()).isEqualTo("AES256_GCM");
    assertThat(deks.dek("kek1", "orders-value", "AES256_GCM", 1, false)).isPresent();
  }

  @Test
  void createDek_withoutKek_isKeyNotFound() {
    assertThatThrownBy(() -> deks.createDek("kek1", "orders-value", "AES256_GCM", 1, "AQIDBA=="))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("create DEK version 1 of KEK 'kek1', subject 'orders-value' failed: Key 'kek1' not found "
            + "(mock://)")
        .satisfies(e -> assertThat(((SchemaNotFoundException) e).errorCode()).isEqualTo(40470));
  }

  @Test
  void createDek_withoutMaterial_sharedKek_isUnsupported_otherwiseInvalid() {
    deks.createKek(KEK);
    deks.createKek(new Kek("shared1", "local-kms", "mykey", Map.of(), null, true, false));

    assertThatThrownBy(() -> deks.createDek("shared1", "orders-value", "AES256_GCM", 1, null))
        .isInstanceOf(UnsupportedRegistryApiException.class)
        .hasMessageContaining("shared KEKs are not supported by mock://");
    assertThatThrownBy(() -> deks.createDek("kek1", "orders-value", "AES256_GCM", 1, null))
        .isInstanceOf(SchemaRegistryException.class)
        .hasMessageContaining("needs its encryptedKeyMaterial")
        .satisfies(e -> assertThat(((SchemaRegistryException) e).status()).isEqualTo(422));
    assertThat(deks.dek("shared1", "orders-value", "AES256_GCM", DekRegistry.LATEST, false)).isEmpty();
  }

  @Test
  void createDek_versionZero_isRefused() {
    deks.createKek(KEK);

    assertThatThrownBy(() -> deks.createDek("kek1", "orders-value", "AES256_GCM", 0, "AQIDBA=="))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be at least 1");
  }

  @Test
  void scope_sharedByItsClients_andDroppedWithIt() {
    String scope = "dek-registry-test-" + System.nanoTime();
    try {
      InMemorySchemaRegistry registry = (InMemorySchemaRegistry) MockRegistries.scope(scope);
      registry.dekRegistry().createKek(KEK);

      assertThat(MockRegistries.scope(scope).dekRegistry().kek("kek1", false)).contains(KEK);
      assertThat(MockRegistries.scope("other-" + scope).dekRegistry().kek("kek1", false)).isEmpty();

      MockRegistries.drop(scope);

      assertThat(MockRegistries.scope(scope).dekRegistry().kek("kek1", false)).isEmpty();
    } finally {
      MockRegistries.drop(scope);
      MockRegistries.drop("other-" + scope);
    }
  }
}
