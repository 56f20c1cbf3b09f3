package io.kavro.rules;

import static io.kavro.rules.Serdes.SSN;
import static io.kavro.rules.Serdes.inClear;
import static io.kavro.rules.Serdes.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.rules.encryption.FlakyKmsDriver;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.rules.Causes;
import io.kavro.serde.rules.RuleDeploymentException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 49, items 2 and 6: encryption fails closed. A KMS that throttles ({@code KmsUnavailableException}) fails
 * the record retriably on both sides, whatever {@code onFailure} says; every way an encryption rule is passed over
 * (an action that lets a failure through, a rule disabled by a setting or by its registration, {@code rules.ignore})
 * is warned of, once per rule and serde, naming the rule and the subject.
 */
class FailClosedTest {
  private static final Map<String, String> FLAKY_KMS = Map.of("encrypt.kek.name", "kek1", "encrypt.kms.type",
      FlakyKmsDriver.KMS_TYPE, "encrypt.kms.key.id", "key1");
  private static final String SECRET = "rule.executors._default_.param.secret";
  /** What the warnings of encryption rules passed over log as. */
  private static final String BYPASS_LOGGER_SAYS = "on subject 'people-value'";

  private final String scope = "fail-closed-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
    FlakyKmsDriver.reset();
  }

  private Map<String, Object> config(Object... keyValues) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "auto.register.schemas", false, "use.latest.version", true, SECRET, "s3cret"));
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    return config;
  }

  private KafkaAvroSerializer serializer(Object... keyValues) {
    return Serdes.serializer(config(keyValues));
  }

  private KafkaAvroDeserializer deserializer(Object... keyValues) {
    return Serdes.deserializer(config(keyValues));
  }

  private void register(String onFailure, boolean disabled) {
    Rule rule = new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
        FLAKY_KMS, null, null, onFailure, disabled);
    registry.register("people-value", Serdes.PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(rule), List.of(), null)));
  }

  /** A record of ann, written by a serializer whose KMS answers. */
  private byte[] writtenWithTheKey() {
    try (KafkaAvroSerializer serializer = serializer()) {
      return serializer.serialize("people", person("ann"));
    }
  }

  /** The WARN lines about rule encryptPii on subject people-value. */
  private static List<String> bypassWarnings(LogCapture logs) {
    return logs.lines(Level.WARN).stream()
        .filter(line -> line.contains("rule 'encryptPii'") && line.contains(BYPASS_LOGGER_SAYS)).toList();
  }

  // Item 2: a KMS outage is retriable, never passed over.

  @Test
  void writerWithNone_kmsThrottles_failsRetriably_neverPlaintext_thenEncrypts() {
    register("NONE", false);
    try (KafkaAvroSerializer serializer = serializer()) {
      FlakyKmsDriver.throttles.set(1);
      assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
          .isInstanceOf(RetriableException.class)
          .hasMessageContaining("encryptPii")
          .hasMessageContaining("Throttling");

      byte[] written = serializer.serialize("people", person("bob"));
      assertThat(inClear(written)).as("encrypted once the KMS answers").isFalse();
    }
  }

  @Test
  void readerWithErrorNone_kmsThrottles_failsRetriably_neverCiphertext_thenDecrypts() {
    register("ERROR,NONE", false);
    byte[] written = writtenWithTheKey();
    try (KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.throttles.set(1);
      assertThatThrownBy(() -> deserializer.deserialize("people", written))
          .isInstanceOf(RetriableException.class)
          .hasMessageContaining("encryptPii")
          .hasMessageContaining("Throttling");

      GenericRecord read = (GenericRecord) deserializer.deserialize("people", written);
      assertThat(read.get("ssn").toString()).isEqualTo(SSN);
    }
  }

  /** A driver that wraps its SDK's I/O failure in a plain GeneralSecurityException: an outage all the same. */
  @Test
  void readerWithErrorNone_kmsTimesOut_failsRetriably() {
    register("ERROR,NONE", false);
    byte[] written = writtenWithTheKey();
    try (KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.timeouts.set(1);
      assertThatThrownBy(() -> deserializer.deserialize("people", written))
          .isInstanceOf(RetriableException.class).hasMessageContaining("KMS call failed");
      assertThat(((GenericRecord) deserializer.deserialize("people", written)).get("ssn").toString()).isEqualTo(SSN);
    }
  }

  @Test
  void payloadEncryption_kmsThrottles_failsRetriably_bothSides() {
    Rule rule = new Rule("encryptPayload", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT_PAYLOAD",
        Set.of(), FLAKY_KMS, null, null, "NONE,NONE", false);
    registry.register("people-value", Serdes.PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(), List.of(rule), null)));
    byte[] written;
    try (KafkaAvroSerializer serializer = serializer()) {
      FlakyKmsDriver.throttles.set(1);
      assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
          .isInstanceOf(RetriableException.class).hasMessageContaining("encryptPayload");
      written = serializer.serialize("people", person("ann"));
    }
    assertThat(inClear(written)).isFalse();
    try (KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.throttles.set(1);
      assertThatThrownBy(() -> deserializer.deserialize("people", written))
          .isInstanceOf(RetriableException.class).hasMessageContaining("encryptPayload");
      assertThat(((GenericRecord) deserializer.deserialize("people", written)).get("ssn").toString()).isEqualTo(SSN);
    }
  }

  /** Review item 2: an SDK's unchecked timeout is an outage too, on both sides and for payload encryption. */
  @Test
  void writerWithNone_kmsSdkTimesOutUnchecked_failsRetriably_neverPlaintext() {
    register("NONE", false);
    try (KafkaAvroSerializer serializer = serializer()) {
      FlakyKmsDriver.uncheckedTimeouts.set(1);
      assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
          .isInstanceOf(RetriableException.class).hasMessageContaining("encryptPii")
          .hasMessageContaining("java.io.UncheckedIOException");
      assertThat(inClear(serializer.serialize("people", person("bob")))).isFalse();
    }
  }

  @Test
  void readerWithErrorNone_kmsSdkTimesOutUnchecked_failsRetriably_neverCiphertext() {
    register("ERROR,NONE", false);
    byte[] written = writtenWithTheKey();
    try (KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.uncheckedTimeouts.set(1);
      assertThatThrownBy(() -> deserializer.deserialize("people", written)).isInstanceOf(RetriableException.class);
      assertThat(((GenericRecord) deserializer.deserialize("people", written)).get("ssn").toString()).isEqualTo(SSN);
    }
  }

  @Test
  void payloadEncryptionWithNone_kmsSdkTimesOutUnchecked_failsRetriably() {
    Rule rule = new Rule("encryptPayload", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT_PAYLOAD",
        Set.of(), FLAKY_KMS, null, null, "NONE,NONE", false);
    registry.register("people-value", Serdes.PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(), List.of(rule), null)));
    try (KafkaAvroSerializer serializer = serializer()) {
      FlakyKmsDriver.uncheckedTimeouts.set(1);
      assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
          .isInstanceOf(RetriableException.class).hasMessageContaining("encryptPayload");
      assertThat(inClear(serializer.serialize("people", person("ann")))).isFalse();
    }
  }

  /**
   * A KMS call that fails on a setting of the deployment (an AWS profile that no profile file has) keeps its type
   * through the rule, both ways, so that Kavro's Connect converter fails the task rather than skip every record.
   */
  @Test
  void kmsCallFailingOnASetting_isADeploymentFault_bothWays() {
    register("ERROR,ERROR", false);
    byte[] written = writtenWithTheKey();
    try (KafkaAvroSerializer serializer = serializer(); KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.settingFaults.set(1);
      assertThatThrownBy(() -> serializer.serialize("people", person("bob"))).isNotInstanceOf(RetriableException.class)
          .hasStackTraceContaining(FlakyKmsDriver.SETTING_FAULT)
          .satisfies(e -> assertThat(Causes.find(e, RuleDeploymentException.class)).as("the type, kept").isPresent());
      FlakyKmsDriver.settingFaults.set(1);
      assertThatThrownBy(() -> deserializer.deserialize("people", written)).isNotInstanceOf(RetriableException.class)
          .hasStackTraceContaining(FlakyKmsDriver.SETTING_FAULT)
          .satisfies(e -> assertThat(Causes.find(e, RuleDeploymentException.class)).as("the type, kept").isPresent());
      assertThat(FlakyKmsDriver.settingFaults.get()).as("each fault met by a KMS call").isZero();
    }
  }

  /** An SDK's unchecked refusal is the rule's failure, and its message (which may name a secret) is shown nowhere. */
  @Test
  void readerWithErrorNone_kmsSdkRefusesUnchecked_failureWithoutTheSdksMessage() {
    register("ERROR,NONE", false);
    byte[] written = writtenWithTheKey();
    try (LogCapture logs = new LogCapture(); KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.uncheckedRefusals.set(1);
      GenericRecord read = (GenericRecord) deserializer.deserialize("people", written);
      assertThat(read.get("ssn").toString()).isNotEqualTo(SSN);
      assertThat(bypassWarnings(logs)).singleElement().asString().contains("java.lang.IllegalStateException");
      assertThat(logs.lines()).noneMatch(line -> line.contains(FlakyKmsDriver.SDK_SAYS));
    }
  }

  @Test
  void readerWithError_kmsSdkRefusesUnchecked_failsNotRetriably_withoutTheSdksMessage() {
    register(null, false);
    byte[] written = writtenWithTheKey();
    try (KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.uncheckedRefusals.set(1);
      Throwable failed = org.assertj.core.api.Assertions.catchThrowable(
          () -> deserializer.deserialize("people", written));
      assertThat(failed).isNotNull().isNotInstanceOf(RetriableException.class);
      for (Throwable t = failed; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).doesNotContain(FlakyKmsDriver.SDK_SAYS);
      }
    }
  }

  /** A KMS that refuses for good is the rule's failure: its action decides, and the pass is warned of. */
  @Test
  void readerWithErrorNone_kmsRefuses_passesCiphertext_warnedOnce() {
    register("ERROR,NONE", false);
    byte[] written = writtenWithTheKey();
    try (LogCapture logs = new LogCapture(); KafkaAvroDeserializer deserializer = deserializer()) {
      FlakyKmsDriver.refusals.set(2);
      GenericRecord first = (GenericRecord) deserializer.deserialize("people", written);
      GenericRecord second = (GenericRecord) deserializer.deserialize("people", written);

      assertThat(first.get("ssn").toString()).isNotEqualTo(SSN).isBase64();
      assertThat(second.get("ssn").toString()).isNotEqualTo(SSN);
      assertThat(bypassWarnings(logs)).singleElement().asString()
          .contains("onFailure action NONE").contains("ciphertext").contains("AccessDenied")
          .doesNotContain(SSN);
    }
  }

  // Item 6: every pass over an encryption rule is warned of, once per rule and serde.

  @Test
  void readerWithWrongSecret_passesCiphertext_warnedOncePerSerde() {
    register("ERROR,NONE", false);
    byte[] written = writtenWithTheKey();
    try (LogCapture logs = new LogCapture()) {
      try (KafkaAvroDeserializer deserializer = deserializer(SECRET, "guess-42")) {
        for (int i = 0; i < 3; i++) {
          GenericRecord read = (GenericRecord) deserializer.deserialize("people", written);
          assertThat(read.get("ssn").toString()).isNotEqualTo(SSN);
        }
      }
      assertThat(bypassWarnings(logs)).singleElement().asString().contains("ciphertext")
          .doesNotContain("guess-42");
      try (KafkaAvroDeserializer another = deserializer(SECRET, "guess-42")) {
        another.deserialize("people", written);
      }
      assertThat(bypassWarnings(logs)).as("once per serde").hasSize(2);
    }
  }

  @Test
  void writerWithNone_ruleFails_writesPlaintext_warnedOnce() {
    register("NONE", false);
    try (LogCapture logs = new LogCapture(); KafkaAvroSerializer serializer = serializer()) {
      FlakyKmsDriver.refusals.set(1);
      byte[] written = serializer.serialize("people", person("ann"));
      assertThat(inClear(written)).as("NONE lets the record through").isTrue();
      assertThat(bypassWarnings(logs)).singleElement().asString().contains("onFailure action NONE")
          .contains("plaintext").doesNotContain(SSN);
    }
  }

  @Test
  void encryptDisabledBySetting_writesPlaintext_warnedNamingTheSetting() {
    register(null, false);
    try (LogCapture logs = new LogCapture();
        KafkaAvroSerializer serializer = serializer("rule.executors._ENCRYPT_.disabled", "true")) {
      assertThat(inClear(serializer.serialize("people", person("ann")))).isTrue();
      assertThat(inClear(serializer.serialize("people", person("bob")))).isTrue();
      assertThat(bypassWarnings(logs)).singleElement().asString()
          .contains("rule.executors._ENCRYPT_.disabled=true").contains("plaintext");
    }
  }

  @Test
  void encryptRegisteredDisabled_warned() {
    register(null, true);
    try (LogCapture logs = new LogCapture(); KafkaAvroSerializer serializer = serializer()) {
      assertThat(inClear(serializer.serialize("people", person("ann")))).isTrue();
      assertThat(bypassWarnings(logs)).singleElement().asString().contains("\"disabled\": true");
    }
  }

  @Test
  void rulesIgnore_warnedOnEachSide() {
    register(null, false);
    byte[] written = writtenWithTheKey();
    try (LogCapture logs = new LogCapture();
        KafkaAvroSerializer ignoring = serializer("rules.ignore", true);
        KafkaAvroDeserializer reading = deserializer("rules.ignore", true)) {
      assertThat(inClear(ignoring.serialize("people", person("bob")))).isTrue();
      assertThat(inClear(ignoring.serialize("people", person("cy")))).isTrue();
      reading.deserialize("people", written);
      reading.deserialize("people", written);
      assertThat(bypassWarnings(logs)).hasSize(2).allSatisfy(line -> assertThat(line).contains("rules.ignore=true"));
    }
  }

  /**
   * Review item 4: a {@code __rule.name} header (a dead letter's, forwarded; or anyone's who can write the topic)
   * never skips an encryption rule: written encrypted, read decrypted, and the header is warned of once.
   */
  @Test
  void ruleNameHeader_neverSkipsEncryption_eitherWay() {
    register("ERROR,ERROR", false);
    org.apache.kafka.common.header.internals.RecordHeaders headers =
        new org.apache.kafka.common.header.internals.RecordHeaders();
    headers.add("__rule.name", "encryptPii".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    try (LogCapture logs = new LogCapture(); KafkaAvroSerializer serializer = serializer();
        KafkaAvroDeserializer deserializer = deserializer()) {
      byte[] written = serializer.serialize("people", headers, person("ann"));
      assertThat(inClear(written)).as("encrypted, whatever the header says").isFalse();
      assertThat(inClear(serializer.serialize("people", headers, person("bob")))).isFalse();

      GenericRecord read = (GenericRecord) deserializer.deserialize("people", headers, written);
      assertThat(read.get("ssn").toString()).as("decrypted, whatever the header says").isEqualTo(SSN);
      assertThat(logs.lines(Level.WARN)).filteredOn(line -> line.contains("__rule.name")).hasSize(2)
          .allSatisfy(line -> assertThat(line).contains("rule 'encryptPii'").contains("never skipped"));
    }
  }

  /** A rule that runs as it should is not warned of. */
  @Test
  void encryptRunning_noWarning() {
    register("ERROR,NONE", false);
    try (LogCapture logs = new LogCapture(); KafkaAvroSerializer serializer = serializer();
        KafkaAvroDeserializer deserializer = deserializer()) {
      byte[] written = serializer.serialize("people", person("ann"));
      assertThat(((GenericRecord) deserializer.deserialize("people", written)).get("ssn").toString()).isEqualTo(SSN);
      assertThat(bypassWarnings(logs)).isEmpty();
    }
  }
}
