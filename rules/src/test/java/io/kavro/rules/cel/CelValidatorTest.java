package io.kavro.rules.cel;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.serde.rules.InlineChecks;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, item 5: inline validation rules ({@code confluent:rules}), the cases of Confluent's
 * {@code client/src/test/java/io/confluent/kafka/schemaregistry/avro/AvroSchemaValidateMessageTest.java} (the walk:
 * nested records, arrays, maps, nullable fields, fail fast, several rules on a field) and
 * {@code schema-rules/src/test/java/io/confluent/kafka/schemaregistry/rules/cel/CelValidatorAvroSerializerTest.java}
 * (record and field rules, every violation reported), run through kavro-rules' CEL.
 */
class CelValidatorTest {
  private static List<String> violations(String schemaJson, Object message, boolean failFast) {
    return violations(new CelValidator(), new Schema.Parser().parse(schemaJson), message, failFast);
  }

  private static List<String> violations(CelValidator validator, Schema schema, Object message, boolean failFast) {
    InlineChecks checks = validator.prepare(schema);
    assertThat(checks).as("the schema has inline rules").isNotNull();
    return checks.violations(message, failFast);
  }

  private static GenericRecord record(Schema schema, Object... fieldValues) {
    GenericRecord record = new GenericData.Record(schema);
    for (int i = 0; i < fieldValues.length; i += 2) {
      record.put((String) fieldValues[i], fieldValues[i + 1]);
    }
    return record;
  }

