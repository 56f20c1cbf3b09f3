package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, item 7: a record of a recursive schema can nest deeper than the stack, or Jackson, goes; the console
 * tool reports it as a clear error of that record, both formats, instead of dying of a stack overflow.
 */
class JsonLinesTest {
  private static final Schema NODE = new Schema.Parser().parse("""
      {"type":"record","name":"Node","fields":[{"name":"v","type":"int"},{"name":"next","type":["null","Node"]}]}""");

  private static GenericRecord nested(int levels) {
    GenericRecord head = null;
    for (int i = 0; i <= levels; i++) {
      GenericRecord node = new GenericData.Record(NODE);
      node.put("v", i);
      node.put("next", head);
      head = node;
    }
    return head;
  }

  @Test
  void deepRecord_clearErrorInBothFormats_shallowOnePrints() {
    assertThatThrownBy(() -> JsonLines.datum(nested(2_000), NODE, JsonLines.Format.json))
        .isInstanceOf(CliException.class).hasMessageContaining("deeper than " + JsonLines.MAX_DEPTH);
    assertThatThrownBy(() -> JsonLines.datum(nested(200_000), NODE, JsonLines.Format.avro_json))
        .isInstanceOf(RuntimeException.class); // was a StackOverflowError, an Error
    assertThat(JsonLines.line(JsonLines.datum(nested(2), NODE, JsonLines.Format.json)))
        .isEqualTo("{\"v\":2,\"next\":{\"v\":1,\"next\":{\"v\":0,\"next\":null}}}");
  }
}
