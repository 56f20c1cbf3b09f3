package io.kavro.kms.gcp;

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
 * The serde with an ENCRYPT rule whose KEK is a {@code gcp-kms} key, through the double of Cloud KMS and Google's
 * token endpoint and the mock:// registry with its DEK registry: the driver is found by ServiceLoader, the KEK and
 * DEK are stored as Confluent's clients store them, wrong credentials fail for good naming the KEK, and a
 * throttling Cloud KMS fails writes and reads retriably, then they recover with nothing lost; no private key or
 * token in any message or log line.
 */
class GcpEncryptionEndToEndTest {
  private static final String KEY = GcpKmsDriverTest.KEY;

  @StartStop
  final MockWebServer server = new MockWebServer();

  private final ServiceAccount account = ServiceAccount.create("kavro@acme.iam.gserviceaccount.com");
  private final CloudKmsDouble kms = new CloudKmsDouble().account(account.email(), account.keys().getPublic())
      .key(KEY, account.email());
  private final String scope = "gcp-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @BeforeEach
  void register() {
    server.setDispatcher(kms);
    Serdes.registerEncryption(registry, "gcp-kek", "gcp-kms", KEY, "ERROR,ERROR");
  }

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private Map<String, Object> config(ServiceAccount credentials) {
    return Serdes.config(scope, credentials.settings(PARAM, server.url("/token").toString(),
        server.url("/").toString()));
  }

  private KafkaAvroSerializer serializer(ServiceAccount credentials) {
    return Serdes.serializer(config(credentials));
  }

  private KafkaAvroDeserializer deserializer(ServiceAccount credentials) {
    return Serdes.deserializer(config(credentials));
  }

  @Test
  void writesAndReads_keksAndDeksStoredAsConfluents() throws Exception {
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(account)) {
      written = serializer.serialize("people", person("ann"));
    }
    try (KafkaAvroDeserializer deserializer = deserializer(account)) {
      assertThat(ssnOf(deserializer.deserialize("people", written))).isEqualTo(SSN);
    }

    assertThat(new String(written, StandardCharsets.ISO_8859_1)).contains("ann").doesNotContain(SSN);
    Kek kek = registry.dekRegistry().kek("gcp-kek", false).orElseThrow();
    assertThat(kek.kmsType()).isEqualTo("gcp-kms");
    assertThat(kek.kmsKeyId()).isEqualTo(KEY);
    Dek dek = registry.dekRegistry().dek("gcp-kek", "people-value", "AES256_GCM", 1, false).orElseThrow();
    byte[] wrapped = Base64.getDecoder().decode(dek.encryptedKeyMaterial());
    // Stored as Cloud KMS answered it: Confluent's driver unwraps it with empty associated data.
    assertThat(CloudKmsDouble.versionOf(wrapped)).isEqualTo(1);
    assertThat(kms.decryptAsConfluent(KEY, wrapped)).hasSizeGreaterThanOrEqualTo(32); // the AES-256 key, as Tink serializes it
    assertThat(kms.paths()).containsExactly("POST /v1/" + KEY + ":encrypt", "POST /v1/" + KEY + ":decrypt");
  }

  /**
   * Whoever may create a KEK controls its kmsProps: a KEK that points the token endpoint and Cloud KMS at another
   * host is not followed (the executor's settings are used), and that host gets no request.
   */
  @Test
  void kekKmsProps_cannotRedirectTheTokenOrCloudKms() throws Exception {
    try (MockWebServer elsewhere = new MockWebServer()) {
      elsewhere.start();
      registry.dekRegistry().createKek(new Kek("gcp-kek", "gcp-kms", KEY, Map.of(
          "gcp.token.uri", elsewhere.url("/token").toString(), "gcp.kms.endpoint", elsewhere.url("/").toString()),
          null, false, false));
      byte[] written;
      try (KafkaAvroSerializer serializer = serializer(account)) {
        written = serializer.serialize("people", person("ann"));
      }
      try (KafkaAvroDeserializer deserializer = deserializer(account)) {
        assertThat(ssnOf(deserializer.deserialize("people", written))).isEqualTo(SSN);
      }
      assertThat(elsewhere.getRequestCount()).isZero();
      assertThat(kms.paths()).containsExactly("POST /v1/" + KEY + ":encrypt", "POST /v1/" + KEY + ":decrypt");
    }
  }

  @Test
  void wrongCredentials_failForGood_namingTheKekAndGooglesReason_neverTheKey() {
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(account)) {
      written = serializer.serialize("people", person("ann"));
    }
    ServiceAccount impostor = new ServiceAccount(account.email(), ServiceAccount.create("x").keys());
    String secret = impostor.privateKeyBase64().substring(0, 40);
    try (LogCapture logs = new LogCapture(); KafkaAvroDeserializer deserializer = deserializer(impostor)) {
      assertThatThrownBy(() -> deserializer.deserialize("people", written))
          .isInstanceOf(SerializationException.class).isNotInstanceOf(RetriableException.class)
          .hasMessageContaining("gcp-kek").hasMessageContaining(KEY).hasMessageContaining("invalid_grant")
          .satisfies(e -> GcpKmsDriverTest.assertNoSecret(e, impostor))
          .satisfies(e -> assertThat(io.kavro.serde.rules.Causes.find(e,
              io.kavro.serde.rules.RuleDeploymentException.class)).as("the deployment's fault").isPresent());
      assertThat(logs.lines()).noneMatch(line -> line.contains(secret) || line.contains("ya29."));
    }
  }

  @Test
  void throttlingCloudKms_failsRetriablyOnWriteAndRead_thenRecovers_nothingLost() {
    byte[] first;
    byte[] second;
    try (LogCapture logs = new LogCapture()) {
      try (KafkaAvroSerializer serializer = serializer(account)) {
        kms.throttle(1, 429);
        assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
            .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("encryptPii")
            .hasMessageContaining("RESOURCE_EXHAUSTED");
        first = serializer.serialize("people", person("ann"));
        second = serializer.serialize("people", person("bob"));
      }
      try (KafkaAvroDeserializer deserializer = deserializer(account)) {
        kms.throttle(1, 503);
        assertThatThrownBy(() -> deserializer.deserialize("people", first))
            .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("UNAVAILABLE");
        assertThat(ssnOf(deserializer.deserialize("people", first))).isEqualTo(SSN);
        assertThat(((GenericRecord) deserializer.deserialize("people", second)).get("name").toString())
            .isEqualTo("bob");
        assertThat(ssnOf(deserializer.deserialize("people", second))).isEqualTo(SSN);
      }
      String secret = account.privateKeyBase64().substring(0, 40);
      assertThat(logs.lines()).noneMatch(line -> line.contains(secret) || line.contains("ya29."));
    }
    assertThat(new String(first, StandardCharsets.ISO_8859_1)).doesNotContain(SSN);
  }
}
