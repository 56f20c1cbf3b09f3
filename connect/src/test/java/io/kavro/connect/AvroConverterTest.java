package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroSerializer;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Connect to Avro to Connect, and Avro to Connect to Avro, for every kind the mapping knows. */
class AvroConverterTest {
  private final String scope = "converter-" + UUID.randomUUID();
  private final Map<String, Object> config = Map.of("schema.registry.url", "mock://" + scope);
  private final AvroConverter converter = new AvroConverter();

  AvroConverterTest() {
    converter.configure(config, false);
  }

  @AfterEach
  void close() {
    converter.close();
    MockRegistries.drop(scope);
  }

  private int topics;

  /** Through a topic of its own, so that unrelated schemas do not meet under one subject. */
  private SchemaAndValue roundTrip(Schema schema, Object value) {
    String topic = "round-trip-" + (topics++);
    byte[] bytes = converter.fromConnectData(topic, schema, value);
    return converter.toConnectData(topic, bytes);
  }

  /** Connect gets the registry's version of the schema, as from Confluent's converter: 1 in a fresh topic. */
  private void assertRoundTrip(Schema schema, Object value) {
    SchemaAndValue back = roundTrip(schema, value);
    assertThat(back.schema()).isEqualTo(withVersion(schema, 1));
    assertThat(back.value()).isEqualTo(value);
  }

  private static Schema withVersion(Schema schema, int version) {
    return new org.apache.kafka.connect.data.ConnectSchema(schema.type(), schema.isOptional(),
        schema.defaultValue(), schema.name(), version, schema.doc(), schema.parameters(), null, null, null);
  }

  /** A null topic, twice (the second through the last read's conversion): never a NullPointerException. */
  @Test
  void aNullTopic_roundTrips() {
    Schema schema = SchemaBuilder.struct().name("com.acme.Row").field("id", Schema.INT64_SCHEMA).build();
    byte[] bytes = converter.fromConnectData(null, schema, new Struct(schema).put("id", 7L));

    assertThat(((Struct) converter.toConnectData(null, bytes).value()).getInt64("id")).isEqualTo(7L);
    assertThat(converter.toConnectData(null, bytes).schema().version()).isEqualTo(1);
    assertThat(converter.toConnectData("another", bytes).schema().version()).isNull();
  }

  @Test
  void primitives_connectToAvroToConnect() {
    assertRoundTrip(Schema.INT8_SCHEMA, (byte) -3);
    assertRoundTrip(Schema.INT16_SCHEMA, (short) 300);
    assertRoundTrip(Schema.INT32_SCHEMA, 70_000);
    assertRoundTrip(Schema.INT64_SCHEMA, 1L << 40);
    assertRoundTrip(Schema.FLOAT32_SCHEMA, 1.5f);
    assertRoundTrip(Schema.FLOAT64_SCHEMA, 2.25d);
    assertRoundTrip(Schema.BOOLEAN_SCHEMA, true);
    assertRoundTrip(Schema.STRING_SCHEMA, "text");
    SchemaAndValue bytes = roundTrip(Schema.BYTES_SCHEMA, new byte[] {1, 2, 3});
    assertThat(bytes.schema()).isEqualTo(withVersion(Schema.BYTES_SCHEMA, 1));
    assertThat(bytes.value()).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
  }

  @Test
  void logicalTypes_decimalsOfSeveralScales_dateTimeTimestamp() {
    for (int scale : new int[] {0, 2, 10}) {
      Schema decimal = Decimal.schema(scale);
      BigDecimal value = new BigDecimal("12345.6789012345").setScale(scale, java.math.RoundingMode.HALF_UP);
      SchemaAndValue back = roundTrip(decimal, value);
      assertThat(back.value()).isEqualTo(value);
      assertThat(back.schema().name()).isEqualTo(Decimal.LOGICAL_NAME);
      assertThat(back.schema().parameters()).containsEntry(Decimal.SCALE_FIELD, Integer.toString(scale));
    }
    assertRoundTrip(Date.SCHEMA, new java.util.Date(19_000L * 86_400_000L));
    assertRoundTrip(Time.SCHEMA, new java.util.Date(12_345_678L));
    assertRoundTrip(Timestamp.SCHEMA, new java.util.Date(1_750_000_000_123L));
  }

