package io.kavro.registry.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 33, item 4: schema texts that registries hold are read as Avro up to 1.12.1 reads them, on Avro 1.12.2 too,
 * which refuses a reference to a named type written as an object, {@code {"type":"ns.Place"}} (AVRO-4176). Each
 * expected text is what Avro 1.12.0 and 1.11.4 print for the same input (run by hand against their jars).
 */
class HeldSchemaParserTest {
  private static final String PLACE = "{\"type\":\"record\",\"name\":\"Place\",\"namespace\":\"ns\",\"fields\":"
      + "[{\"name\":\"n\",\"type\":\"string\"}]}";
  private static final String PLACE_PRINTED = "{\"type\":\"record\",\"name\":\"Place\",\"fields\":"
      + "[{\"name\":\"n\",\"type\":\"string\"}]}";

  /** A record ns.R whose field p defines ns.Place and whose field q is {@code qType}. */
  private static String record(String qType) {
    return "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"ns\",\"fields\":[{\"name\":\"p\",\"type\":" + PLACE
        + "},{\"name\":\"q\",\"type\":" + qType + "}]}";
  }

  private static String printed(String qType) {
    return "{\"type\":\"record\",\"name\":\"R\",\"namespace\":\"ns\",\"fields\":[{\"name\":\"p\",\"type\":"
        + PLACE_PRINTED + "},{\"name\":\"q\",\"type\":" + qType + "}]}";
  }

  /** Every place a schema stands in a schema, and the forms of the name that Avro 1.12.1 accepts there. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "full name            | {\"type\":\"ns.Place\"}                                          | \"Place\"",
      "name relative to ns  | {\"type\":\"Place\"}                                             | \"Place\"",
      "other attributes     | {\"type\":\"ns.Place\",\"doc\":\"d\",\"logicalType\":\"x\",\"namespace\":\"o\"} "
          + "| \"Place\"",
      "union branch         | [\"null\",{\"type\":\"ns.Place\"}]                                | [\"null\",\"Place\"]",
      "array items          | {\"type\":\"array\",\"items\":{\"type\":\"Place\"}}              "
          + "| {\"type\":\"array\",\"items\":\"Place\"}",
      "map values           | {\"type\":\"map\",\"values\":{\"type\":\"ns.Place\"}}           "
          + "| {\"type\":\"map\",\"values\":\"Place\"}",
      "array of union       | {\"type\":\"array\",\"items\":[\"null\",{\"type\":\"Place\"}]} "
          + "| {\"type\":\"array\",\"items\":[\"null\",\"Place\"]}",
  })
  void objectFormReference_readAsTheNamedType(String where, String qType, String expected) {
    Schema schema = new HeldSchemaParser().parse(record(qType));

    assertThat(schema.toString()).isEqualTo(printed(expected));
    Schema place = schema.getField("p").schema();
    Schema q = schema.getField("q").schema();
    Schema named = switch (q.getType()) {
      case UNION -> q.getTypes().get(1);
      case ARRAY -> q.getElementType().isUnion() ? q.getElementType().getTypes().get(1) : q.getElementType();
      case MAP -> q.getValueType();
      default -> q;
    };
    assertThat(named).isSameAs(place);
  }

  @Test
  void selfReference_inAUnion_readAsTheRecordItself() {
    Schema node = new HeldSchemaParser().parse("{\"type\":\"record\",\"name\":\"Node\",\"namespace\":\"ns\","
        + "\"fields\":[{\"name\":\"next\",\"type\":[\"null\",{\"type\":\"Node\"}],\"default\":null}]}");

    assertThat(node.toString()).isEqualTo("{\"type\":\"record\",\"name\":\"Node\",\"namespace\":\"ns\",\"fields\":"
        + "[{\"name\":\"next\",\"type\":[\"null\",\"Node\"],\"default\":null}]}");
    assertThat(node.getField("next").schema().getTypes().get(1)).isSameAs(node);
  }

  @Test
  void nameInAnEnclosingRecordsOtherNamespace_resolvedThere() {
    Schema top = new HeldSchemaParser().parse("{\"type\":\"record\",\"name\":\"Top\",\"namespace\":\"a\",\"fields\":["
        + "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"namespace\":\"b\",\"size\":2}},"
        + "{\"name\":\"in\",\"type\":{\"type\":\"record\",\"name\":\"In\",\"namespace\":\"b\",\"fields\":["
        + "{\"name\":\"g\",\"type\":{\"type\":\"F\"}}]}}]}");

    assertThat(top.getField("in").schema().getField("g").schema()).isSameAs(top.getField("f").schema());
  }

  /** A type that a text parsed before defines (as a referenced subject's version does). */
  @Test
  void referenceToATypeOfAnEarlierText_andAWholeSchemaThatIsOne() {
    HeldSchemaParser parser = new HeldSchemaParser();
    Schema place = parser.parse(PLACE);

    Schema order = parser.parse("{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"ns\",\"fields\":"
        + "[{\"name\":\"to\",\"type\":{\"type\":\"ns.Place\"}}]}");
    Schema whole = parser.parse("{\"type\":\"ns.Place\"}");

    assertThat(order.toString()).isEqualTo("{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"ns\","
        + "\"fields\":[{\"name\":\"to\",\"type\":" + PLACE_PRINTED + "}]}");
    // Equal, not the same: the earlier text was read again into a fresh parser, once (the last schema is used).
    assertThat(order.getField("to").schema()).isEqualTo(place);
    assertThat(whole).isSameAs(order.getField("to").schema());
  }

