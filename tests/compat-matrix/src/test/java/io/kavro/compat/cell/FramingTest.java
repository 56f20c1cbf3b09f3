package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.connect.SchemaIdTranslation;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.UnsupportedFramingException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.Test;

/**
 * Other registries' framing and the schema id translation, on this cell's kafka-clients, connect-api and Avro:
 * Glue's framing refused by name, stale id headers dropped by the serializer, and the transform as a worker of this
 * line runs it between two registries.
 */
class FramingTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.example","fields":[{"name":"id","type":"long"}]}""");

  private static GenericRecord order(long id) {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", id);
    return order;
  }

  @Test
  void glueFraming_refusedByName() {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(Cell.config("framing-glue"), false);
    byte[] glue = ByteBuffer.allocate(19).put((byte) 3).put((byte) 0).putLong(1).putLong(2).put((byte) 2).array();

    assertThatThrownBy(() -> deserializer.deserialize("orders", glue))
        .isInstanceOf(UnsupportedFramingException.class).hasMessageContaining("AWS Glue");
  }

  @Test
  void staleApicurioHeaders_droppedByTheSerializer_recordReadsBack() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(5).array());
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Cell.config("framing-stale"), false);
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(Cell.config("framing-stale"), false);

    byte[] payload = serializer.serialize("orders", headers, order(1));

    assertThat(headers.lastHeader("apicurio.value.globalId")).isNull();
    assertThat(deserializer.deserialize("orders", headers, payload)).isEqualTo(order(1));
  }

  @Test
  void translation_givesTheTargetRegistrysId() {
    String target = "framing-target-" + UUID.randomUUID();
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Cell.config(target))) {
      registry.register("filler-value", Schema.create(Schema.Type.STRING));
    }
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Cell.config("framing-source"), false);
    byte[] written = serializer.serialize("orders", order(2));
    Map<String, Object> config = new HashMap<>();
    config.put("source.schema.registry.url", "mock://framing-source");
    config.put("target.schema.registry.url", "mock://" + target);
    SchemaIdTranslation<SourceRecord> transform = new SchemaIdTranslation.Value<>();
    transform.configure(config);

    SourceRecord mirrored = transform.apply(new SourceRecord(Map.of(), Map.of(), "src.orders", 0, null, null, null,
        written, 1L, new ConnectHeaders()));
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(Cell.config(target), false);

    assertThat(ByteBuffer.wrap((byte[]) mirrored.value()).getInt(1)).isNotEqualTo(ByteBuffer.wrap(written).getInt(1));
    assertThat(deserializer.deserialize("src.orders", (byte[]) mirrored.value())).isEqualTo(order(2));
    transform.close();
  }
}
