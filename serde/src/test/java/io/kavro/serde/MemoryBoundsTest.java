package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import java.lang.management.ManagementFactory;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** 100,000 distinct schemas through one serializer: its caches stay within their bound. */
class MemoryBoundsTest {
  private static final int SCHEMAS = 100_000;
  private static final int BOUND = 500;

  @Test
  void hundredThousandSchemas_cachesStayBounded() {
    try (Serdes serdes = new Serdes()) {
      Map<String, Object> config = serdes.config("max.schemas.per.subject", BOUND,
          "value.subject.name.strategy", "RecordNameStrategy");
      SchemaRegistryClient client = SchemaRegistryClients.create(config);
      KafkaAvroSerializer serializer = new KafkaAvroSerializer(client, config, false);
      long heapBefore = usedHeapAfterGc();

      for (int i = 0; i < SCHEMAS; i++) {
        Schema schema = Schema.createRecord("R" + i, null, "io.kavro.bounds", false,
            java.util.List.of(new Schema.Field("f", Schema.create(Schema.Type.INT))));
        GenericRecord record = new GenericData.Record(schema);
        record.put("f", i);
        serializer.serialize("bounds", record);
      }

      // The registry client's own caches are bounded by the same setting: CachingSchemaRegistryClientTest.
      assertThat(serializer.cachedSchemas()).isLessThanOrEqualTo(BOUND);
      long heapAfter = usedHeapAfterGc();
      // The in-memory registry itself holds all 100,000 schemas; the serializer's own share is bounded.
      System.out.printf("heap after GC: %,d KB before, %,d KB after %,d schemas (registry included)%n",
          heapBefore / 1024, heapAfter / 1024, SCHEMAS);
    }
  }

  /**
   * Issue 54: a serializer keeps a datum schema's routes for at most {@code max.schemas.per.subject} topics; a topic
   * evicted gets its route again, and its records still read back.
   */
  @Test
  void topicsOfOneSchema_boundedByMaxSchemas_evictedTopicWritesAgain() {
    try (Serdes serdes = new Serdes("max.schemas.per.subject", 5)) {
      KafkaAvroSerializer serializer = serdes.serializer();
      KafkaAvroDeserializer deserializer = serdes.deserializer();
      GenericRecord record = new GenericData.Record(WRITER);
      record.put("f", 7);

      for (int i = 0; i < 20; i++) {
        serializer.serialize("t" + i, record);
      }

      assertThat(serializer.cachedTopics(WRITER)).isEqualTo(5);
      for (int i = 0; i < 20; i++) {
        assertThat(deserializer.deserialize("t" + i, serializer.serialize("t" + i, record))).isEqualTo(record);
      }
      assertThat(serializer.cachedTopics(WRITER)).isEqualTo(5);
    }
  }

