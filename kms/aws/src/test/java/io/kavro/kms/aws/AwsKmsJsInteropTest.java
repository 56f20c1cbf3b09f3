package io.kavro.kms.aws;

import static io.kavro.kms.aws.AwsKmsDriverTest.ACCESS_KEY_ID;
import static io.kavro.kms.aws.AwsKmsDriverTest.SECRET;
import static io.kavro.rules.Serdes.PERSON;
import static io.kavro.rules.Serdes.SSN;
import static io.kavro.rules.Serdes.inClear;
import static io.kavro.rules.Serdes.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.rules.ConfluentRegistryDouble;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.JsPeer;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Kavro and Confluent's JavaScript client (tests/js-peer, its own {@code AwsKmsDriver} on {@code @aws-sdk/client-kms})
 * on one registry and one AWS KMS (the double, reached by both SDKs through their endpoint override:
 * {@code AWS_ENDPOINT_URL_KMS} for JavaScript, {@code aws.endpointUrlKms} for Java): each wraps a DEK under an
 * {@code aws-kms} KEK and writes, the other unwraps it and reads.
 */
class AwsKmsJsInteropTest {
  private static final String RECORD_JSON = "{\"name\":\"ann\",\"ssn\":\"" + SSN + "\",\"age\":30}";
  private static final String KEK = "kek-interop";

  /** Variables of the AWS SDK that the test's environment must not pass on to the peer. */
  private static final List<String> AWS_VARIABLES = List.of("AWS_PROFILE", "AWS_ROLE_ARN", "AWS_SESSION_TOKEN",
      "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ENDPOINT_URL", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE");

  private JsPeer peer;
  private AwsKmsDouble kms;
  private final MockWebServer registryServer = new MockWebServer();
  private ConfluentRegistryDouble registry;
  private String keyArn;
  private String savedEndpoint;

  @BeforeEach
  void start() throws Exception {
    peer = JsPeer.require();
    kms = AwsKmsDouble.start().credentials(ACCESS_KEY_ID, SECRET);
    keyArn = kms.createKey("ap-southeast-2", "7c6b5a49-1111-2222-3333-444455556666");
    registry = new ConfluentRegistryDouble("people-value", PERSON.toString(), """
        {"domainRules":[{"name":"encryptPii","kind":"TRANSFORM","mode":"WRITEREAD","type":"ENCRYPT","tags":["PII"],
         "params":{"encrypt.kek.name":"%s","encrypt.kms.type":"aws-kms","encrypt.kms.key.id":"%s"},
         "onFailure":"ERROR,ERROR","disabled":false}]}""".formatted(KEK, keyArn));
    registryServer.setDispatcher(registry);
    registryServer.start();
    savedEndpoint = System.getProperty("aws.endpointUrlKms");
    System.setProperty("aws.endpointUrlKms", kms.url());
  }

  @AfterEach
  void stop() {
    if (registry != null) {
      registryServer.close();
      kms.close();
    }
    if (savedEndpoint == null) {
      System.clearProperty("aws.endpointUrlKms");
    } else {
      System.setProperty("aws.endpointUrlKms", savedEndpoint);
    }
  }

  private String registryUrl() {
    return "http://127.0.0.1:" + registryServer.getPort();
  }

  /** The AWS SDK's endpoint and credentials as a user of the JavaScript client sets them, none of the test's. */
  private void jsEnvironment(Map<String, String> environment) {
    AWS_VARIABLES.forEach(environment::remove);
    environment.put("AWS_EC2_METADATA_DISABLED", "true");
    environment.putAll(Map.of("AWS_ENDPOINT_URL_KMS", kms.url(), "AWS_ACCESS_KEY_ID", ACCESS_KEY_ID,
        "AWS_SECRET_ACCESS_KEY", SECRET));
  }

  private Map<String, Object> kavroConfig() {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", registryUrl(),
        "auto.register.schemas", false, "use.latest.version", true));
    config.put("rule.executors._default_.param.access.key.id", ACCESS_KEY_ID);
    config.put("rule.executors._default_.param.secret.access.key", SECRET);
    return config;
  }

  @Test
  void jsWrites_kavroReads() throws Exception {
    String written = peer.run(this::jsEnvironment, "serialize", registryUrl(), "people", RECORD_JSON).line();
    byte[] bytes = Base64.getDecoder().decode(written);
    assertThat(inClear(bytes)).isFalse();
    String jsBlob = registry.encryptedKeyMaterial(KEK, "AES256_GCM");
    assertThat(kms.requests("Encrypt")).singleElement().satisfies(r -> {
      assertThat(r.body().has("EncryptionContext")).as("Confluent's JS client sends none").isFalse();
      assertThat(r.answer().path("CiphertextBlob").asText()).as("stored as AWS answered").isEqualTo(jsBlob);
    });

    int jsDecrypts = kms.requests("Decrypt").size(); // the JS client unwraps the DEK it has just made
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(kavroConfig(), false);
      GenericRecord read = (GenericRecord) deserializer.deserialize("people", bytes);
      assertThat(read.get("ssn").toString()).isEqualTo(SSN);
      assertThat(read.get("name").toString()).isEqualTo("ann");
    }
    assertThat(kms.requests("Decrypt")).hasSize(jsDecrypts + 1).last().satisfies(r -> {
      assertThat(r.body().path("KeyId").asText()).isEqualTo(keyArn);
      assertThat(r.body().path("CiphertextBlob").asText()).isEqualTo(jsBlob);
    });
  }

  @Test
  void kavroWrites_jsReads() throws Exception {
    byte[] bytes;
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(kavroConfig(), false);
      bytes = serializer.serialize("people", person("ann"));
    }
    assertThat(inClear(bytes)).isFalse();
    assertThat(registry.encryptedKeyMaterial(KEK, "AES256_GCM"))
        .isEqualTo(kms.requests("Encrypt").get(0).answer().path("CiphertextBlob").asText());

    String read = peer.run(this::jsEnvironment, "deserialize", registryUrl(), "people",
        Base64.getEncoder().encodeToString(bytes)).line();

    assertThat(read).isEqualTo(RECORD_JSON);
    assertThat(kms.requests("Decrypt")).singleElement().satisfies(r -> {
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.accessKeyId()).isEqualTo(ACCESS_KEY_ID);
    });
  }
}