  @Test
  void struct_nested_withOptionalFieldsDefaultsDocsAndNames() {
    Schema address = SchemaBuilder.struct().name("com.acme.Address").doc("where")
        .field("street", Schema.STRING_SCHEMA)
        .field("zip", SchemaBuilder.string().optional().build())
        .build();
    Schema schema = SchemaBuilder.struct().name("com.acme.Customer").version(3).doc("a customer")
        .field("id", Schema.INT64_SCHEMA)
        .field("nickname", SchemaBuilder.string().optional().defaultValue(null).build())
        .field("tier", SchemaBuilder.string().optional().defaultValue("bronze").build())
        .field("score", SchemaBuilder.int32().defaultValue(7).build())
        .field("balance", Decimal.builder(2).optional().build())
        .field("address", address)
        .field("previous", SchemaBuilder.array(address).optional().build())
        .field("tags", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).build())
        .field("counts", SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.STRING_SCHEMA).build())
        .build();
    Struct home = new Struct(address).put("street", "Main 1").put("zip", null);
    Struct value = new Struct(schema)
        .put("id", 42L)
        .put("nickname", null)
        .put("tier", "gold")
        .put("score", 9)
        .put("balance", new BigDecimal("10.50"))
        .put("address", home)
        .put("previous", List.of(new Struct(address).put("street", "Old 2").put("zip", "1234")))
        .put("tags", Map.of("a", 1))
        .put("counts", Map.of(1, "one", 2, "two"));

    SchemaAndValue back = roundTrip(schema, value);

    assertThat(back.schema()).isEqualTo(schema);
    assertThat(back.value()).isEqualTo(value);
    assertThat(back.schema().name()).isEqualTo("com.acme.Customer");
    assertThat(back.schema().doc()).isEqualTo("a customer");
    assertThat(back.schema().field("tier").schema().defaultValue()).isEqualTo("bronze");
    assertThat(back.schema().field("score").schema().defaultValue()).isEqualTo(7);
    assertThat(back.schema().field("counts").schema().keySchema()).isEqualTo(Schema.INT32_SCHEMA);
  }

  @Test
  void nullableFieldWithNonNullDefault_avroUnionPutsTypeFirst() {
    Schema schema = SchemaBuilder.struct().name("R")
        .field("tier", SchemaBuilder.string().optional().defaultValue("bronze").build()).build();
    Struct value = new Struct(schema).put("tier", null);

    byte[] bytes = converter.fromConnectData("t", schema, value);
    org.apache.avro.Schema avro = registry().latestVersion("t-value").schema();

    assertThat(avro.getField("tier").schema().getTypes().get(0).getType()).isEqualTo(org.apache.avro.Schema.Type.STRING);
    assertThat(avro.getField("tier").defaultVal()).isEqualTo("bronze");
    // Connect's Struct gives a field's default for a null value (as JsonConverter's replace.null.with.default).
    io.kavro.serde.KafkaAvroDeserializer deserializer = new io.kavro.serde.KafkaAvroDeserializer();
    deserializer.configure(config, false);
    assertThat(((GenericRecord) deserializer.deserialize("t", bytes)).get("tier")).hasToString("bronze");
  }

  @Test
  void optionalField_isNullUnionWithNullDefault() {
    Schema schema = SchemaBuilder.struct().name("R").field("note", Schema.OPTIONAL_STRING_SCHEMA).build();
    converter.fromConnectData("t", schema, new Struct(schema));

    org.apache.avro.Schema avro = registry().latestVersion("t-value").schema();

    assertThat(avro.getField("note").schema().toString()).isEqualTo("[\"null\",\"string\"]");
    assertThat(avro.getField("note").hasDefaultValue()).isTrue();
    assertThat(avro.getField("note").defaultVal()).isEqualTo(org.apache.avro.JsonProperties.NULL_VALUE);
  }

  @Test
  void avroToConnectToAvro_sameSchemaSameBytes_forEnumsUnionsFixedAndMore() {
    org.apache.avro.Schema avro = new org.apache.avro.Schema.Parser().parse("""
        {"type":"record","name":"Event","namespace":"com.acme","doc":"an event","fields":[
          {"name":"kind","type":{"type":"enum","name":"Kind","doc":"what","symbols":["A","B","C"]},"doc":"the kind"},
          {"name":"payload","type":["null","int","string",{"type":"record","name":"Blob","fields":[{"name":"b","type":"bytes"}]}],"default":null},
          {"name":"choice","type":["long","string"]},
          {"name":"hash","type":{"type":"fixed","name":"Md5","size":4}},
          {"name":"price","type":{"type":"fixed","name":"Price","size":8,"logicalType":"decimal","precision":12,"scale":3}},
          {"name":"id","type":{"type":"string","logicalType":"uuid"}},
          {"name":"micros","type":{"type":"long","logicalType":"timestamp-micros"}},
          {"name":"attrs","type":{"type":"map","values":["null","double"]}},
          {"name":"maybe","type":["null","string"],"default":null},
          {"name":"nested","type":{"type":"record","name":"Inner","fields":[
            {"name":"deep","type":{"type":"array","items":"Kind"}}]}}
        ]}""");
    GenericRecord event = new GenericData.Record(avro);
    event.put("kind", new GenericData.EnumSymbol(avro.getField("kind").schema(), "B"));
    GenericRecord blob = new GenericData.Record(avro.getField("payload").schema().getTypes().get(3));
    blob.put("b", ByteBuffer.wrap(new byte[] {9}));
    event.put("payload", blob);
    event.put("choice", "s");
    event.put("hash", new GenericData.Fixed(avro.getField("hash").schema(), new byte[] {1, 2, 3, 4}));
    event.put("price", new GenericData.Fixed(avro.getField("price").schema(), new byte[] {0, 0, 0, 0, 0, 0, 48, 57}));
    event.put("id", "6f1e1c7a-0000-4000-8000-000000000001");
    event.put("micros", 1_750_000_000_000_123L);
    event.put("attrs", Map.of("x", 1.5));
    event.put("maybe", null);
    GenericRecord inner = new GenericData.Record(avro.getField("nested").schema());
    inner.put("deep", List.of(new GenericData.EnumSymbol(avro.getField("kind").schema(), "C")));
    event.put("nested", inner);
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    byte[] original = serializer.serialize("events", event);
    AvroConverter enhanced = new AvroConverter();
    Map<String, Object> enhancedConfig = new java.util.HashMap<>(config);
    enhancedConfig.put("enhanced.avro.schema.support", true);
    enhanced.configure(enhancedConfig, false);

    SchemaAndValue connect = enhanced.toConnectData("events", original);
    byte[] again = enhanced.fromConnectData("events", connect.schema(), connect.value());

    // The same Avro body, and the same schema but for the connect.* properties that Confluent's converter adds
    // (so a second version of the subject, as with Confluent's converter).
    assertThat(java.util.Arrays.copyOfRange(again, 5, again.length))
        .isEqualTo(java.util.Arrays.copyOfRange(original, 5, original.length));
    org.apache.avro.Schema written = registry().latestVersion("events-value").schema();
    assertThat(org.apache.avro.SchemaNormalization.toParsingForm(written))
        .isEqualTo(org.apache.avro.SchemaNormalization.toParsingForm(avro));
    assertThat(written.getField("id").schema().getLogicalType().getName()).isEqualTo("uuid");
    assertThat(written.getField("micros").schema().getLogicalType().getName()).isEqualTo("timestamp-micros");
    assertThat(((Struct) connect.value()).get("kind")).isEqualTo("B");
    assertThat(((Struct) connect.value()).getStruct("payload").schema().name())
        .isEqualTo("io.confluent.connect.avro.Union");
    assertThat(((Struct) connect.value()).get("price")).isEqualTo(new BigDecimal("12.345"));
    enhanced.close();

    // Confluent's default (enhanced.avro.schema.support=false): the enum is a string with its symbols kept as
    // parameters, and goes back to Avro as a string, which the subject's BACKWARD rule refuses here.
    SchemaAndValue plain = converter.toConnectData("events", original);
    assertThat(plain.schema().field("kind").schema().parameters())
        .containsEntry("io.confluent.connect.avro.Enum", "com.acme.Kind")
        .containsEntry("io.confluent.connect.avro.Enum.B", "B");
    assertThat(plain.schema().field("kind").schema().type()).isEqualTo(Schema.Type.STRING);
  }

  /** Issue 13, item 6: a union struct with no branch set is refused, never written as a tombstone. */
  @Test
  void unionStructWithNoBranchSet_dataExceptionNotATombstone() {
    org.apache.avro.Schema avro = new org.apache.avro.Schema.Parser().parse("""
        {"type":"record","name":"Holder","namespace":"com.acme","fields":[
          {"name":"payload","type":["int","string"]}]}""");
    GenericRecord holder = new GenericData.Record(avro);
    holder.put("payload", 7);
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    SchemaAndValue read = converter.toConnectData("unions", serializer.serialize("unions", holder));
    Struct value = (Struct) read.value();
    Schema unionSchema = value.schema().field("payload").schema();
    Struct empty = new Struct(unionSchema);

    assertThatThrownBy(() -> converter.fromConnectData("unions", read.schema(),
        new Struct(read.schema()).put("payload", empty)))
        .isInstanceOf(DataException.class).hasMessageContaining("no branch set");
    byte[] written = converter.fromConnectData("unions", read.schema(), value);
    assertThat(converter.toConnectData("unions", written).value()).isEqualTo(value);
  }

  /** Issue 13, item 6, at the top level: the empty union struct would have been a null value, a tombstone. */
  @Test
  void topLevelUnionStructWithNoBranchSet_dataExceptionNotATombstone() {
    org.apache.avro.Schema union = new org.apache.avro.Schema.Parser().parse("[\"int\",\"string\"]");
    int id = registry().register("top-value", union);
    byte[] framed = ByteBuffer.allocate(7).put((byte) 0).putInt(id).put((byte) 0).put((byte) 14).array(); // int 7
    SchemaAndValue read = converter.toConnectData("top", framed);
    assertThat(read.schema().name()).isEqualTo("io.confluent.connect.avro.Union");

    assertThatThrownBy(() -> converter.fromConnectData("top", read.schema(), new Struct(read.schema())))
        .isInstanceOf(DataException.class).hasMessageContaining("no branch set");
    assertThat(converter.fromConnectData("top", read.schema(), read.value())).isEqualTo(framed);
  }

  /**
   * Issue 22, item 2: an optional union (["null","int","string"]) whose struct has no branch set is no value
   * either: a DataException, at the top level (it was a null payload, a tombstone) and nested (it was a silent
   * null); a null value stays the union's null.
   */
  @Test
  void optionalUnionStructWithNoBranchSet_dataException_nullValueStaysNull() {
    org.apache.avro.Schema union = new org.apache.avro.Schema.Parser().parse("[\"null\",\"int\",\"string\"]");
    int id = registry().register("optional-top-value", union);
    byte[] framed = ByteBuffer.allocate(7).put((byte) 0).putInt(id).put((byte) 2).put((byte) 14).array(); // int 7
    SchemaAndValue read = converter.toConnectData("optional-top", framed);
    assertThat(read.schema().isOptional()).isTrue();

    assertThatThrownBy(() -> converter.fromConnectData("optional-top", read.schema(), new Struct(read.schema())))
        .isInstanceOf(DataException.class).hasMessageContaining("no branch set");
    assertThat(converter.fromConnectData("optional-top", read.schema(), null)).isNull();

    Schema holder = SchemaBuilder.struct().name("com.acme.Holder").field("payload", read.schema()).build();
    assertThatThrownBy(() -> converter.fromConnectData("optional-nested", holder,
        new Struct(holder).put("payload", new Struct(read.schema()))))
        .isInstanceOf(DataException.class).hasMessageContaining("no branch set");
    byte[] withNull = converter.fromConnectData("optional-nested", holder, new Struct(holder).put("payload", null));
    assertThat(((Struct) converter.toConnectData("optional-nested", withNull).value()).get("payload")).isNull();
  }

  @Test
  void sameBytesAndSubjectAsTheSerializer() {
    Schema schema = SchemaBuilder.struct().name("com.acme.User").field("name", Schema.STRING_SCHEMA).build();
    byte[] fromConverter = converter.fromConnectData("users", schema, new Struct(schema).put("name", "Ada"));
    org.apache.avro.Schema avro = registry().latestVersion("users-value").schema();
    GenericRecord record = new GenericData.Record(avro);
    record.put("name", "Ada");
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);

    assertThat(serializer.serialize("users", record)).isEqualTo(fromConverter);
    assertThat(registry().subjects()).containsExactly("users-value");
  }

  @Test
  void keyConverter_usesKeySubject() {
    AvroConverter keys = new AvroConverter();
    keys.configure(config, true);

    keys.fromConnectData("t", Schema.STRING_SCHEMA, "k");

    assertThat(registry().subjects()).containsExactly("t-key");
    keys.close();
  }

  @Test
  void nullValue_tombstoneBothWays() {
    assertThat(converter.fromConnectData("t", Schema.OPTIONAL_STRING_SCHEMA, null)).isNull();
    assertThat(converter.toConnectData("t", null)).isEqualTo(SchemaAndValue.NULL);
  }

  @Test
  void valueNotMatchingSchema_dataException() {
    Schema schema = SchemaBuilder.struct().name("R").field("n", Schema.INT32_SCHEMA).build();

    assertThatThrownBy(() -> converter.fromConnectData("t", Schema.INT32_SCHEMA, "not an int"))
        .isInstanceOf(DataException.class).hasMessageContaining("topic 't'");
    assertThatThrownBy(() -> converter.fromConnectData("t", schema, new Struct(schema)))
        .isInstanceOf(DataException.class);
  }

  /**
   * Issue 26: the converter checks values while it maps them, as Confluent's does, not in a deep walk first. Every
   * value that does not match its schema, however deep, is still a DataException that names the topic, never a
   * ClassCastException or bytes written; and the next record converts as if nothing had happened.
   */
  @Test
  void valueNotMatchingSchema_anywhere_dataException_andNoTrace() {
    Schema inner = SchemaBuilder.struct().name("Inner").field("n", Schema.INT32_SCHEMA).build();
    Schema lookalike = SchemaBuilder.struct().name("Inner").field("n", Schema.OPTIONAL_INT32_SCHEMA).build();
    Schema schema = SchemaBuilder.struct().name("Outer")
        .field("small", Schema.INT8_SCHEMA)
        .field("ratio", Schema.FLOAT32_SCHEMA)
        .field("ids", SchemaBuilder.array(Schema.INT32_SCHEMA).build())
        .field("counts", SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT64_SCHEMA).build())
        .field("price", org.apache.kafka.connect.data.Decimal.schema(2))
        .field("inner", inner)
        .field("inners", SchemaBuilder.array(inner).build())
        .build();
    java.util.function.Supplier<Struct> valid = () -> new Struct(schema).put("small", (byte) 1).put("ratio", 1.5f)
        .put("ids", List.of(1, 2)).put("counts", Map.of("a", 1L)).put("price", new java.math.BigDecimal("1.25"))
        .put("inner", new Struct(inner).put("n", 1)).put("inners", List.of(new Struct(inner).put("n", 2)));
    byte[] fresh = converter.fromConnectData("t", schema, valid.get());
    // Struct.put checks its own fields, so the wrong values sit inside lists and maps, or come unchecked.
    List<java.util.function.Supplier<Object>> invalid = List.of(
        () -> 7, // an Integer for a struct
        () -> {
          Struct struct = valid.get();
          mutableListIn(struct, "ids").set(1, "two"); // a String for an INT32
          return struct;
        },
        () -> {
          Struct struct = valid.get();
          ((java.util.Map<String, Object>) mutableMapIn(struct)).put("b", 2); // an Integer for an INT64
          return struct;
        },
        () -> {
          Struct struct = valid.get();
          mutableListIn(struct, "inners").set(0, new Struct(lookalike).put("n", 2)); // a struct of another schema
          return struct;
        },
        () -> {
          Struct struct = valid.get();
          ((java.util.Map<Object, Object>) mutableMapIn(struct)).put(7, 1L); // an Integer for a STRING key
          return struct;
        },
        () -> {
          Struct struct = new Struct(schema);
          return struct.put("small", (byte) 1); // required fields left unset
        });
    for (java.util.function.Supplier<Object> value : invalid) {
      Object bad = value.get();
      assertThatThrownBy(() -> converter.fromConnectData("t", schema, bad)).as("%s", bad)
          .isInstanceOf(DataException.class).hasMessageContaining("topic 't'");
      assertThat(converter.fromConnectData("t", schema, valid.get())).isEqualTo(fresh);
    }
    assertThatThrownBy(() -> converter.fromConnectData("t", Schema.INT8_SCHEMA, 300))
        .isInstanceOf(DataException.class).hasMessageContaining("topic 't'");
    assertThatThrownBy(() -> converter.fromConnectData("t", Schema.FLOAT32_SCHEMA, 1.5d))
        .isInstanceOf(DataException.class).hasMessageContaining("topic 't'");
    assertThatThrownBy(() -> converter.fromConnectData("t", org.apache.kafka.connect.data.Decimal.schema(2), 1.5d))
        .isInstanceOf(DataException.class).hasMessageContaining("topic 't'");
  }

  private static List<Object> mutableListIn(Struct struct, String field) {
    List<Object> list = new java.util.ArrayList<>(struct.getArray(field));
    struct.put(field, list);
    return list;
  }

  private static Object mutableMapIn(Struct struct) {
    java.util.Map<String, Object> counts = new java.util.HashMap<>(struct.getMap("counts"));
    struct.put("counts", counts);
    return counts;
  }

  @Test
  void schemaless_asConfluentsAnythingRecord_andBack() {
    Map<String, Object> value = Map.of("a", 1, "b", List.of("x", true), "c", Map.of(2L, 1.5d));

    byte[] bytes = converter.fromConnectData("free", null, value);
    SchemaAndValue back = converter.toConnectData("free", bytes);

    assertThat(back.schema()).isNull();
    assertThat(back.value()).isEqualTo(value);
    assertThat(registry().latestVersion("free-value").schema().getFullName())
        .isEqualTo("io.confluent.connect.avro.Anything");
  }

  @Test
  void corruptBytes_dataException() {
    assertThatThrownBy(() -> converter.toConnectData("t", new byte[] {1, 2}))
        .isInstanceOf(DataException.class).hasMessageContaining("topic 't'");
  }

  @Test
  void registryDown_retriableException() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    AvroConverter down = new AvroConverter();
    down.configure(Map.of("schema.registry.url", "http://127.0.0.1:" + closedPort, "max.retries", 0), false);

    assertThatThrownBy(() -> down.fromConnectData("t", Schema.STRING_SCHEMA, "x"))
        .isInstanceOf(RetriableException.class);
    assertThatThrownBy(() -> down.toConnectData("t", new byte[] {0, 0, 0, 0, 1, 2}))
        .isInstanceOf(RetriableException.class);
    down.close();
  }

  @Test
  void config_isTheSerdeConfigDef() {
    assertThat(converter.config().names()).contains("schema.registry.url", "auto.register.schemas");
  }

  private SchemaRegistryClient registry() {
    return SchemaRegistryClients.create(config);
  }

  /** {@code real}, counting its {@code lookup} calls in {@code lookups}. */
  private static SchemaRegistryClient countingLookups(SchemaRegistryClient real,
      java.util.concurrent.atomic.AtomicInteger lookups) {
    return (SchemaRegistryClient) java.lang.reflect.Proxy.newProxyInstance(
        AvroConverterTest.class.getClassLoader(), new Class<?>[] {SchemaRegistryClient.class},
        (proxy, method, args) -> {
          if (method.getName().equals("lookup")) {
            lookups.incrementAndGet();
          }
          try {
            return method.invoke(real, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  /**
   * Issue 22, item 5: records whose schema lives under another subject than the topic's ask the registry for
   * the version once, not once per record (100 records made 100 lookups).
   */
  @Test
  void schemaUnderAnotherSubject_versionLookedUpOnce() {
    org.apache.avro.Schema avro = new org.apache.avro.Schema.Parser().parse("""
        {"type":"record","name":"Elsewhere","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
    int id = registry().register("some-other-subject", avro);
    byte[] framed = ByteBuffer.allocate(6).put((byte) 0).putInt(id).put((byte) 2).array(); // id 1
    java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();
    SchemaRegistryClient real = registry();
    SchemaRegistryClient counting = countingLookups(real, lookups);
    AvroConverter elsewhere = new AvroConverter(counting);
    elsewhere.configure(config, false);

    for (int i = 0; i < 100; i++) {
      assertThat(elsewhere.toConnectData("topic-of-its-own", framed).schema().version()).isNull();
    }
    assertThat(lookups.get()).isEqualTo(1);
  }

  /**
   * Issue 36: records of one topic and one writer schema ask the client for their version once: the converter
   * keeps the last topic, id and conversion in front of the version lookup (each lookup was a few cache reads and
   * a subject name built per record, a quarter of {@code toConnectData} beyond the structs).
   */
  @Test
  void recordsOfOneTopicAndSchema_versionAskedOnce() {
    org.apache.avro.Schema avro = new org.apache.avro.Schema.Parser().parse("""
        {"type":"record","name":"Steady","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
    SchemaRegistryClient real = registry();
    int id = real.register("steady-value", avro);
    java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();
    SchemaRegistryClient counting = countingLookups(real, lookups);
    AvroConverter steady = new AvroConverter(counting);
    steady.configure(config, false);

    for (int i = 0; i < 60; i++) { // one byte of zig-zag varint each
      byte[] framed = ByteBuffer.allocate(6).put((byte) 0).putInt(id).put((byte) (2 * i)).array();
      SchemaAndValue read = steady.toConnectData("steady", framed);
      assertThat(read.schema().version()).isEqualTo(1);
      assertThat(((Struct) read.value()).getInt64("id")).isEqualTo(i);
    }
    assertThat(lookups.get()).isEqualTo(1);
  }

  /**
   * Issue 33, item B: one Avro schema (one id) registered under two subjects at different versions, read through
   * one converter for both topics, alternately: each topic's Connect schema has its own subject's version.
   */
  @Test
  void oneSchemaUnderTwoSubjects_eachTopicGetsItsSubjectsVersion() {
    org.apache.avro.Schema avro = new org.apache.avro.Schema.Parser().parse("""
        {"type":"record","name":"Shared","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
    org.apache.avro.Schema older = new org.apache.avro.Schema.Parser().parse("""
        {"type":"record","name":"Shared","namespace":"com.acme","fields":[{"name":"id","type":"int"}]}""");
    SchemaRegistryClient registry = registry();
    registry.register("first-value", older);
    int id = registry.register("first-value", avro); // version 2 there
    assertThat(registry.register("second-value", avro)).isEqualTo(id); // version 1 there
    byte[] framed = ByteBuffer.allocate(6).put((byte) 0).putInt(id).put((byte) 14).array(); // id 7

    for (int i = 0; i < 3; i++) {
      SchemaAndValue first = converter.toConnectData("first", framed);
      SchemaAndValue second = converter.toConnectData("second", framed);
      assertThat(first.schema().version()).isEqualTo(2);
      assertThat(second.schema().version()).isEqualTo(1);
      assertThat(((Struct) first.value()).getInt64("id")).isEqualTo(7L);
      assertThat(((Struct) second.value()).getInt64("id")).isEqualTo(7L);
    }
  }

  /**
   * Issue 33, item B: two schemas that differ only in their docs (which Avro's equality ignores), each version 1
   * of its topic's subject, read through one converter: each Connect schema has its own docs.
   */
  @Test
  void schemasDifferingOnlyInDocs_eachTopicGetsItsOwnDocs() {
    String text = """
        {"type":"record","name":"Doc","namespace":"com.acme","doc":"%s","fields":[
         {"name":"id","type":"long","doc":"%s"}]}""";
    org.apache.avro.Schema red = new org.apache.avro.Schema.Parser().parse(text.formatted("red", "red id"));
    org.apache.avro.Schema blue = new org.apache.avro.Schema.Parser().parse(text.formatted("blue", "blue id"));
    SchemaRegistryClient registry = registry();
    int redId = registry.register("red-value", red);
    int blueId = registry.register("blue-value", blue);
    byte[] redBytes = ByteBuffer.allocate(6).put((byte) 0).putInt(redId).put((byte) 2).array();
    byte[] blueBytes = ByteBuffer.allocate(6).put((byte) 0).putInt(blueId).put((byte) 2).array();

    for (int i = 0; i < 2; i++) {
      Schema fromRed = converter.toConnectData("red", redBytes).schema();
      Schema fromBlue = converter.toConnectData("blue", blueBytes).schema();
      assertThat(fromRed.parameters()).containsEntry("io.confluent.connect.avro.record.doc", "red")
          .containsEntry("io.confluent.connect.avro.field.doc.id", "red id");
      assertThat(fromBlue.parameters()).containsEntry("io.confluent.connect.avro.record.doc", "blue")
          .containsEntry("io.confluent.connect.avro.field.doc.id", "blue id");
    }
  }

  /**
   * Issue 22, item 7: schemaless data nested deeper than Schemaless.MAX_DEPTH is a DataException both ways,
   * which errors.tolerance can skip; 2,000 levels (a payload of 22 KB) overflowed the task's stack. 600 levels
   * decode, and stop at the bound; 2,000 may already stop in the decoder, on a small stack: a DataException too.
   */
  @Test
  void deepSchemalessData_dataExceptionBothWays() {
    int id = registry().register("deep-value", Schemaless.ANYTHING);

    assertThatThrownBy(() -> converter.toConnectData("deep", anythingNested(id, 600)))
        .isInstanceOf(DataException.class).hasMessageContaining("deeper than " + Schemaless.MAX_DEPTH);
    assertThatThrownBy(() -> converter.toConnectData("deep", anythingNested(id, 2_000)))
        .isInstanceOf(DataException.class);
    assertThat(converter.toConnectData("deep", anythingNested(id, 400)).value()).isInstanceOf(List.class);

    Object nested = List.of();
    for (int i = 0; i < 2_000; i++) {
      nested = List.of(nested);
    }
    Object deep = nested;
    assertThatThrownBy(() -> converter.fromConnectData("deep", null, deep))
        .isInstanceOf(DataException.class).hasMessageContaining("deeper than " + Schemaless.MAX_DEPTH);
    assertThat(converter.toConnectData("deep", converter.fromConnectData("deep", null, List.of(List.of(1))))
        .value()).isEqualTo(List.of(List.of(1)));
  }

  /** An Anything record of schema {@code id}: arrays of one item, {@code levels} deep. */
  private static byte[] anythingNested(int id, int levels) {
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    body.write(0);
    body.writeBytes(ByteBuffer.allocate(4).putInt(id).array());
    for (int i = 0; i < levels; i++) {
      body.writeBytes(new byte[7]); // boolean..string: null
      body.writeBytes(new byte[] {2, 2}); // array: present, one item
    }
    body.writeBytes(new byte[9]); // the innermost: all null
    for (int i = 0; i < levels; i++) {
      body.writeBytes(new byte[] {0, 0}); // the array ends; map: null
    }
    return body.toByteArray();
  }

  /**
   * Issue 51, review: close() closed only the registry client, and configuring again dropped the serdes without
   * closing them: every Connect task restart left their listeners on a caller's client (and what they hold). The
   * serdes' open listeners on the client tell whether they were closed.
   */
  @Test
  void close_andConfigureAgain_closeTheSerdes() {
    java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger();
    SchemaRegistryClient real = SchemaRegistryClients.create(config);
    SchemaRegistryClient client = (SchemaRegistryClient) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("onChange")) {
            open.incrementAndGet();
            java.util.concurrent.atomic.AtomicBoolean removed = new java.util.concurrent.atomic.AtomicBoolean();
            return (AutoCloseable) () -> {
              if (removed.compareAndSet(false, true)) {
                open.decrementAndGet();
              }
            };
          }
          try {
            return method.invoke(real, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
    AvroConverter given = new AvroConverter(client);
    given.configure(config, false);
    int perConfigure = open.get();
    assertThat(perConfigure).as("the serdes' listeners on the client").isPositive();
    given.configure(config, false);
    assertThat(open).as("listeners after configuring again: the earlier serdes' are closed").hasValue(perConfigure);
    given.close();
    assertThat(open).as("listeners after close()").hasValue(0);
    real.close();
  }
}