  /**
   * Issue 54: a deserializer that reads with each subject's latest version keeps route tables for at most {@code
   * max.schemas.per.subject} topics; an evicted topic's records are read again with its own subject's latest
   * version, never with another topic's.
   */
  @Test
  void topicRouteTables_boundedByMaxSchemas_evictedTopicReadsWithItsOwnLatest() {
    try (Serdes serdes = new Serdes("max.schemas.per.subject", 5)) {
      SchemaRegistryClient registry = serdes.registry();
      java.util.List<byte[]> payloads = new java.util.ArrayList<>();
      for (int i = 0; i < 20; i++) {
        int id = registry.register("t" + i + "-value", WRITER);
        registry.register("t" + i + "-value", readerOf("t" + i));
        payloads.add(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id, 14});
      }
      KafkaAvroDeserializer deserializer = serdes.deserializer("use.latest.version", true);

      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 20; i++) {
          GenericRecord read = (GenericRecord) deserializer.deserialize("t" + i, payloads.get(i));
          assertThat(read.get("f")).isEqualTo(7);
          assertThat(read.get("g")).as("topic t" + i + ", round " + round).hasToString("t" + i);
        }
        assertThat(deserializer.cachedTopics()[0]).as("topics with route tables").isEqualTo(5);
      }
    }
  }

  /**
   * Issue 54: where topics may be in schema contexts (a strategy of the application's), a deserializer keeps the
   * context of at most {@code max.schemas.per.subject} topics.
   */
  @Test
  void topicContexts_boundedByStrategyCacheSize() {
    try (Serdes serdes = new Serdes("subject.name.strategy.cache.size", 5,
        "value.subject.name.strategy", OwnTopicStrategy.class.getName())) {
      KafkaAvroSerializer serializer = serdes.serializer();
      KafkaAvroDeserializer deserializer = serdes.deserializer();
      GenericRecord record = new GenericData.Record(WRITER);
      record.put("f", 7);

      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 20; i++) {
          assertThat(deserializer.deserialize("t" + i, serializer.serialize("t" + i, record))).isEqualTo(record);
        }
        assertThat(deserializer.cachedTopics()[1]).as("topics whose context is kept").isEqualTo(5);
      }
    }
  }

  /**
   * Issue 54: a deserializer keeps the shared route tables of at most {@code schema.registry.contexts.cache.size}
   * schema contexts; each topic here is in a context of its own, where id 1 is its own schema: a context evicted is
   * read again with its own schema of the id, never another context's.
   */
  @Test
  void contextRouteTables_boundedByContextsCacheSize_evictedContextReadsItsOwnSchema() {
    try (Serdes serdes = new Serdes("schema.registry.contexts.cache.size", 3,
        "value.subject.name.strategy", ContextPerTopicStrategy.class.getName())) {
      KafkaAvroSerializer serializer = serdes.serializer();
      KafkaAvroDeserializer deserializer = serdes.deserializer();
      java.util.List<GenericRecord> records = new java.util.ArrayList<>();
      java.util.List<byte[]> payloads = new java.util.ArrayList<>();
      for (int i = 0; i < 10; i++) {
        Schema schema = Schema.createRecord("T" + i, null, "io.kavro.bounds", false,
            java.util.List.of(new Schema.Field("f" + i, Schema.create(Schema.Type.INT))));
        GenericRecord record = new GenericData.Record(schema);
        record.put("f" + i, i);
        records.add(record);
        payloads.add(serializer.serialize("t" + i, record));
      }
      assertThat(java.util.Arrays.copyOfRange(payloads.get(0), 0, 5))
          .as("each context numbers its schemas apart: the same id in every topic")
          .isEqualTo(java.util.Arrays.copyOfRange(payloads.get(9), 0, 5));

      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 10; i++) {
          assertThat(deserializer.deserialize("t" + i, payloads.get(i))).as("t%d, round %d", i, round)
              .isEqualTo(records.get(i));
        }
        assertThat(deserializer.cachedTopics()[2]).as("contexts with shared route tables").isEqualTo(3);
      }
    }
  }

  /** Puts each topic in a schema context of its own, {@code :.<topic>:}. */
  public static final class ContextPerTopicStrategy implements io.kavro.serde.subject.SubjectNameStrategy {
    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      return ":." + topic + ":" + topic + (isKey ? "-key" : "-value");
    }
  }

  /** Names the subject as TopicNameStrategy does, but is the application's own: topics may be in contexts. */
  public static final class OwnTopicStrategy implements io.kavro.serde.subject.SubjectNameStrategy {
    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      return topic + (isKey ? "-key" : "-value");
    }
  }

  private static final Schema WRITER = new Schema.Parser().parse(
      "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"io.kavro.bounds\",\"fields\":["
      + "{\"name\":\"f\",\"type\":\"int\"}]}");

  private static Schema readerOf(String topic) {
    return new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"io.kavro.bounds\","
        + "\"fields\":[{\"name\":\"f\",\"type\":\"int\"},{\"name\":\"g\",\"type\":\"string\","
        + "\"default\":\"" + topic + "\"}]}");
  }

  private static long usedHeapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
