package io.kavro.rules;

import static io.kavro.rules.Serdes.SSN;
import static io.kavro.rules.Serdes.inClear;
import static io.kavro.rules.Serdes.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.junit5.StartStop;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 49, item 1: one 404 from the DEK registry that is not the DEK registry's own answer (a proxy's HTML page, a
 * JSON {@code error_code} 404, a {@code 40400}) is an outage: the record fails retriably, whatever the rule's
 * {@code onFailure} says, and the records after it are encrypted and decrypted as ever. Through the serde's own
 * classes, over HTTP, against a Confluent registry double.
 */
class DekRegistryOutageTest {
  private static final String[] FAULTS = {"<html><body><h1>404 Not Found</h1></body></html>",
      "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}", "{\"error_code\":40400,\"message\":\"Not found\"}"};

  @StartStop
  final MockWebServer server = new MockWebServer();

  private static String ruleSet(String onFailure) {
    return "{\"domainRules\":[{\"name\":\"encryptPii\",\"kind\":\"TRANSFORM\",\"mode\":\"WRITEREAD\","
        + "\"type\":\"ENCRYPT\",\"tags\":[\"PII\"],\"params\":{\"encrypt.kek.name\":\"kek1\","
        + "\"encrypt.kms.type\":\"local-kms\",\"encrypt.kms.key.id\":\"key1\"},\"onFailure\":\"" + onFailure + "\"}]}";
  }

  private ConfluentRegistryDouble registry(String onFailure, String fault) {
    ConfluentRegistryDouble registry = new ConfluentRegistryDouble("people-value", Serdes.PERSON.toString(), ruleSet(onFailure));
    registry.faultBody = fault;
    server.setDispatcher(registry);
    return registry;
  }

  private Map<String, Object> config() {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/").toString());
    config.put("auto.register.schemas", false);
    config.put("use.latest.version", true);
    config.put("max.retries", 0);
    config.put("retries.wait.ms", 1);
    config.put("retries.max.wait.ms", 5);
    config.put("rule.executors._default_.param.secret", "s3cret");
    return config;
  }

  private KafkaAvroSerializer serializer() {
    return Serdes.serializer(config());
  }

  private KafkaAvroDeserializer deserializer() {
    return Serdes.deserializer(config());
  }

  /** Keys kept for no time: every record asks the DEK registry, so an interrupt meets the rule's own call. */
  private Map<String, Object> keysNotKept() {
    Map<String, Object> config = config();
    config.put("rule.executors._default_.param.cache.expiry.secs", "0");
    return config;
  }

  /**
   * Issue 49 review, item 1: a thread interrupted while the rule asks the DEK registry is interrupted, not the rule's
   * failure: a writer with onFailure NONE writes nothing, in plaintext least of all.
   */
  @Test
  void writerWithNone_interruptedDuringTheDekCall_throwsInterrupt_writesNothing() {
    registry("NONE", FAULTS[0]);
    try (KafkaAvroSerializer serializer = Serdes.serializer(keysNotKept())) {
      assertThat(inClear(serializer.serialize("people", person("ann")))).isFalse(); // the schema is warm
      Thread.currentThread().interrupt();
      byte[][] written = new byte[1][];
      assertThatThrownBy(() -> written[0] = serializer.serialize("people", person("bob")))
          .isInstanceOf(InterruptException.class);
      assertThat(written[0]).as("nothing written").isNull();
    } finally {
      Thread.interrupted();
    }
  }

  /** A writer with onFailure NONE: the record in the outage fails retriably; none is written in plaintext. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void writerWithNone_transient404_failsRetriably_thenEncrypts(int fault) {
    ConfluentRegistryDouble registry = registry("NONE", FAULTS[fault]);
    try (KafkaAvroSerializer serializer = serializer()) {
      registry.dekFaults.set(1);
      assertThatThrownBy(() -> serializer.serialize("people", person("ann")))
          .isInstanceOf(RetriableException.class)
          .hasMessageContaining("KEK 'kek1'");

      for (String name : new String[] {"bob", "cy"}) {
        byte[] written = serializer.serialize("people", person(name));
        assertThat(inClear(written)).as("record of " + name + " is encrypted").isFalse();
        assertThat(new String(written, StandardCharsets.ISO_8859_1)).contains(name);
      }
    }
    assertThat(registry.targets).as("no missing API learned: the core API is never probed")
        .doesNotContain("GET /config");
  }

  /** A reader with "ERROR,NONE": the record in the outage fails retriably, is not handed on as ciphertext. */
  @ParameterizedTest
  @ValueSource(ints = {0, 1, 2})
  void readerWithErrorNone_transient404_failsRetriably_thenDecrypts(int fault) {
    ConfluentRegistryDouble registry = registry("ERROR,NONE", FAULTS[fault]);
    byte[] first;
    byte[] second;
    try (KafkaAvroSerializer serializer = serializer()) {
      first = serializer.serialize("people", person("ann"));
      second = serializer.serialize("people", person("bob"));
    }
    assertThat(inClear(first)).isFalse();

    try (KafkaAvroDeserializer deserializer = deserializer()) {
      registry.dekFaults.set(1);
      assertThatThrownBy(() -> deserializer.deserialize("people", first))
          .isInstanceOf(RetriableException.class);

      GenericRecord again = (GenericRecord) deserializer.deserialize("people", first);
      GenericRecord next = (GenericRecord) deserializer.deserialize("people", second);
      assertThat(again.get("ssn").toString()).isEqualTo(SSN);
      assertThat(next.get("ssn").toString()).isEqualTo(SSN);
      assertThat(next.get("name").toString()).isEqualTo("bob");
    }
  }
}
