package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/** Schemas the compilers leave to Avro still work, through Avro's writer and reader. */
class CodecFallbackTest {
  private static final Schema LIST = new Schema.Parser().parse("""
      {"type":"record","name":"Node","namespace":"io.kavro.test","fields":[
        {"name":"value","type":"int"},{"name":"next","type":["null","Node"],"default":null}]}""");

  @Test
  void recursiveSchema_notCompiled() {
    GenericData model = new AvroDataModels(true, false).generic();

    assertThat(EncoderCompiler.compile(LIST, model)).isNull();
    assertThat(DecoderCompiler.compile(LIST, LIST, model)).isNull();
  }

  @Test
  void recursiveSchema_roundTripsThroughAvrosWriterAndReader() {
    String scope = "fallback-" + UUID.randomUUID();
    Map<String, Object> config = Map.of("schema.registry.url", "mock://" + scope);
    GenericRecord tail = new GenericData.Record(LIST);
    tail.put("value", 2);
    GenericRecord head = new GenericData.Record(LIST);
    head.put("value", 1);
    head.put("next", tail);
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      serializer.configure(config, false);
      deserializer.configure(config, false);

      GenericRecord read = (GenericRecord) deserializer.deserialize("list", serializer.serialize("list", head));

      assertThat(read).isEqualTo(head);
    } finally {
      MockRegistries.drop(scope);
    }
  }
}
