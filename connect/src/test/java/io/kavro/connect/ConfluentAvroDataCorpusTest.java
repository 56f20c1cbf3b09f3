package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The golden corpus: Connect schemas and values, the exact Avro schema text that Confluent's converter
 * registers for them, and the way back. Each case names its source: a test of Confluent's
 * {@code AvroDataTest} (schema-registry, avro-data module), whose expected schemas are written here as the
 * JSON that Avro prints for them, or the rule of {@code AvroData} it follows. The expected text keeps
 * Confluent's order of properties (the order {@code AvroData} adds them), because a registry compares schema
 * text: the same text is the same id.
 */
class ConfluentAvroDataCorpusTest {
  private static final String DECIMAL = "org.apache.kafka.connect.data.Decimal";

  /**
   * One pair.
   *
   * @param name what it covers, and where the expectation comes from
   * @param settings the AvroData switches that differ from Confluent's defaults
   * @param connect the Connect schema
   * @param value a Connect value of it
   * @param avroJson the Avro schema text Confluent's converter makes of it
   * @param back the Connect schema the Avro schema is read back as ({@code connect} itself when {@code null})
   */
  record Case(String name, Map<String, Object> settings, Schema connect, Object value, String avroJson, Schema back) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Case pair(String name, Schema connect, Object value, String avroJson) {
    return new Case(name, Map.of(), connect, value, avroJson, null);
  }

  private static Case pair(String name, Map<String, Object> settings, Schema connect, Object value, String avroJson,
      Schema back) {
    return new Case(name, settings, connect, value, avroJson, back);
  }

