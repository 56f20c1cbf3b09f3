package io.kavro.rules;

import static io.kavro.rules.Serdes.person;
import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.rules.encryption.FlakyKmsDriver;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 50: a serde releases the KMS clients its encryption executors made when it closes, each once, so that a
 * producer closed and made again (a Connect task restarting) leaves no SDK client, connection or thread behind.
 */
class KmsClientLifecycleTest {
  private final String scope = "kms-lifecycle-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @BeforeEach
  void register() {
    FlakyKmsDriver.reset();
    Serdes.registerEncryption(registry, "kek1", FlakyKmsDriver.KMS_TYPE, "key1", null);
  }

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
    FlakyKmsDriver.reset();
  }

  private Map<String, Object> config() {
    return Serdes.config(scope, Map.of(Serdes.PARAM + "secret", "s3cret"));
  }

  @Test
  void serializerClosed_closesItsKmsClientOnce_evenWhenClosedTwice() {
    KafkaAvroSerializer serializer = Serdes.serializer(config());
    serializer.serialize("people", person("ann"));
    serializer.serialize("people", person("bob"));
    assertThat(FlakyKmsDriver.made).hasValue(1);
    assertThat(FlakyKmsDriver.closes).hasValue(0);

    serializer.close();
    assertThat(FlakyKmsDriver.closes).hasValue(1);
    serializer.close();
    assertThat(FlakyKmsDriver.closes).hasValue(1);
  }

  @Test
  void serdesRemadeAndClosed_leaveNoKmsClientOpen() {
    for (int i = 0; i < 3; i++) {
      byte[] payload;
      try (KafkaAvroSerializer serializer = Serdes.serializer(config())) {
        payload = serializer.serialize("people", person("ann"));
      }
      try (KafkaAvroDeserializer deserializer = Serdes.deserializer(config())) {
        GenericRecord read = (GenericRecord) deserializer.deserialize("people", payload);
        assertThat(read.get("ssn")).hasToString(Serdes.SSN);
      }
    }

    assertThat(FlakyKmsDriver.made.get()).isPositive();
    assertThat(FlakyKmsDriver.closes).hasValue(FlakyKmsDriver.made.get());
  }
}