  /** After a text was read again, the texts that follow still know every name defined so far. */
  @Test
  void textAfterARewrittenOne_stillKnowsEveryName() {
    HeldSchemaParser parser = new HeldSchemaParser();
    parser.parse(PLACE);
    parser.parse("{\"type\":\"enum\",\"name\":\"Kind\",\"namespace\":\"ns\",\"symbols\":[\"A\"]}");
    parser.parse("{\"type\":\"record\",\"name\":\"Order\",\"namespace\":\"ns\",\"fields\":"
        + "[{\"name\":\"to\",\"type\":{\"type\":\"Place\"}}]}");

    Schema last = parser.parse("{\"type\":\"record\",\"name\":\"Batch\",\"namespace\":\"ns\",\"fields\":["
        + "{\"name\":\"k\",\"type\":{\"type\":\"Kind\"}},{\"name\":\"o\",\"type\":\"Order\"}]}");

    assertThat(last.getField("k").schema().getType()).isEqualTo(Schema.Type.ENUM);
    assertThat(last.getField("o").schema().getField("to").schema().getFullName()).isEqualTo("ns.Place");
  }

  /** An object in a default or a property is a value, not a schema: it is left as it is. */
  @Test
  void objectsInDefaultsAndProperties_leftAsTheyAre() {
    Schema schema = new HeldSchemaParser().parse(record("{\"type\":\"Place\"}").replace("\"fields\"",
        "\"meta\":{\"type\":\"ns.Nope\"},\"fields\"").replace("{\"name\":\"n\",\"type\":\"string\"}",
        "{\"name\":\"n\",\"type\":{\"type\":\"map\",\"values\":\"string\"},\"default\":{\"type\":\"ns.Nope\"}}"));

    assertThat(schema.getProp("meta")).isNull();
    assertThat(schema.getObjectProp("meta")).isEqualTo(java.util.Map.of("type", "ns.Nope"));
    assertThat(schema.getField("p").schema().getField("n").defaultVal()).isEqualTo(java.util.Map.of("type",
        "ns.Nope"));
  }

  /** What Avro 1.12.1 refuses too is refused, with Avro's message. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "undefined name       | {\"type\":\"ns.Nope\"}                | ns.Nope",
      "type nested as type  | {\"type\":{\"type\":\"ns.Place\"}}   | No type",
  })
  void whatAvro1121RefusesToo_refused(String what, String qType, String message) {
    assertThatThrownBy(() -> new HeldSchemaParser().parse(record(qType)))
        .isInstanceOf(AvroRuntimeException.class)
        .hasMessageContaining(message);
  }

  /** Reading the text again as JSON must not drop what follows the schema, which Avro refuses. */
  @Test
  void objectFormReferenceInATextWithTrailingContent_refused() {
    String text = record("{\"type\":\"Place\"}") + " {\"type\":\"int\"}";

    assertThatThrownBy(() -> new HeldSchemaParser().parse(text)).isInstanceOf(AvroRuntimeException.class);
  }

  /** A whole schema that names a type no text defines: Avro 1.12 throws a NullPointerException for it. */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"\"ns.Nope\"", "{\"type\":\"ns.Nope\"}",
      "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\"}"})
  void wholeSchemaNamingNoType_avroException(String text) {
    assertThatThrownBy(() -> new HeldSchemaParser().parse(text)).isInstanceOf(AvroRuntimeException.class);
  }

  @Test
  void textThatAvroAccepts_parsedOnceAsItIs() {
    Schema schema = new HeldSchemaParser().parse(record("[\"null\",\"Place\"]"));

    assertThat(schema.toString()).isEqualTo(printed("[\"null\",\"Place\"]"));
  }
}
