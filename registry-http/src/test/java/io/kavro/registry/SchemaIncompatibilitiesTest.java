package io.kavro.registry;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/** Each kind of incompatibility Avro reports, said as what differs and where, in the reader's field names. */
class SchemaIncompatibilitiesTest {
  private static Schema parse(String json) {
    return new Schema.Parser().parse(json);
  }

  private static Schema order(String lineFields) {
    return parse("""
        {"type":"record","name":"Order","namespace":"x","fields":[
          {"name":"id","type":"long"},
          {"name":"lines","type":{"type":"array","items":{"type":"record","name":"Line","fields":[%s]}}}]}"""
        .formatted(lineFields));
  }

  @Test
  void compatible_noReasons() {
    Schema schema = order("{\"name\":\"sku\",\"type\":\"string\"}");
    assertThat(SchemaIncompatibilities.of(schema, schema)).isEmpty();
    assertThat(SchemaIncompatibilities.summary(schema, schema)).isNull();
  }

  @Test
  void typeMismatch_nestedInAnArray_namesThePathAndBothTypes() {
    Schema writer = order("{\"name\":\"sku\",\"type\":\"string\"},{\"name\":\"qty\",\"type\":\"string\"}");
    Schema reader = order("{\"name\":\"sku\",\"type\":\"string\"},{\"name\":\"qty\",\"type\":\"int\"}");
    assertThat(SchemaIncompatibilities.of(reader, writer))
        .containsExactly("Order.lines[].qty is string in the writer's schema and int in the reader's");
  }

  @Test
  void fieldWithoutDefault_namesTheField() {
    Schema writer = order("{\"name\":\"sku\",\"type\":\"string\"}");
    Schema reader = order("{\"name\":\"sku\",\"type\":\"string\"},{\"name\":\"price\",\"type\":\"double\"}");
    assertThat(SchemaIncompatibilities.of(reader, writer))
        .containsExactly("field Order.lines[].price is not in the writer's schema and has no default");
  }

  @Test
  void missingEnumSymbols_namesEnumAndSymbols() {
    Schema writer = parse("""
        {"type":"record","name":"Payment","fields":[{"name":"amounts","type":{"type":"map","values":
          {"type":"enum","name":"Currency","symbols":["EUR","GBP","JPY"]}}}]}""");
    Schema reader = parse("""
        {"type":"record","name":"Payment","fields":[{"name":"amounts","type":{"type":"map","values":
          {"type":"enum","name":"Currency","symbols":["EUR"]}}}]}""");
    assertThat(SchemaIncompatibilities.of(reader, writer))
        .containsExactly("enum Currency lacks GBP, JPY, at Payment.amounts{}");
  }

  @Test
  void missingUnionBranch_namesTheUnionAndTheWritersBranch() {
    Schema writer = parse("""
        {"type":"record","name":"R","fields":[{"name":"note","type":["null","string","int"]}]}""");
    Schema reader = parse("""
        {"type":"record","name":"R","fields":[{"name":"note","type":["null","string"]}]}""");
    assertThat(SchemaIncompatibilities.of(reader, writer))
        .containsExactly("R.note: the reader's union [null, string] has no branch for the writer's int");
    Schema plainWriter = parse("""
        {"type":"record","name":"R","fields":[{"name":"note","type":"boolean"}]}""");
    assertThat(SchemaIncompatibilities.of(reader, plainWriter))
        .containsExactly("R.note: the reader's union [null, string] has no branch for the writer's boolean");
  }

  @Test
  void nameAndFixedSize_namesBoth() {
    Schema writer = parse("""
        {"type":"record","name":"R","fields":[{"name":"hash","type":{"type":"fixed","name":"Md5","size":16}},
          {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A"]}}]}""");
    Schema reader = parse("""
        {"type":"record","name":"R","fields":[{"name":"hash","type":{"type":"fixed","name":"Md5","size":20}},
          {"name":"kind","type":{"type":"enum","name":"Sort","symbols":["A"]}}]}""");
    assertThat(SchemaIncompatibilities.of(reader, writer)).containsExactly(
        "fixed Md5 is 16 bytes in the writer's schema and 20 in the reader's, at R.hash",
        "R.kind is named Kind in the writer's schema and Sort in the reader's, and no alias joins them");
  }
}
