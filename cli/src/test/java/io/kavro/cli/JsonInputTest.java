package io.kavro.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Issue 25, items 8 and 10: a line that does not match says which field and why, an extra field is refused,
 * and plain JSON (what consume prints) is read as well as Avro's JSON encoding.
 */
class JsonInputTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[
        {"name":"id","type":"long"},
        {"name":"note","type":["null","string"]},
        {"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[
          {"name":"sku","type":"string"},{"name":"hash","type":{"type":"fixed","name":"Hash","size":2}}]}}}]}""");

  private static JsonNode json(String text) throws Exception {
    return JsonLines.MAPPER.readTree(text);
  }

  private static JsonNode avro(String text) throws Exception {
    return JsonInput.avroJson(json(text), ORDER, JsonLines.Format.avro_json);
  }

  private static JsonNode plain(String text) throws Exception {
    return JsonInput.avroJson(json(text), ORDER, JsonLines.Format.json);
  }

  @Test
  void mismatches_nameTheFieldAndWhatWasThere() {
    assertThatThrownBy(() -> avro("{\"id\":\"two\",\"note\":null,\"lines\":[]}"))
        .hasMessage("field 'id': expected a long, got \"two\"");
    assertThatThrownBy(() -> avro("{\"note\":null,\"lines\":[]}")).hasMessage("field 'id' is missing");
    assertThatThrownBy(() -> avro("{\"id\":1,\"note\":null,\"lines\":[],\"colour\":\"red\"}"))
        .hasMessage("field 'colour' is not in record com.acme.Order");
    assertThatThrownBy(() -> avro("{\"id\":1,\"note\":\"x\",\"lines\":[]}"))
        .hasMessageStartingWith("field 'note': expected {\"<type>\": value}, one of [null, string]");
    assertThatThrownBy(() -> avro("{\"id\":1,\"note\":null,\"lines\":[{\"sku\":\"a\",\"hash\":\"abc\"}]}"))
        .hasMessage("field 'lines[0].hash': expected 2 bytes (fixed com.acme.Hash), got 3");
  }

  @Test
  void plainJson_unionsAsTheirValue_bytesInBase64_asConsumePrintsThem() throws Exception {
    assertThat(plain("{\"id\":1,\"note\":\"rush\",\"lines\":[{\"sku\":\"a\",\"hash\":\"AQI=\"}]}").toString())
        .isEqualTo("{\"id\":1,\"note\":{\"string\":\"rush\"},\"lines\":[{\"sku\":\"a\",\"hash\":\"\\u0001\\u0002\"}]}");
    assertThat(avro("{\"id\":1,\"note\":{\"string\":\"rush\"},\"lines\":[]}").toString())
        .isEqualTo("{\"id\":1,\"note\":{\"string\":\"rush\"},\"lines\":[]}");
    assertThatThrownBy(() -> plain("{\"id\":1,\"note\":7,\"lines\":[]}"))
        .hasMessage("field 'note': expected one of [null, string], got 7");
  }
}
