package io.kavro.kms.azure;

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
import java.security.SecureRandom;
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
 * The serde with an ENCRYPT rule whose KEK is an {@code azure-kms} key, through the double of Key Vault and Entra
 * ID over HTTPS and the mock:// registry with its DEK registry: the driver is found by ServiceLoader, the KEK and
 * DEK are stored as Confluent's clients store them, a wrong client secret fails for good naming the KEK, a
 * throttling Key Vault fails writes and reads retriably and then they recover with nothing lost, and a DEK in the
 * {@code azure:v1:} form (Confluent's {@code encrypt.azure.key.version.save}) is read after the key rotates; no
 * secret in any message or log line.
 */
class AzureEncryptionEndToEndTest {
  private static final String SECRET = "e2e~Azure-Cl1ent.S3cret-value";

  static {
    TestTls.CA.certificate(); // the JVM's trust store, before any TLS
  }

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final KeyVaultDouble vault = new KeyVaultDouble(SECRET);
  private final String scope = "azure-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);
  private String version;
  private String keyId;

  @BeforeEach
  void register() {
    vault.serveOn(server);
    version = vault.addVersion("people");
  }

  private void contract(String kmsKeyId) {
    keyId = kmsKeyId;
    Serdes.registerEncryption(registry, "azure-kek", "azure-kms", kmsKeyId, "ERROR,ERROR");
  }

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private Map<String, Object> config(String secret) {
    return Serdes.config(scope, Map.of(PARAM + "tenant.id", KeyVaultDouble.TENANT, PARAM + "client.id",
        KeyVaultDouble.CLIENT, PARAM + "client.secret", secret));
  }

  private KafkaAvroSerializer serializer(String secret) {
    return Serdes.serializer(config(secret));
  }

  private KafkaAvroDeserializer deserializer(String secret) {
    return Serdes.deserializer(config(secret));
  }

  @Test
  void writesAndReads_kekAndDekStoredAsConfluents() {
    contract(vault.keyUrl("kavro", "people") + "/" + version);
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(SECRET)) {
      written = serializer.serialize("people", person("ann"));
    }
    try (KafkaAvroDeserializer deserializer = deserializer(SECRET)) {
      assertThat(ssnOf(deserializer.deserialize("people", written))).isEqualTo(SSN);
    }

    assertThat(new String(written, StandardCharsets.ISO_8859_1)).contains("ann").doesNotContain(SSN);
    Kek kek = registry.dekRegistry().kek("azure-kek", false).orElseThrow();
    assertThat(kek.kmsType()).isEqualTo("azure-kms");
    assertThat(kek.kmsKeyId()).isEqualTo(keyId);
    Dek dek = registry.dekRegistry().dek("azure-kek", "people-value", "AES256_GCM", 1, false).orElseThrow();
    assertThat(Base64.getDecoder().decode(dek.encryptedKeyMaterial())).hasSize(256); // raw RSA-OAEP-256
    assertThat(vault.operations()).contains("POST /keys/people/" + version + "/encrypt",
        "POST /keys/people/" + version + "/decrypt");
  }

  @Test
  void wrongClientSecret_failsForGood_namingTheKekAndAzuresReason_neverTheSecret() {
    contract(vault.keyUrl("kavro", "people") + "/" + version);
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(SECRET)) {
      written = serializer.serialize("people", person("ann"));
    }
    String wrong = "stolen~GUESS-of-the-secret";
    try (LogCapture logs = new LogCapture(); KafkaAvroDeserializer deserializer = deserializer(wrong)) {
      assertThatThrownBy(() -> deserializer.deserialize("people", written))
          .isInstanceOf(SerializationException.class).isNotInstanceOf(RetriableException.class)
          .hasMessageContaining("azure-kek").hasMessageContaining("AADSTS7000215")
          .hasMessageContaining(keyId).hasMessageNotContaining(wrong).hasMessageNotContaining(SECRET)
          .satisfies(e -> assertThat(io.kavro.serde.rules.Causes.find(e,
              io.kavro.serde.rules.RuleDeploymentException.class)).as("the deployment's fault").isPresent());
      assertThat(logs.lines()).noneMatch(line -> line.contains(wrong) || line.contains(SECRET));
    }
  }

  @Test
  void throttlingKeyVault_failsRetriablyOnWriteAndRead_thenRecovers_nothingLost() {
    contract(vault.keyUrl("kavro", "people") + "/" + version);
    byte[] first;
    byte[] second;
    try (LogCapture logs = new LogCapture()) {
      try (KafkaAvroSerializer serializer = serializer(SECRET)) {
        vault.throttle(100, 429);
        assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
            .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("encryptPii")
            .hasMessageContaining("429");
        vault.throttle(0, 429);
        first = serializer.serialize("people", person("ann"));
        second = serializer.serialize("people", person("bob"));
      }
      try (KafkaAvroDeserializer deserializer = deserializer(SECRET)) {
        vault.throttle(100, 503);
        assertThatThrownBy(() -> deserializer.deserialize("people", first))
            .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("503");
        vault.throttle(0, 503);
        assertThat(ssnOf(deserializer.deserialize("people", first))).isEqualTo(SSN);
        GenericRecord bob = (GenericRecord) deserializer.deserialize("people", second);
        assertThat(bob.get("name").toString()).isEqualTo("bob");
        assertThat(ssnOf(bob)).isEqualTo(SSN);
      }
      assertThat(logs.lines()).noneMatch(line -> line.contains(SECRET));
    }
    assertThat(new String(first, StandardCharsets.ISO_8859_1)).doesNotContain(SSN);
  }

  @Test
  void readsAndWritesWithADekInTheAzureV1Form_afterTheKeyRotates() throws Exception {
    String versionless = vault.keyUrl("kavro", "people");
    contract(versionless);
    byte[] rawDek = new byte[34]; // Tink's AES-GCM key as Confluent's clients store it: 1A 20, then 32 bytes
    new SecureRandom().nextBytes(rawDek);
    rawDek[0] = 0x1A;
    rawDek[1] = 0x20;
    byte[] stored = concat(("azure:v1:" + version + ":").getBytes(StandardCharsets.US_ASCII),
        vault.encrypt("people", version, rawDek));
    registry.dekRegistry().createKek(new Kek("azure-kek", "azure-kms", versionless,
        Map.of("encrypt.azure.key.version.save", "true"), null, false, false));
    registry.dekRegistry().createDek("azure-kek", "people-value", "AES256_GCM", 1,
        Base64.getEncoder().encodeToString(stored));

    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(SECRET)) {
      written = serializer.serialize("people", person("ann"));
    }
    vault.addVersion("people"); // rotated: the versionless id now names another key
    try (KafkaAvroDeserializer deserializer = deserializer(SECRET)) {
      assertThat(ssnOf(deserializer.deserialize("people", written))).isEqualTo(SSN);
    }
    assertThat(vault.operations()).isNotEmpty()
        .allMatch(operation -> operation.equals("POST /keys/people/" + version + "/decrypt")
            || operation.equals("GET /keys/people/" + version));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
