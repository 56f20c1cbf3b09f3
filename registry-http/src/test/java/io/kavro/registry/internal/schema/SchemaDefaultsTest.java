package io.kavro.registry.internal.schema;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.InvalidSchemaException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SchemaDefaults#check} judges a schema's defaults as Avro's parser does with default validation on: the same
 * schemas pass, and the same ones fail with Avro's own message, wherever the field is (nested records, arrays,
 * maps, union branches).
 */
class SchemaDefaultsTest {
  private static final String RECORD = "{\"type\":\"record\",\"name\":\"R\",\"fields\":[%s]}";

  @ParameterizedTest
  @ValueSource(strings = {
      "{\"name\":\"n\",\"type\":\"int\",\"default\":1}",
      "{\"name\":\"n\",\"type\":\"int\",\"default\":\"x\"}",
      "{\"name\":\"n\",\"type\":\"long\",\"default\":null}",
      "{\"name\":\"n\",\"type\":\"int\",\"default\":3000000000}",
      "{\"name\":\"n\",\"type\":[\"null\",\"string\"],\"default\":null}",
      "{\"name\":\"n\",\"type\":[\"null\",\"string\"],\"default\":\"x\"}",
      "{\"name\":\"n\",\"type\":[\"string\",\"null\"],\"default\":null}",
      "{\"name\":\"n\",\"type\":{\"type\":\"array\",\"items\":\"int\"},\"default\":[1,\"x\"]}",
      "{\"name\":\"n\",\"type\":{\"type\":\"map\",\"values\":\"long\"},\"default\":{\"a\":1}}",
      "{\"name\":\"n\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\"]},\"default\":1}",
      "{\"name\":\"n\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":2},\"default\":\"ab\"}",
      "{\"name\":\"n\",\"type\":{\"type\":\"int\",\"logicalType\":\"date\"},\"default\":\"2020-01-01\"}",
      "{\"name\":\"n\",\"type\":{\"type\":\"record\",\"name\":\"In\",\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]},"
          + "\"default\":{\"x\":\"no\"}}",
      "{\"name\":\"n\",\"type\":{\"type\":\"record\",\"name\":\"In\",\"fields\":[{\"name\":\"x\",\"type\":\"int\","
          + "\"default\":\"no\"}]}}",
      "{\"name\":\"n\",\"type\":{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"In\",\"fields\":["
          + "{\"name\":\"x\",\"type\":\"boolean\",\"default\":0}]}}}",
      "{\"name\":\"n\",\"type\":{\"type\":\"map\",\"values\":{\"type\":\"record\",\"name\":\"In\",\"fields\":["
          + "{\"name\":\"x\",\"type\":\"double\",\"default\":\"NaN\"}]}}}",
      "{\"name\":\"n\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"In\",\"fields\":["
          + "{\"name\":\"x\",\"type\":\"string\",\"default\":null}]}]}",
      "{\"name\":\"n\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"In\",\"fields\":["
          + "{\"name\":\"x\",\"type\":\"string\",\"default\":\"ok\"}]}]}",
  })
  void judgesAsAvrosParser(String field) {
    String text = RECORD.formatted(field);
    Schema lenient = SchemaDefaults.lenientParser().parse(text);
    String avros = avrosVerdict(text);
    if (avros == null) {
      SchemaDefaults.check(lenient, "register");
    } else {
      assertThatThrownBy(() -> SchemaDefaults.check(lenient, "register"))
          .isInstanceOf(InvalidSchemaException.class)
          .hasMessageStartingWith("register refused: " + avros + ";");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"\"int\",\"default\":\"x\"",
      "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":\"In\",\"fields\":["
          + "{\"name\":\"x\",\"type\":\"boolean\",\"default\":0}]}}",
      "[\"null\",{\"type\":\"record\",\"name\":\"In\",\"fields\":["
          + "{\"name\":\"x\",\"type\":\"string\",\"default\":null}]}]"})
  void aBadDefault_refusedWhereverItIs(String type) {
    // The differential above is not vacuous: these are refused, nested in an array's or a union's record too.
    Schema lenient = SchemaDefaults.lenientParser().parse(RECORD.formatted("{\"name\":\"n\",\"type\":" + type + "}"));
    assertThatThrownBy(() -> SchemaDefaults.check(lenient, "register"))
        .isInstanceOf(InvalidSchemaException.class).hasMessageContaining("Invalid default for field");
  }

  /** Avro's parser's message for the schema's defaults, or {@code null} if it takes them. */
  private static String avrosVerdict(String text) {
    try {
      new Schema.Parser().setValidateDefaults(true).parse(text);
      return null;
    } catch (AvroRuntimeException e) {
      return e.getMessage();
    }
  }
}
