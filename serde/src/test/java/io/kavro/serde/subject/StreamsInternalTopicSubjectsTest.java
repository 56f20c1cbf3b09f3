package io.kavro.serde.subject;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.AvroSerdeConfig;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** Issue 23, item 5: which topics are a Streams application's internal ones, and what names their subjects. */
class StreamsInternalTopicSubjectsTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[]}""");

  private final StreamsInternalTopicSubjects subjects =
      new StreamsInternalTopicSubjects("shop", new TopicNameStrategy());

  @Test
  void internalTopics_namedByRecord_othersAsConfigured() {
    assertThat(subjects.subjectName("shop-latest-order-changelog", false, ORDER)).isEqualTo("com.acme.Order");
    assertThat(subjects.subjectName("shop-KSTREAM-AGGREGATE-0000000003-repartition", true, ORDER))
        .isEqualTo("com.acme.Order");
    assertThat(subjects.subjectName("orders", false, ORDER)).isEqualTo("orders-value");
    assertThat(subjects.subjectName("shop-audit", false, ORDER)).isEqualTo("shop-audit-value");
    assertThat(subjects.subjectName("other-app-store-changelog", false, ORDER))
        .as("another application's changelog is a topic like any").isEqualTo("other-app-store-changelog-value");
    assertThat(subjects.subjectName("shopping-store-changelog", false, ORDER))
        .as("the prefix is the application id and a dash").isEqualTo("shopping-store-changelog-value");
  }

  @Test
  void config_recordWithoutApplicationId_refusedNamingBoth_topicByDefault() {
    assertThatThrownBy(() -> new AvroSerdeConfig(Map.of("schema.registry.url", "mock://x",
        "streams.internal.topics.subject", "record"), false))
        .isInstanceOf(ConfigException.class).hasMessageContaining("streams.internal.topics.subject")
        .hasMessageContaining("application.id");
    assertThatThrownBy(() -> new AvroSerdeConfig(Map.of("schema.registry.url", "mock://x",
        "streams.internal.topics.subject", "store"), false)).isInstanceOf(ConfigException.class)
        .hasMessageContaining("topic, record");

    AvroSerdeConfig record = new AvroSerdeConfig(Map.of("schema.registry.url", "mock://x",
        "streams.internal.topics.subject", "record", "application.id", "shop"), false);
    assertThat(record.subjectNameStrategy().subjectName("shop-s-changelog", false, ORDER)).isEqualTo("com.acme.Order");
    AvroSerdeConfig byDefault = new AvroSerdeConfig(Map.of("schema.registry.url", "mock://x", "application.id",
        "shop"), false);
    assertThat(byDefault.subjectNameStrategy().subjectName("shop-s-changelog", false, ORDER))
        .isEqualTo("shop-s-changelog-value");
  }
}
