package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.subject.RecordNameStrategy;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * A registry whose ids count per subject (schema-repo) works only where the subject is known from the topic
 * before a record is decoded: any other subject name strategy is refused at configure, naming the key and why.
 * Reading and writing on such a registry are tested end to end against the real server in tests/integration.
 */
class PerSubjectIdsTest {
  private static Map<String, Object> schemaRepo() {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", "http://127.0.0.1:1/schema-repo");
    config.put("schema.registry.api", "schema-repo");
    return config;
  }

  @Test
  void recordNameStrategy_isRefusedAtConfigure_namingTheKeyAndWhy() {
    Map<String, Object> config = schemaRepo();
    config.put("value.subject.name.strategy", RecordNameStrategy.class.getName());

    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      assertThatThrownBy(() -> deserializer.configure(config, false))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("value.subject.name.strategy")
          .hasMessageContaining("schema-repo")
          .hasMessageContaining("per subject")
          .hasMessageContaining("TopicNameStrategy");
    }
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      assertThatThrownBy(() -> serializer.configure(config, false))
          .isInstanceOf(ConfigException.class).hasMessageContaining("value.subject.name.strategy");
    }
  }

  @Test
  void keys_nameTheKeyStrategy() {
    Map<String, Object> config = schemaRepo();
    config.put("key.subject.name.strategy", RecordNameStrategy.class.getName());

    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      assertThatThrownBy(() -> deserializer.configure(config, true))
          .isInstanceOf(ConfigException.class).hasMessageContaining("key.subject.name.strategy");
    }
  }

  @Test
  void streamsInternalTopicsByRecordName_isRefusedToo() {
    Map<String, Object> config = schemaRepo();
    config.put("streams.internal.topics.subject", "record");
    config.put("application.id", "app");

    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      assertThatThrownBy(() -> deserializer.configure(config, false))
          .isInstanceOf(ConfigException.class).hasMessageContaining("streams.internal.topics.subject=topic");
    }
  }

  /** The default, AssociatedNameStrategy, names the topic's subject there only with its fallback TOPIC. */
  @Test
  void associatedNameStrategy_fallingBackByRecordName_isRefused() {
    Map<String, Object> config = schemaRepo();
    config.put("subject.name.strategy.fallback.type", "RECORD");

    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      assertThatThrownBy(() -> serializer.configure(config, false))
          .isInstanceOf(ConfigException.class).hasMessageContaining("value.subject.name.strategy")
          .hasMessageContaining("AssociatedNameStrategy");
    }
  }

  @Test
  void theDefault_configures() {
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
        KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      assertThatCode(() -> deserializer.configure(schemaRepo(), false)).doesNotThrowAnyException();
      assertThatCode(() -> serializer.configure(schemaRepo(), false)).doesNotThrowAnyException();
    }
  }

  @Test
  void idTranslation_fromOrToSuchARegistry_isRefusedAtConfigure() {
    Map<String, Object> confluent = Map.of("schema.registry.url", "http://127.0.0.1:1");
    assertThatThrownBy(() -> new SchemaIdTranslator(schemaRepo(), confluent, false))
        .isInstanceOf(ConfigException.class).hasMessageContaining("source registry numbers schemas per subject");
    assertThatThrownBy(() -> new SchemaIdTranslator(confluent, schemaRepo(), false))
        .isInstanceOf(ConfigException.class).hasMessageContaining("target registry");
  }
}
