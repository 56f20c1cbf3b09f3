package io.kavro.kms.aws;

import static io.kavro.kms.aws.AwsKmsDriverTest.ACCESS_KEY_ID;
import static io.kavro.kms.aws.AwsKmsDriverTest.SECRET;
import static io.kavro.rules.Serdes.PARAM;
import static io.kavro.rules.Serdes.PERSON;
import static io.kavro.rules.Serdes.SSN;
import static io.kavro.rules.Serdes.inClear;
import static io.kavro.rules.Serdes.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.rules.Serdes;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RetriableSerdeException;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.RuleDeploymentException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The serde with an ENCRYPT rule whose KEK is in AWS KMS (the double, through {@code aws.endpointUrlKms}), on a
 * {@code mock://} registry with its DEK registry: records written and read; the DEK stored as AWS's blob; a wrong
 * secret a final error naming the KEK, the key and AWS's reason; a throttling KMS a retriable error on write and on
 * read, whatever {@code onFailure} says, and nothing lost once it answers; no secret in any message or log line.
 */
class AwsKmsSerdeTest {
  private static final String KEK = "kek-aws";

  private final String scope = "kms-aws-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);
  private AwsKmsDouble kms;
  private String keyArn;
  private String savedEndpoint;

  @BeforeEach
  void start() throws Exception {
    kms = AwsKmsDouble.start().credentials(ACCESS_KEY_ID, SECRET);
    keyArn = kms.createKey("eu-central-1", "0f1e2d3c-aaaa-bbbb-cccc-1234567890ab");
    savedEndpoint = System.getProperty("aws.endpointUrlKms");
    System.setProperty("aws.endpointUrlKms", kms.url());
  }

  @AfterEach
  void stop() {
    kms.close();
    MockRegistries.drop(scope);
    if (savedEndpoint == null) {
      System.clearProperty("aws.endpointUrlKms");
    } else {
      System.setProperty("aws.endpointUrlKms", savedEndpoint);
    }
  }

  private void register(String onFailure) {
    Serdes.registerEncryption(registry, KEK, "aws-kms", keyArn, onFailure);
  }

  private Map<String, Object> config(String secret) {
    return Serdes.config(scope, Map.of(PARAM + "access.key.id", ACCESS_KEY_ID, PARAM + "secret.access.key", secret));
  }

  private KafkaAvroSerializer serializer(String secret) {
    return Serdes.serializer(config(secret));
  }

  private KafkaAvroDeserializer deserializer(String secret) {
    return Serdes.deserializer(config(secret));
  }

  @Test
  void writeThenRead_theDekIsWrappedByAwsKms() {
    register("ERROR,ERROR");
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(SECRET)) {
      written = serializer.serialize("people", person("ann"));
    }
    assertThat(inClear(written)).isFalse();
    try (KafkaAvroDeserializer deserializer = deserializer(SECRET)) {
      GenericRecord read = (GenericRecord) deserializer.deserialize("people", written);
      assertThat(read.get("ssn").toString()).isEqualTo(SSN);
      assertThat(read.get("name").toString()).isEqualTo("ann");
    }

    Dek dek = registry.dekRegistry().dek(KEK, "people-value", "AES256_GCM", 1, false).orElseThrow();
    AwsKmsDouble.Request encrypt = kms.requests("Encrypt").get(0);
    assertThat(dek.encryptedKeyMaterial()).as("AWS's CiphertextBlob, stored as it is")
        .isEqualTo(encrypt.answer().path("CiphertextBlob").asText());
    assertThat(encrypt.body().has("EncryptionContext")).isFalse();
    assertThat(registry.dekRegistry().kek(KEK, false).orElseThrow())
        .satisfies(kek -> assertThat(kek.kmsType()).isEqualTo("aws-kms"))
        .satisfies(kek -> assertThat(kek.kmsKeyId()).isEqualTo(keyArn));
    assertThat(kms.requests("Decrypt")).singleElement()
        .satisfies(r -> assertThat(Base64.getDecoder().decode(r.body().path("CiphertextBlob").asText()))
            .isEqualTo(Base64.getDecoder().decode(dek.encryptedKeyMaterial())));
  }

  @Test
  void payloadEncryption_writeThenRead_andThrottlingRetriable() {
    Rule rule = new Rule("encryptPayload", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT_PAYLOAD",
        Set.of(), Map.of("encrypt.kek.name", KEK, "encrypt.kms.type", "aws-kms", "encrypt.kms.key.id", keyArn),
        null, null, "NONE,NONE", false);
    registry.register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(), List.of(rule), null)));
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer(SECRET)) {
      kms.fail(100, AwsKmsDouble.Outage.THROTTLING);
      assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
          .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("encryptPayload");
      kms.fail(0, AwsKmsDouble.Outage.THROTTLING);
      written = serializer.serialize("people", person("ann"));
    }
    assertThat(new String(written, StandardCharsets.ISO_8859_1)).doesNotContain("ann").doesNotContain(SSN);
    try (KafkaAvroDeserializer deserializer = deserializer(SECRET)) {
      assertThat(((GenericRecord) deserializer.deserialize("people", written)).get("ssn").toString()).isEqualTo(SSN);
    }
  }

  @Test
  void wrongSecret_failsForGood_namingKekKeyAndReason_neverTheSecret() {
    register("ERROR,ERROR");
    String wrong = "notTheSecretKAVRO000000000000000000000000";
    try (LogCapture logs = new LogCapture()) {
      try (KafkaAvroSerializer serializer = serializer(wrong)) {
        assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
            .isInstanceOf(SerializationException.class).isNotInstanceOf(RetriableException.class)
            .hasMessageContaining(KEK).hasMessageContaining(keyArn).hasMessageContaining("InvalidSignatureException")
            .satisfies(e -> AwsKmsDriverTest.assertNoSecret(e, wrong))
            .satisfies(e -> assertThat(Causes.find(e, RuleDeploymentException.class)).as("deployment's").isPresent());
      }
      byte[] written;
      try (KafkaAvroSerializer serializer = serializer(SECRET)) {
        written = serializer.serialize("people", person("bob"));
      }
      try (KafkaAvroDeserializer deserializer = deserializer(wrong)) {
        assertThatThrownBy(() -> deserializer.deserialize("people", written))
            .isInstanceOf(SerializationException.class).isNotInstanceOf(RetriableException.class)
            .hasMessageContaining(KEK).hasMessageContaining(keyArn).hasMessageContaining("InvalidSignatureException")
            .satisfies(e -> AwsKmsDriverTest.assertNoSecret(e, wrong))
            .satisfies(e -> assertThat(Causes.find(e, RuleDeploymentException.class)).as("deployment's").isPresent());
      }
      assertThat(String.join("\n", logs.lines())).doesNotContain(wrong).doesNotContain(SECRET);
    }
  }

  @Test
  void throttlingKms_retriableOnWriteAndRead_thenNothingLost() {
    register("NONE,NONE"); // even a rule that lets failures through
    byte[] first;
    byte[] second;
    try (LogCapture logs = new LogCapture()) {
      try (KafkaAvroSerializer serializer = serializer(SECRET)) {
        kms.fail(100, AwsKmsDouble.Outage.THROTTLING);
        assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
            .isInstanceOf(RetriableSerdeException.class)
            .hasMessageContaining("encryptPii").hasMessageContaining("ThrottlingException");
        kms.fail(0, AwsKmsDouble.Outage.THROTTLING);
        first = serializer.serialize("people", person("ann"));
        second = serializer.serialize("people", person("bob"));
      }
      assertThat(inClear(first)).isFalse();
      assertThat(inClear(second)).isFalse();
      try (KafkaAvroDeserializer deserializer = deserializer(SECRET)) {
        kms.fail(100, AwsKmsDouble.Outage.UNAVAILABLE);
        assertThatThrownBy(() -> deserializer.deserialize("people", first))
            .isInstanceOf(RetriableSerdeException.class).hasMessageContaining("encryptPii");
        kms.fail(0, AwsKmsDouble.Outage.THROTTLING);
        assertThat(((GenericRecord) deserializer.deserialize("people", first)).get("ssn").toString()).isEqualTo(SSN);
        assertThat(((GenericRecord) deserializer.deserialize("people", second)).get("name").toString())
            .isEqualTo("bob");
      }
      assertThat(String.join("\n", logs.lines())).doesNotContain(SECRET);
    }
  }

  @Test
  void serdesClosed_closeTheirAwsSdkClients_closingTwiceHarmless() {
    register("ERROR,ERROR");
    int open = AwsSdk.open();
    KafkaAvroSerializer serializer = serializer(SECRET);
    byte[] written = serializer.serialize("people", person("ann"));
    KafkaAvroDeserializer deserializer = deserializer(SECRET);
    deserializer.deserialize("people", written);
    assertThat(AwsSdk.open()).as("the writer's and the reader's").isEqualTo(open + 2);

    serializer.close();
    serializer.close();
    assertThat(AwsSdk.open()).isEqualTo(open + 1);
    deserializer.close();
    deserializer.close();
    assertThat(AwsSdk.open()).isEqualTo(open);
  }
}