  private static final Schema INT32_STRUCT = SchemaBuilder.struct().field("int32", Schema.INT32_SCHEMA).build();
  private static final Schema METADATA_STRUCT = SchemaBuilder.struct().name("io.confluent.test.TestSchema")
      .version(12).doc("doc").field("int32", Schema.INT32_SCHEMA).build();
  private static final Schema OPTIONAL_STRING_WITH_METADATA = SchemaBuilder.string().doc("doc").defaultValue("foo")
      .name("io.confluent.stringtype").version(2).optional().parameter("foo", "bar").parameter("baz", "baz").build();
  private static final Schema INNER = SchemaBuilder.struct().field("value", Schema.INT64_SCHEMA).optional().build();
  private static final Schema OUTER = SchemaBuilder.struct().field("struct", INNER)
      .field("array", SchemaBuilder.array(INNER).build()).build();
  private static final Schema ENUM = SchemaBuilder.string().name("com.acme.Kind")
      .parameter("io.confluent.connect.avro.Enum", "com.acme.Kind")
      .parameter("io.confluent.connect.avro.Enum.A", "A").parameter("io.confluent.connect.avro.Enum.B", "B").build();
  private static final Schema UNION = SchemaBuilder.struct().name("io.confluent.connect.avro.Union")
      .field("int", Schema.OPTIONAL_INT32_SCHEMA).field("string", Schema.OPTIONAL_STRING_SCHEMA).build();
  private static final Schema OPTIONAL_UNION = SchemaBuilder.struct().name("io.confluent.connect.avro.Union")
      .field("int", Schema.OPTIONAL_INT32_SCHEMA).field("string", Schema.OPTIONAL_STRING_SCHEMA).optional().build();
  private static final Schema TEST1 = SchemaBuilder.struct().name("Test1").field("test", Schema.INT32_SCHEMA)
      .optional().build();
  private static final Schema RECORD_UNION = SchemaBuilder.struct().name("io.confluent.connect.avro.Union")
      .field("int", Schema.OPTIONAL_INT32_SCHEMA).field("Test1", TEST1).build();
  private static final Schema FIXED = SchemaBuilder.bytes().name("sample").parameter("connect.fixed.size", "4")
      .build();
  private static final Schema SCRUBBED = SchemaBuilder.struct().name("io.acme.my-record")
      .field("my-field", Schema.INT32_SCHEMA).field("0count", Schema.INT64_SCHEMA).build();
  private static final Schema MAP_ENTRY_SCHEMA = SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.INT32_SCHEMA).build();
  private static final Schema NAMED_MAP = SchemaBuilder.map(Schema.INT32_SCHEMA, Schema.INT32_SCHEMA).name("foo.bar")
      .build();
  private static final Schema OPTIONAL_KEY_MAP = SchemaBuilder.map(Schema.OPTIONAL_STRING_SCHEMA,
      Schema.INT32_SCHEMA).build();
  private static final Schema DOCUMENTED = SchemaBuilder.struct().name("n.R")
      .parameter("io.confluent.connect.avro.record.doc", "a record")
      .parameter("io.confluent.connect.avro.field.doc.x", "an x")
      .field("x", Schema.INT32_SCHEMA).build();
  private static final Schema WITH_DEFAULTS = SchemaBuilder.struct().name("com.acme.Defaults")
      .field("int8", SchemaBuilder.int8().defaultValue((byte) 2).doc("int8 field").build())
      .field("note", Schema.OPTIONAL_STRING_SCHEMA)
      .field("tier", SchemaBuilder.string().optional().defaultValue("bronze").build())
      .field("score", SchemaBuilder.int32().defaultValue(7).build())
      .build();

  static Stream<Case> corpus() {
    return Stream.of(
        // Primitives: AvroDataTest.testFromConnectBoolean ... testFromConnectBytes, testFromConnectByte/Short.
        pair("boolean (testFromConnectBoolean)", Schema.BOOLEAN_SCHEMA, true, "\"boolean\""),
        pair("int8 carries connect.type (testFromConnectByte)", Schema.INT8_SCHEMA, (byte) 12,
            "{\"type\":\"int\",\"connect.type\":\"int8\"}"),
        pair("int16 carries connect.type (testFromConnectShort)", Schema.INT16_SCHEMA, (short) 12,
            "{\"type\":\"int\",\"connect.type\":\"int16\"}"),
        pair("int32 (testFromConnectInteger)", Schema.INT32_SCHEMA, 12, "\"int\""),
        pair("int64 (testFromConnectLong)", Schema.INT64_SCHEMA, 12L, "\"long\""),
        pair("float32 (testFromConnectFloat)", Schema.FLOAT32_SCHEMA, 12.2f, "\"float\""),
        pair("float64 (testFromConnectDouble)", Schema.FLOAT64_SCHEMA, 12.2d, "\"double\""),
        pair("string (testFromConnectString)", Schema.STRING_SCHEMA, "foo", "\"string\""),
        pair("bytes (testFromConnectBytes)", Schema.BYTES_SCHEMA, ByteBuffer.wrap(new byte[] {1, 2}), "\"bytes\""),
        pair("optional string: null first, null default (AvroData.maybeMakeOptional)", Schema.OPTIONAL_STRING_SCHEMA,
            "x", "[\"null\",\"string\"]"),
        pair("optional primitive with name, doc, version, default, parameters "
            + "(testFromConnectOptionalPrimitiveWithMetadata)", OPTIONAL_STRING_WITH_METADATA, "string",
            "[{\"type\":\"string\",\"connect.doc\":\"doc\",\"connect.version\":2,\"connect.parameters\":{\"foo\":"
                + "\"bar\",\"baz\":\"baz\"},\"connect.default\":\"foo\",\"connect.name\":\"io.confluent.stringtype\"},"
                + "\"null\"]"),
        // Logical types: createDecimalSchema, testFromConnectLogicalDateNew, ...TimeNew, ...TimestampNew.
        pair("decimal as bytes, precision 64 by default (testFromConnectLogicalDecimalNew)", Decimal.schema(2),
            new BigDecimal("156.00"), "{\"type\":\"bytes\",\"scale\":2,\"precision\":64,\"connect.version\":1,"
                + "\"connect.parameters\":{\"scale\":\"2\"},\"connect.name\":\"" + DECIMAL + "\",\"logicalType\":"
                + "\"decimal\"}"),
        pair("decimal with connect.decimal.precision (createDecimalSchema)",
            Decimal.builder(3).parameter("connect.decimal.precision", "10").build(), new BigDecimal("1.234"),
            "{\"type\":\"bytes\",\"scale\":3,\"precision\":10,\"connect.version\":1,\"connect.parameters\":"
                + "{\"scale\":\"3\",\"connect.decimal.precision\":\"10\"},\"connect.name\":\"" + DECIMAL + "\","
                + "\"logicalType\":\"decimal\"}"),
        pair("decimal whose scale exceeds its precision keeps the legacy property only "
            + "(testFromConnectLogicalDecimalScaleGreaterThanPrecision)",
            Decimal.builder(5).parameter("connect.decimal.precision", "3").build(), new BigDecimal("0.00012"),
            "{\"type\":\"bytes\",\"scale\":5,\"precision\":3,\"connect.version\":1,\"connect.parameters\":"
                + "{\"scale\":\"5\",\"connect.decimal.precision\":\"3\"},\"connect.name\":\"" + DECIMAL + "\","
                + "\"logicalType\":\"decimal\"}"),
        pair("date (testFromConnectLogicalDateNew)", Date.SCHEMA, new java.util.Date(10L * 86_400_000L),
            "{\"type\":\"int\",\"connect.version\":1,\"connect.name\":\"org.apache.kafka.connect.data.Date\","
                + "\"logicalType\":\"date\"}"),
        pair("time (testFromConnectLogicalTimeNew)", Time.SCHEMA, new java.util.Date(12_345L),
            "{\"type\":\"int\",\"connect.version\":1,\"connect.name\":\"org.apache.kafka.connect.data.Time\","
                + "\"logicalType\":\"time-millis\"}"),
        pair("timestamp (testFromConnectLogicalTimestampNew)", Timestamp.SCHEMA, new java.util.Date(1_700_000_000_123L),
            "{\"type\":\"long\",\"connect.version\":1,\"connect.name\":\"org.apache.kafka.connect.data.Timestamp\","
                + "\"logicalType\":\"timestamp-millis\"}"),
        pair("optional timestamp", Timestamp.builder().optional().build(), new java.util.Date(5L),
            "[\"null\",{\"type\":\"long\",\"connect.version\":1,\"connect.name\":"
                + "\"org.apache.kafka.connect.data.Timestamp\",\"logicalType\":\"timestamp-millis\"}]"),
        // Structs.
        pair("unnamed struct is io.confluent.connect.avro.ConnectDefault (testFromConnectComplex)", INT32_STRUCT,
            new Struct(INT32_STRUCT).put("int32", 12), "{\"type\":\"record\",\"name\":\"ConnectDefault\",\"namespace\":"
                + "\"io.confluent.connect.avro\",\"fields\":[{\"name\":\"int32\",\"type\":\"int\"}]}"),
        pair("named struct with version and doc (testFromConnectRecordWithMetadata)", METADATA_STRUCT,
            new Struct(METADATA_STRUCT).put("int32", 12), "{\"type\":\"record\",\"name\":\"TestSchema\",\"namespace\":"
                + "\"io.confluent.test\",\"fields\":[{\"name\":\"int32\",\"type\":\"int\"}],\"connect.doc\":\"doc\","
                + "\"connect.version\":12,\"connect.name\":\"io.confluent.test.TestSchema\"}"),
        pair("nested unnamed structs are ConnectDefault, ConnectDefault2 (testFromConnectStructsWithNullName)",
            OUTER, new Struct(OUTER).put("struct", new Struct(INNER).put("value", 46421L))
                .put("array", List.of(new Struct(INNER).put("value", 1L))),
            "{\"type\":\"record\",\"name\":\"ConnectDefault\",\"namespace\":\"io.confluent.connect.avro\",\"fields\":"
                + "[{\"name\":\"struct\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"ConnectDefault2\","
                + "\"fields\":[{\"name\":\"value\",\"type\":\"long\"}]}],\"default\":null},{\"name\":\"array\","
                + "\"type\":{\"type\":\"array\",\"items\":[\"null\",\"ConnectDefault2\"]}}]}"),
        pair("defaults: connect.default on the type, the default on the field; a nullable with a default puts its "
            + "type first (testFromConnectComplex, testFromConnectComplexWithDefaults)", WITH_DEFAULTS,
            new Struct(WITH_DEFAULTS).put("int8", (byte) 1).put("note", null).put("tier", "gold").put("score", 9),
            "{\"type\":\"record\",\"name\":\"Defaults\",\"namespace\":\"com.acme\",\"fields\":[{\"name\":\"int8\","
                + "\"type\":{\"type\":\"int\",\"connect.doc\":\"int8 field\",\"connect.default\":2,\"connect.type\":"
                + "\"int8\"},\"default\":2},{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null},"
                + "{\"name\":\"tier\",\"type\":[{\"type\":\"string\",\"connect.default\":\"bronze\"},\"null\"],"
                + "\"default\":\"bronze\"},{\"name\":\"score\",\"type\":{\"type\":\"int\",\"connect.default\":7},"
                + "\"default\":7}],\"connect.name\":\"com.acme.Defaults\"}"),
        pair("record and field docs travel as parameters (AVRO_RECORD_DOC_PROP, AVRO_FIELD_DOC_PREFIX_PROP)",
            DOCUMENTED, new Struct(DOCUMENTED).put("x", 1),
            "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"n\",\"doc\":\"a record\",\"fields\":[{\"name\":\"x\","
                + "\"type\":\"int\",\"doc\":\"an x\"}],\"connect.parameters\":{\"io.confluent.connect.avro.record.doc\":"
                + "\"a record\",\"io.confluent.connect.avro.field.doc.x\":\"an x\"},\"connect.name\":\"n.R\"}"),
        // Arrays and maps: testFromConnectMapWithStringKey, ...NonStringKey, testFromNamedConnectMapWithNonStringKey.
        pair("array", SchemaBuilder.array(Schema.STRING_SCHEMA).build(), List.of("a", "b"),
            "{\"type\":\"array\",\"items\":\"string\"}"),
        pair("array of optional ints", SchemaBuilder.array(Schema.OPTIONAL_INT32_SCHEMA).build(),
            java.util.Arrays.asList(1, null), "{\"type\":\"array\",\"items\":[\"null\",\"int\"]}"),
        pair("map with string keys (testFromConnectMapWithStringKey)",
            SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).build(), Map.of("k", 1),
            "{\"type\":\"map\",\"values\":\"int\"}"),
        pair("map with int keys is an array of MapEntry (testFromConnectMapWithNonStringKey)", MAP_ENTRY_SCHEMA,
            Map.of(1, 2), "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"MapEntry\",\"namespace\":"
                + "\"io.confluent.connect.avro\",\"fields\":[{\"name\":\"key\",\"type\":\"int\"},{\"name\":\"value\","
                + "\"type\":\"int\"}]}}"),
        pair("named map with int keys (testFromNamedConnectMapWithNonStringKey)", NAMED_MAP, Map.of(1, 2),
            "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"bar\",\"namespace\":\"foo\",\"fields\":"
                + "[{\"name\":\"key\",\"type\":\"int\"},{\"name\":\"value\",\"type\":\"int\"}],"
                + "\"connect.internal.type\":\"MapEntry\"},\"connect.name\":\"foo.bar\"}"),
        pair("map with optional string keys is an array by default (testFromConnectMapWithOptionalKey)",
            OPTIONAL_KEY_MAP, Map.of("k", 1), "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":"
                + "\"MapEntry\",\"namespace\":\"io.confluent.connect.avro\",\"fields\":[{\"name\":\"key\",\"type\":"
                + "[\"null\",\"string\"],\"default\":null},{\"name\":\"value\",\"type\":\"int\"}]}}"),
        pair("allow.optional.map.keys makes it a map (testFromConnectMapWithAllowOptionalKey)",
            Map.of("allow.optional.map.keys", true), OPTIONAL_KEY_MAP, Map.of("k", 1),
            "{\"type\":\"map\",\"values\":\"int\"}",
            SchemaBuilder.map(Schema.STRING_SCHEMA, Schema.INT32_SCHEMA).build()),
        // Enums: testFromConnectEnum, testToConnectEnum.
        pair("enum read without enhanced support stays a string with its parameters (testToConnectEnum)", ENUM, "B",
            "{\"type\":\"string\",\"connect.parameters\":{\"io.confluent.connect.avro.Enum\":\"com.acme.Kind\","
                + "\"io.confluent.connect.avro.Enum.A\":\"A\",\"io.confluent.connect.avro.Enum.B\":\"B\"},"
                + "\"connect.name\":\"com.acme.Kind\"}"),
        pair("enum with enhanced.avro.schema.support (testFromConnectEnum)",
            Map.of("enhanced.avro.schema.support", true), ENUM, "B",
            "{\"type\":\"enum\",\"name\":\"Kind\",\"namespace\":\"com.acme\",\"symbols\":[\"A\",\"B\"],"
                + "\"connect.parameters\":{\"io.confluent.connect.avro.Enum\":\"com.acme.Kind\","
                + "\"io.confluent.connect.avro.Enum.A\":\"A\",\"io.confluent.connect.avro.Enum.B\":\"B\"},"
                + "\"connect.name\":\"com.acme.Kind\"}", null),
        // Unions: testToConnectUnion, testFromConnectFixedUnion.
        pair("union struct is an Avro union (testToConnectUnion)", UNION, new Struct(UNION).put("string", "s"),
            "[\"int\",\"string\"]"),
        pair("optional union struct puts null first", OPTIONAL_UNION, new Struct(OPTIONAL_UNION).put("int", 3),
            "[\"null\",\"int\",\"string\"]"),
        pair("union with a record branch named by its simple name (testToConnectUnion)", RECORD_UNION,
            new Struct(RECORD_UNION).put("Test1", new Struct(TEST1).put("test", 12)),
            "[\"int\",{\"type\":\"record\",\"name\":\"Test1\",\"fields\":[{\"name\":\"test\",\"type\":\"int\"}],"
                + "\"connect.name\":\"Test1\"}]"),
        // Fixed: testFromConnectBytesFixed.
        pair("fixed keeps its name and size (testFromConnectBytesFixed)", FIXED, ByteBuffer.wrap("foob".getBytes()),
            "{\"type\":\"fixed\",\"name\":\"sample\",\"size\":4,\"connect.parameters\":{\"connect.fixed.size\":"
                + "\"4\"},\"connect.name\":\"sample\"}"),
        pair("decimal in a fixed (testFromConnectLogicalDecimalFixedNew, createDecimalSchema)",
            Decimal.builder(2).parameter("connect.decimal.precision", "18").parameter("connect.fixed.size", "8")
                .build(), new BigDecimal("-1.50"),
            "{\"type\":\"fixed\",\"name\":\"Decimal\",\"namespace\":\"org.apache.kafka.connect.data\",\"size\":8,"
                + "\"scale\":2,\"precision\":18,\"connect.version\":1,\"connect.parameters\":{\"scale\":\"2\","
                + "\"connect.decimal.precision\":\"18\",\"connect.fixed.size\":\"8\"},\"connect.name\":\"" + DECIMAL
                + "\",\"logicalType\":\"decimal\"}"),
        // Names: testNameScrubbing, testFromConnectWithInvalidName.
        pair("scrub.invalid.names replaces what Avro refuses, and a leading digit gets an x (testNameScrubbing)",
            Map.of("scrub.invalid.names", true), SCRUBBED, new Struct(SCRUBBED).put("my-field", 1).put("0count", 2L),
            "{\"type\":\"record\",\"name\":\"my_record\",\"namespace\":\"io.acme\",\"fields\":[{\"name\":"
                + "\"my_field\",\"type\":\"int\"},{\"name\":\"x0count\",\"type\":\"long\"}],\"connect.name\":"
                + "\"io.acme.my-record\"}",
            // Read back with the Avro field names, under the Connect name kept in connect.name.
            SchemaBuilder.struct().name("io.acme.my-record").field("my_field", Schema.INT32_SCHEMA)
                .field("x0count", Schema.INT64_SCHEMA).build()),
        // Metadata off: testAvroWithAndWithoutMetaData.
        pair("connect.meta.data=false writes no connect.* property (testAvroWithAndWithoutMetaData)",
            Map.of("connect.meta.data", false), METADATA_STRUCT, new Struct(METADATA_STRUCT).put("int32", 3),
            "{\"type\":\"record\",\"name\":\"TestSchema\",\"namespace\":\"io.confluent.test\",\"fields\":[{\"name\":"
                + "\"int32\",\"type\":\"int\"}]}",
            SchemaBuilder.struct().name("io.confluent.test.TestSchema").field("int32", Schema.INT32_SCHEMA).build()),
        pair("connect.meta.data=false drops int8's connect.type: it reads back as int32",
            Map.of("connect.meta.data", false), Schema.INT8_SCHEMA, (byte) 4, "\"int\"", Schema.INT32_SCHEMA));
  }

  private static ConnectAvroData data(Map<String, Object> settings) {
    return new ConnectAvroData(new ConverterConfig(settings));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void connectToAvro_registersConfluentsSchemaText_andReadsBack(Case c) throws IOException {
    ConnectAvroData data = data(c.settings());

    ConnectAvroData.ToAvro toAvro = data.toAvro(c.connect());
    org.apache.avro.Schema avro = toAvro.schema();

    assertThat(avro.toString()).isEqualTo(c.avroJson());
    assertThat(new org.apache.avro.Schema.Parser().parse(c.avroJson())).isEqualTo(avro);
    Schema back = data(c.settings()).toConnect(new org.apache.avro.Schema.Parser().parse(avro.toString()), null)
        .schema();
    assertThat(back).isEqualTo(c.back() != null ? c.back() : c.connect());

    // The value: Connect to Avro's generic form, through Avro's own writer and reader, and back.
    Object datum = toAvro.mapper().map(c.value());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<Object>(avro).write(datum, encoder);
    encoder.flush();
    Object read = new GenericDatumReader<Object>(avro).read(null,
        DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
    Object value = data.toConnect(avro, null).mapper().map(read);
    if (c.back() == null) {
      assertThat(value).isEqualTo(c.value());
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("avroSide")
  void avroToConnect_readsConfluentWrittenSchemasAs(String name, Map<String, Object> settings, String avroJson,
      Schema expected) {
    assertThat(data(settings).toConnect(new org.apache.avro.Schema.Parser().parse(avroJson), null).schema())
        .isEqualTo(expected);
  }

  static Stream<org.junit.jupiter.params.provider.Arguments> avroSide() {
    Map<String, Object> none = Map.of();
    Schema enhancedUnion = SchemaBuilder.struct().name("io.confluent.connect.avro.Union")
        .field("int", Schema.OPTIONAL_INT32_SCHEMA)
        .field("io.confluent.Test2", SchemaBuilder.struct().name("io.confluent.Test2")
            .field("test", Schema.INT32_SCHEMA).optional().build()).build();
    Map<String, Object> generalized = new HashMap<>(Map.of("generalized.sum.type.support", true));
    return Stream.of(
        org.junit.jupiter.params.provider.Arguments.of("singleton union flattens (testToConnectSingletonUnion)", none,
            "[\"string\"]", Schema.STRING_SCHEMA),
        org.junit.jupiter.params.provider.Arguments.of("singleton union kept with flatten.singleton.unions=false",
            Map.of("flatten.singleton.unions", false), "[\"string\"]",
            SchemaBuilder.struct().name("io.confluent.connect.avro.Union")
                .field("string", Schema.OPTIONAL_STRING_SCHEMA).build()),
        org.junit.jupiter.params.provider.Arguments.of("union branches by full name with enhanced support "
            + "(testToConnectUnionWithEnhanced)", Map.of("enhanced.avro.schema.support", true),
            "[\"int\",{\"type\":\"record\",\"name\":\"Test2\",\"namespace\":\"io.confluent\",\"fields\":[{\"name\":"
                + "\"test\",\"type\":\"int\"}]}]", enhancedUnion),
        org.junit.jupiter.params.provider.Arguments.of("generalized.sum.type.support: connect_union_0 with "
            + "connect_union_field_N (testToConnectUnionWithGeneralizedSumTypeSupport)", generalized,
            "[\"int\",\"string\"]", SchemaBuilder.struct().name("connect_union_0")
                .parameter("org.apache.kafka.connect.data.Union", "connect_union_0")
                .field("connect_union_field_0", Schema.OPTIONAL_INT32_SCHEMA)
                .field("connect_union_field_1", Schema.OPTIONAL_STRING_SCHEMA).build()),
        org.junit.jupiter.params.provider.Arguments.of("enum as string with doc, default and symbols "
            + "(testToConnectEnum)", none, "{\"type\":\"enum\",\"name\":\"Kind\",\"namespace\":\"com.acme\","
                + "\"doc\":\"kinds\",\"symbols\":[\"A\",\"B\"],\"default\":\"A\"}",
            SchemaBuilder.string().name("com.acme.Kind")
                .parameter("io.confluent.connect.avro.enum.doc.Kind", "kinds")
                .parameter("io.confluent.connect.avro.enum.default.Kind", "A")
                .parameter("io.confluent.connect.avro.Enum", "com.acme.Kind")
                .parameter("io.confluent.connect.avro.Enum.A", "A")
                .parameter("io.confluent.connect.avro.Enum.B", "B").build()),
        org.junit.jupiter.params.provider.Arguments.of("enum with generalized.sum.type.support: symbols numbered "
            + "(testToConnectEnumWithGeneralizedSumTypeSupport)", generalized,
            "{\"type\":\"enum\",\"name\":\"Kind\",\"symbols\":[\"A\",\"B\"]}",
            SchemaBuilder.string().name("Kind").parameter("org.apache.kafka.connect.data.Enum", "Kind")
                .parameter("org.apache.kafka.connect.data.Enum.A", "0")
                .parameter("org.apache.kafka.connect.data.Enum.B", "1").build()),
        org.junit.jupiter.params.provider.Arguments.of("a field default without connect.default is flagged "
            + "(AVRO_FIELD_DEFAULT_FLAG_PROP, testRecordDefaultAtFieldLevel)", none,
            "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"n\",\"type\":\"int\",\"default\":5}]}",
            SchemaBuilder.struct().name("R").field("n", SchemaBuilder.int32().defaultValue(5)
                .parameter("io.confluent.connect.avro.field.default", "true").build()).build()),
        org.junit.jupiter.params.provider.Arguments.of("uuid and timestamp-micros are plain string and long, as "
            + "in Confluent", none, "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"id\",\"type\":{"
                + "\"type\":\"string\",\"logicalType\":\"uuid\"}},{\"name\":\"at\",\"type\":{\"type\":\"long\","
                + "\"logicalType\":\"timestamp-micros\"}}]}",
            SchemaBuilder.struct().name("R").field("id", Schema.STRING_SCHEMA).field("at", Schema.INT64_SCHEMA)
                .build()),
        org.junit.jupiter.params.provider.Arguments.of("Kavro keeps them with enhanced.avro.schema.support", Map.of(
            "enhanced.avro.schema.support", true), "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"id\","
                + "\"type\":{\"type\":\"string\",\"logicalType\":\"uuid\"}}]}",
            SchemaBuilder.struct().name("R").field("id", SchemaBuilder.string()
                .parameter("io.kavro.connect.avro.logical.type", "uuid").build()).build()),
        org.junit.jupiter.params.provider.Arguments.of("the Anything record is schemaless (testToConnectSchemaless)",
            none, Schemaless.ANYTHING.toString(), null));
  }
}
