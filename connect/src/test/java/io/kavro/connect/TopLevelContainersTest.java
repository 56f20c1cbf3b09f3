package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 33, item C: a Connect array or map as the whole value (not a struct's field) through fromConnectData and
 * toConnectData, as Confluent's converter takes them. They were refused with a NullPointerException.
 */
class TopLevelContainersTest {
  private static final Schema POINT = SchemaBuilder.struct().name("com.acme.Point")
      .field("x", Schema.INT32_SCHEMA).field("y", Schema.INT32_SCHEMA).build();

  private final String scope = "top-level-" + UUID.randomUUID();
  private final AvroConverter converter = new AvroConverter();

  TopLevelContainersTest() {
    converter.configure(Map.of("schema.registry.url", "mock://" + scope), false);
  }

  @AfterEach
  void close() {
    converter.close();
    MockRegistries.drop(scope);
  }

  private SchemaAndValue roundTrip(String topic, Schema schema, Object value) {
    return converter.toConnectData(topic, converter.fromConnectData(topic, schema, value));
  }

  @Test
  void arrayOfStructs_roundTrips() {
    Schema schema = SchemaBuilder.array(POINT).build();
    List<Struct> points = List.of(new Struct(POINT).put("x", 1).put("y", 2), new Struct(POINT).put("x", 3)
        .put("y", 4));

    SchemaAndValue back = roundTrip("points", schema, points);

    assertThat(back.schema().type()).isEqualTo(Schema.Type.ARRAY);
    assertThat(back.schema().valueSchema().name()).isEqualTo("com.acme.Point");
    List<?> read = (List<?>) back.value();
    assertThat(read).hasSize(2);
    assertThat(((Struct) read.get(0)).getInt32("x")).isEqualTo(1);
    assertThat(((Struct) read.get(1)).getInt32("y")).isEqualTo(4);
  }

  @Test
  void arrayOfPrimitives_roundTrips() {
    SchemaAndValue back = roundTrip("numbers", SchemaBuilder.array(Schema.INT64_SCHEMA).build(),
        List.of(1L, 2L, 3L));

    assertThat(back.schema().valueSchema().type()).isEqualTo(Schema.Type.INT64);
    assertThat(back.value()).isEqualTo(List.of(1L, 2L, 3L));
  }

  @Test
  void mapWithStringKeys_roundTrips() {
    Map<String, Integer> counts = new LinkedHashMap<>();
    counts.put("a", 1);
    counts.put("b", 2);

    SchemaAndValue back = roundTrip("counts", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).build(),
        counts);

    assertThat(back.schema().keySchema().type()).isEqualTo(Schema.Type.STRING);
    assertThat(back.value()).isEqualTo(Map.of("a", 1, "b", 2));
  }

  @Test
  void mapWithStructValues_roundTrips() {
    Map<String, Struct> byName = Map.of("origin", new Struct(POINT).put("x", 0).put("y", 0));

    SchemaAndValue back = roundTrip("named", SchemaBuilder.map(Schema.STRING_SCHEMA, POINT).build(), byName);

    assertThat(((Struct) ((Map<?, ?>) back.value()).get("origin")).getInt32("x")).isEqualTo(0);
  }

  /** Non-string keys: an Avro array of key/value records, as Confluent's AvroData maps it. */
  @Test
  @SuppressWarnings("unchecked")
  void mapWithNonStringKeys_roundTrips_asAnArrayOfKeyValueRecords() {
    Schema schema = SchemaBuilder.map(Schema.INT32_SCHEMA, POINT).build();
    Map<Integer, Struct> byId = new LinkedHashMap<>();
    byId.put(7, new Struct(POINT).put("x", 5).put("y", 6));
    byId.put(8, new Struct(POINT).put("x", 9).put("y", 10));

    SchemaAndValue back = roundTrip("by-id", schema, byId);

    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
        "mock://" + scope))) {
      org.apache.avro.Schema written = registry.latestVersion("by-id-value").schema();
      assertThat(written.getType()).isEqualTo(org.apache.avro.Schema.Type.ARRAY);
      assertThat(written.getElementType().getFullName()).isEqualTo("io.confluent.connect.avro.MapEntry");
      assertThat(written.getElementType().getFields()).extracting(org.apache.avro.Schema.Field::name)
          .containsExactly("key", "value");
    }

    assertThat(back.schema().type()).isEqualTo(Schema.Type.MAP);
    assertThat(back.schema().keySchema().type()).isEqualTo(Schema.Type.INT32);
    Map<Object, Object> read = (Map<Object, Object>) back.value();
    assertThat(read.keySet()).containsExactlyInAnyOrder(7, 8);
    assertThat(((Struct) read.get(8)).getInt32("y")).isEqualTo(10);
  }
}
