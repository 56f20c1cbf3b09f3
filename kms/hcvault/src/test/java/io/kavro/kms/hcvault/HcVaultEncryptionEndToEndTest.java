package io.kavro.kms.hcvault;

import static io.kavro.rules.Serdes.PARAM;
import static io.kavro.rules.Serdes.SSN;
import static io.kavro.rules.Serdes.person;
import static io.kavro.rules.Serdes.ssnOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.contract.Kek;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.rules.Serdes;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RetriableSerdeException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The serde with an ENCRYPT rule whose KEK is an {@code hcvault} key, through the double of Vault's transit API and
 * the mock:// registry with its DEK registry: the driver is found by ServiceLoader, the KEK and DEK are stored as
 * Confluent's clients store them, a wrong token fails for good naming the KEK, and a throttling or sealed Vault
 * fails writes and reads retriably, then they recover with nothing lost; no token in any message or log line.
 */
class HcVaultEncryptionEndToEndTest {
  private static final String TOKEN = "hvs.e2e-T0KEN-secret";
  private static final String TOKEN_SETTING = PARAM + "token.id";

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final VaultTransitDouble vault = new VaultTransitDouble(TOKEN).key("transit", "people");
  private final String scope = "hcvault-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);
  private String keyId;

  @BeforeEach
  void register() {
    server.setDispatcher(vault);
    String address = server.url("/").toString();
    keyId = address + "transit/keys/people";
    Serdes.registerEncryption(registry, "vault-kek", "hcvault", keyId, "ERROR,ERROR");
  }

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private Map<String, Object> config(String token) {
    return Serdes.config(scope, Map.of(TOKEN_SETTING, token));
  }

  private KafkaAvroSerializer serializer(String token) {
    return Serdes.serializer(config(token));
  }

  private KafkaAvroDeserializer deserializer(String token) {
    return Serdes.deserializer(config(token));
  }

  @Test
  void writesAndReads_keksAndDeksStoredAsConfluents() {
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(TOKEN)) {
      written = serializer.serialize("people", person("ann"));
    }
    try (KafkaAvroDeserializer deserializer = deserializer(TOKEN)) {
      assertThat(ssnOf(deserializer.deserialize("people", written))).isEqualTo(SSN);
    }

    assertThat(new String(written, StandardCharsets.ISO_8859_1)).contains("ann").doesNotContain(SSN);
    Kek kek = registry.dekRegistry().kek("vault-kek", false).orElseThrow();
    assertThat(kek.kmsType()).isEqualTo("hcvault");
    assertThat(kek.kmsKeyId()).isEqualTo(keyId);
    Dek dek = registry.dekRegistry().dek("vault-kek", "people-value", "AES256_GCM", 1, false).orElseThrow();
    assertThat(new String(Base64.getDecoder().decode(dek.encryptedKeyMaterial()), StandardCharsets.UTF_8))
        .matches("vault:v1:[A-Za-z0-9+/=]+");
    assertThat(vault.paths()).containsExactly("POST /v1/transit/encrypt/people", "POST /v1/transit/decrypt/people");
  }

  @Test
  void wrongToken_failsForGood_namingTheKekAndVaultsReason_neverTheToken() {
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(TOKEN)) {
      written = serializer.serialize("people", person("ann"));
    }
    try (LogCapture logs = new LogCapture(); KafkaAvroDeserializer deserializer = deserializer("hvs.stolen-GUESS")) {
      assertThatThrownBy(() -> deserializer.deserialize("people", written))
          .isInstanceOf(SerializationException.class).isNotInstanceOf(RetriableException.class)
          .hasMessageContaining("vault-kek").hasMessageContaining("permission denied")
          .hasMessageContaining(keyId).hasMessageNotContaining("hvs.stolen-GUESS");
      assertThat(logs.lines()).noneMatch(line -> line.contains("hvs.stolen-GUESS") || line.contains(TOKEN));
    }
  }

  @Test
  void throttledOrSealedVault_failsRetriablyOnWriteAndRead_thenRecovers_nothingLost() {
    byte[] first;
    byte[] second;
    try (LogCapture logs = new LogCapture()) {
      try (KafkaAvroSerializer serializer = serializer(TOKEN)) {
        vault.throttle(1, 429);
        assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
            .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("encryptPii")
            .hasMessageContaining("HTTP 429");
        first = serializer.serialize("people", person("ann"));
        second = serializer.serialize("people", person("bob"));
      }
      try (KafkaAvroDeserializer deserializer = deserializer(TOKEN)) {
        vault.throttle(1, 503);
        assertThatThrownBy(() -> deserializer.deserialize("people", first))
            .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("HTTP 503");
        assertThat(ssnOf(deserializer.deserialize("people", first))).isEqualTo(SSN);
        assertThat(((GenericRecord) deserializer.deserialize("people", second)).get("name").toString())
            .isEqualTo("bob");
        assertThat(ssnOf(deserializer.deserialize("people", second))).isEqualTo(SSN);
      }
      assertThat(logs.lines()).noneMatch(line -> line.contains(TOKEN));
    }
    assertThat(new String(first, StandardCharsets.ISO_8859_1)).doesNotContain(SSN);
  }

  @Test
  void serdesClosed_closeTheirVaultHttpClients_closingTwiceHarmless() {
    int open = VaultHttp.open();
    KafkaAvroSerializer serializer = serializer(TOKEN);
    byte[] written = serializer.serialize("people", person("ann"));
    KafkaAvroDeserializer deserializer = deserializer(TOKEN);
    assertThat(ssnOf(deserializer.deserialize("people", written))).isEqualTo(SSN);
    assertThat(VaultHttp.open()).as("the writer's and the reader's").isEqualTo(open + 2);

    serializer.close();
    serializer.close();
    assertThat(VaultHttp.open()).isEqualTo(open + 1);
    deserializer.close();
    deserializer.close();
    assertThat(VaultHttp.open()).isEqualTo(open);
  }
}
