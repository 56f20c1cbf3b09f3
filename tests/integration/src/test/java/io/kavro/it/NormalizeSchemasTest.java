package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.SchemaRegistrationException;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code normalize.schemas} against the real registry: a schema registered by another tool, in another JSON form
 * than Avro's, is found by a producer that does not auto-register only when it asks for normalization.
 */
@ExtendWith(KavroStackExtension.class)
class NormalizeSchemasTest {
  private static final String AVRO_FORM = "{\"type\":\"record\",\"name\":\"Point\",\"namespace\":\"io.kavro.it\","
      + "\"fields\":[{\"name\":\"x\",\"type\":\"int\"},{\"name\":\"label\",\"type\":\"string\"}]}";
  /** The same schema, keys in another order and other spacing, as a hand-written file might have it. */
  private static final String OTHER_FORM = "{ \"namespace\": \"io.kavro.it\", \"name\": \"Point\", \"fields\": [\n"
      + "  { \"type\": \"int\", \"name\": \"x\" },\n  { \"type\": \"string\", \"name\": \"label\" }\n],"
      + " \"type\": \"record\" }";

  private final TestStack stack;

  NormalizeSchemasTest(TestStack stack) {
    this.stack = stack;
  }

  @Test
  void preRegisteredInAnotherForm_foundWithNormalize_notFoundWithout() throws Exception {
    Schema schema = new Schema.Parser().parse(AVRO_FORM);
    assertThat(schema.toString()).isEqualTo(AVRO_FORM).isNotEqualTo(OTHER_FORM);
    String topic = "normalize-" + UUID.randomUUID();
    int id = new RawRegistry(stack.registryUrl()).register(topic + "-value", OTHER_FORM);
    GenericRecord point = new GenericData.Record(schema);
    point.put("x", 7);
    point.put("label", "seven");

    try (KafkaAvroSerializer plain = serializer(false)) {
      assertThatThrownBy(() -> plain.serialize(topic, point))
          .isInstanceOf(SchemaRegistrationException.class)
          .hasMessageContaining("auto.register.schemas=false");
    }
    try (KafkaAvroSerializer normalizing = serializer(true)) {
      byte[] bytes = normalizing.serialize(topic, point);
      assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).isEqualTo(id);
    }
  }

  private KafkaAvroSerializer serializer(boolean normalize) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", stack.registryUrl(), "auto.register.schemas", false,
        "normalize.schemas", normalize), false);
    return serializer;
  }
}
