package com.example;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** A record written and read back through Kavro's serde, on the mock:// registry kavro-serde brings. */
class RoundTripTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type": "record", "name": "Order", "namespace": "com.example",
       "fields": [{"name": "id", "type": "long"}, {"name": "item", "type": "string"}]}""");

  @Test
  void record_roundTrips() {
    Map<String, Object> config = Map.of("schema.registry.url", "mock://consumer-check");
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", 42L);
    order.put("item", "kettle");
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      serializer.configure(config, false);
      deserializer.configure(config, false);

      byte[] bytes = serializer.serialize("orders", order);
      Object back = deserializer.deserialize("orders", bytes);

      assertEquals(0, bytes[0], "Confluent's magic byte");
      assertEquals(order.toString(), String.valueOf(back));
      System.out.println("round trip: " + back + " in " + bytes.length + " bytes");
    }
  }
}