  // CelValidatorAvroSerializerTest's schema
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"io.confluent.kafka.schemaregistry.rules.cel",
       "confluent:rules":[{"name":"ageNotInsane","expr":"this.age <= 150"}],
       "fields":[
        {"name":"age","type":"int","confluent:rules":[{"name":"agePositive","expr":"this >= 0"}]},
        {"name":"name","type":"string","confluent:rules":[{"name":"nameNotEmpty","expr":"size(this) > 0"}]}]}""");

  @Test
  void allRulesPass_noViolation() {
    assertThat(violations(new CelValidator(), PERSON, record(PERSON, "age", 30, "name", new Utf8("Alice")), false))
        .isEmpty();
  }

  @Test
  void fieldRuleFails_namedByPathAndRule_recordRuleAtRoot() {
    assertThat(violations(new CelValidator(), PERSON, record(PERSON, "age", -5, "name", "Alice"), false))
        .containsExactly("age: agePositive: this >= 0");
    assertThat(violations(new CelValidator(), PERSON, record(PERSON, "age", 200, "name", "Alice"), false))
        .containsExactly("<root>: ageNotInsane: this.age <= 150");
  }

  @Test
  void multipleRulesFail_allReported_orFirstOnlyWithFailFast() {
    GenericRecord bad = record(PERSON, "age", -5, "name", "");
    assertThat(violations(new CelValidator(), PERSON, bad, false))
        .containsExactly("age: agePositive: this >= 0", "name: nameNotEmpty: size(this) > 0");
    assertThat(violations(new CelValidator(), PERSON, bad, true)).containsExactly("age: agePositive: this >= 0");
  }

  private static final String NESTED = """
      {"type":"record","name":"Outer","fields":[{"name":"inner","type":{"type":"record","name":"Inner",
       "fields":[{"name":"x","type":"int","confluent:rules":[{"name":"r","expr":"this > 0"}]}]}}]}""";

  @Test
  void nestedRecord_recursesWithDottedPath() {
    Schema schema = new Schema.Parser().parse(NESTED);
    Schema inner = schema.getField("inner").schema();
    assertThat(violations(NESTED, record(schema, "inner", record(inner, "x", 0)), false))
        .containsExactly("inner.x: r: this > 0");
    assertThat(violations(NESTED, record(schema, "inner", record(inner, "x", 1)), false)).isEmpty();
  }

  private static final String ARRAY = """
      {"type":"record","name":"Outer","fields":[{"name":"items","type":{"type":"array","items":{"type":"record",
       "name":"Item","fields":[{"name":"x","type":"int","confluent:rules":[{"name":"r","expr":"this > 0"}]}]}}}]}""";

  @Test
  void arrayOfRecords_perElementWithIndexedPath_failFastStopsAtFirst() {
    Schema schema = new Schema.Parser().parse(ARRAY);
    Schema item = schema.getField("items").schema().getElementType();
    GenericRecord message = record(schema, "items", List.of(record(item, "x", 0), record(item, "x", 5),
        record(item, "x", -1)));
    assertThat(violations(ARRAY, message, false)).containsExactly("items[0].x: r: this > 0", "items[2].x: r: this > 0");
    assertThat(violations(ARRAY, message, true)).containsExactly("items[0].x: r: this > 0");
  }

  private static final String MAP = """
      {"type":"record","name":"Outer","fields":[{"name":"scores","type":{"type":"map","values":{"type":"record",
       "name":"Score","fields":[{"name":"v","type":"int","confluent:rules":[{"name":"r","expr":"this < 10"}]}]}}}]}""";

  @Test
  void mapOfRecords_perEntry_pathByPosition_neverTheKey() {
    Schema schema = new Schema.Parser().parse(MAP);
    Schema score = schema.getField("scores").schema().getValueType();
    Map<String, Object> scores = new java.util.LinkedHashMap<>();
    scores.put("alice", record(score, "v", 10));
    scores.put("bob", record(score, "v", 11));
    assertThat(violations(MAP, record(schema, "scores", scores), false))
        .containsExactlyInAnyOrder("scores[#0].v: r: this < 10", "scores[#1].v: r: this < 10")
        .noneMatch(violation -> violation.contains("alice") || violation.contains("bob"));
  }

  private static final String NULLABLE = """
      {"type":"record","name":"R","fields":[{"name":"maybeName","type":["null","string"],
       "confluent:rules":[{"name":"r","expr":"size(this) > 3"}]}]}""";

  @Test
  void nullableField_null_skipsItsRules_aValueIsChecked() {
    Schema schema = new Schema.Parser().parse(NULLABLE);
    assertThat(violations(NULLABLE, record(schema, "maybeName", null), false)).isEmpty();
    assertThat(violations(NULLABLE, record(schema, "maybeName", "ab"), false))
        .containsExactly("maybeName: r: size(this) > 3");
    assertThat(violations(NULLABLE, record(schema, "maybeName", "abcd"), false)).isEmpty();
  }

  private static final String SEVERAL = """
      {"type":"record","name":"R","fields":[{"name":"x","type":"int","confluent:rules":[
       {"name":"r1","expr":"this > 100"},{"name":"r2","doc":"x is even","expr":"this % 2 == 0"},
       {"expr":"this != 7"}]}]}""";

  @Test
  void severalRulesOnAField_allRun_docShownOverExpr_unnamed() {
    Schema schema = new Schema.Parser().parse(SEVERAL);
    assertThat(violations(SEVERAL, record(schema, "x", 7), false))
        .containsExactly("x: r1: this > 100", "x: r2: x is even", "x: unnamed: this != 7");
  }

  private static final String STRINGS = """
      {"type":"record","name":"R","fields":[{"name":"ssn","type":"string","confluent:tags":["PII"],
       "confluent:rules":[{"name":"ssnShape","expr":"size(this) == 11 ? '' : 'bad ssn ' + this"}]}]}""";

  @Test
  void stringResult_emptyPasses_nonEmptyFails_withoutShowingTheValue() {
    Schema schema = new Schema.Parser().parse(STRINGS);
    assertThat(violations(STRINGS, record(schema, "ssn", "123-45-6789"), false)).isEmpty();
    List<String> found = violations(STRINGS, record(schema, "ssn", "987-65-432"), false);
    assertThat(found).hasSize(1);
    assertThat(found.get(0)).startsWith("ssn: ssnShape: size(this) == 11 ? '' : 'bad ssn ' + this")
        .doesNotContain("987-65-432");
  }

  private static final String BROKEN = """
      {"type":"record","name":"R","fields":[{"name":"x","type":"string","confluent:rules":[
       {"name":"noCompile","expr":"this >>> 1"},{"name":"fails","expr":"int(this) > 0"},
       {"name":"notBool","expr":"size(this)"},{"name":"noExpr"}]}]}""";

  @Test
  void ruleThatCannotRun_isAViolation_namingWhy_neverTheValue() {
    Schema schema = new Schema.Parser().parse(BROKEN);
    List<String> found = violations(BROKEN, record(schema, "x", "secret-value"), false);
    assertThat(found).hasSize(4);
    assertThat(found.get(0)).startsWith("x: noCompile: this >>> 1 (caused by:").contains("cannot compile");
    assertThat(found.get(1)).startsWith("x: fails: int(this) > 0 (caused by:");
    assertThat(found.get(2)).startsWith("x: notBool: size(this) (caused by: it answered a java.lang.Long");
    assertThat(found.get(3)).startsWith("x: noExpr: null (caused by: has no expression");
    assertThat(String.join("\n", found)).doesNotContain("secret-value");
  }

  @Test
  void now_isBound() {
    String schema = """
        {"type":"record","name":"R","fields":[{"name":"at","type":"long",
         "confluent:rules":[{"name":"past","expr":"timestamp(int(this)) < now"}]}]}""";
    Schema parsed = new Schema.Parser().parse(schema);
    assertThat(violations(schema, record(parsed, "at", 0L), false)).isEmpty();
    assertThat(violations(schema, record(parsed, "at", 32_000_000_000L), false)).hasSize(1);
  }

  @Test
  void celMaxCost_boundsTheCheck() {
    CelValidator validator = new CelValidator();
    validator.configure(Map.of("cel.max.cost", "5"));
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"R","fields":[{"name":"xs","type":{"type":"array","items":"int"},
         "confluent:rules":[{"name":"allPositive","expr":"this.all(x, x > 0)"}]}]}""");
    List<String> found = violations(validator, schema, record(schema, "xs", List.of(1, 2, 3, 4, 5, 6, 7, 8)), false);
    assertThat(found).hasSize(1);
    assertThat(found.get(0)).startsWith("xs: allPositive: this.all(x, x > 0) (caused by:").contains("cel.max.cost");
    assertThat(violations(new CelValidator(), schema, record(schema, "xs", List.of(1, 2)), false)).isEmpty();
  }

  @Test
  void schemaWithoutInlineRules_preparesNothing() {
    assertThat(new CelValidator().prepare(CelTestData.PERSON)).isNull();
  }
}
