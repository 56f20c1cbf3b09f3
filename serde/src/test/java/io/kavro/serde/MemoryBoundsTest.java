package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.SchemaRegistryClients;
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

  private static long usedHeapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
