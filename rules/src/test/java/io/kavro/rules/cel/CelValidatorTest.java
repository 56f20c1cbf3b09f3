package io.kavro.rules.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.rules.InlineChecks;
import io.kavro.serde.rules.RuleException;
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
       {"name":"noCompile","expr":"this >>> 1"},{"name":"fails","expr":"int(this) > 0"},{"name":"noExpr"}]}]}""";

  @Test
  void ruleThatCannotRun_isAViolation_namingWhy_neverTheValue() {
    Schema schema = new Schema.Parser().parse(BROKEN);
    List<String> found = violations(BROKEN, record(schema, "x", "secret-value"), false);
    assertThat(found).hasSize(3);
    assertThat(found.get(0)).startsWith("x: noCompile: this >>> 1 (caused by:").contains("cannot compile");
    assertThat(found.get(1)).startsWith("x: fails: int(this) > 0 (caused by:");
    assertThat(found.get(2)).startsWith("x: noExpr: null (caused by: has no expression");
    assertThat(String.join("\n", found)).doesNotContain("secret-value");
  }

  @Test
  void ruleWhoseResultIsNeitherBoolNorString_isRefusedWhenPrepared_namingIt() {
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"R","fields":[{"name":"x","type":"string","confluent:rules":[
         {"name":"ok","expr":"size(this) > 0"},{"name":"counts","expr":"size(this)"}]}]}""");
    assertThatThrownBy(() -> new CelValidator().prepare(schema))
        .isInstanceOf(RuleException.class)
        .hasMessageContaining("validation rule 'counts'").hasMessageContaining("must return bool or string")
        .hasMessageContaining("size(this)");
    // dyn too, as Confluent's validator refuses it: the value it answers only the record would say
    Schema dyn = new Schema.Parser().parse("""
        {"type":"record","name":"R","fields":[{"name":"x","type":"string","confluent:rules":[
         {"name":"notBool","expr":"dyn(size(this))"}]}]}""");
    assertThatThrownBy(() -> new CelValidator().prepare(dyn))
        .isInstanceOf(RuleException.class)
        .hasMessageContaining("validation rule 'notBool'").hasMessageContaining("returns dyn");
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

  // Issue 51: inline rules see the application's object (logical types as their Java types), `this` typed.

  /** Confluent's CelValidatorDecimalTest schema: a decimal field checked with {@code decimal(this)}. */
  private static final String AVRO_DECIMAL_SCHEMA = """
      {"type":"record","name":"Money","namespace":"test","fields":[
        {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":10,"scale":2},
         "confluent:rules":[{"name":"nonNeg","expr":"decimals.ge(decimal(this), decimal(\\"0\\"))"}]}]}""";

  private static java.nio.ByteBuffer decimalBytes(String amount) {
    return java.nio.ByteBuffer.wrap(new java.math.BigDecimal(amount).unscaledValue().toByteArray());
  }

  /**
   * CelValidatorDecimalTest's avroDecimal_convertersOn_bigDecimalArrives_passes and _negativeFails: Confluent's
   * serializer hands the application's BigDecimal to the rule; Kavro's walk, given the datum read from the bytes
   * (a ByteBuffer), must bind the same BigDecimal.
   */
  @Test
  void avroDecimal_bigDecimalArrives_passes_negativeFails() {
    Schema schema = new Schema.Parser().parse(AVRO_DECIMAL_SCHEMA);
    assertThat(violations(AVRO_DECIMAL_SCHEMA, record(schema, "amount", decimalBytes("100.50")), false)).isEmpty();
    assertThat(violations(AVRO_DECIMAL_SCHEMA, record(schema, "amount", decimalBytes("-0.01")), false))
        .containsExactly("amount: nonNeg: decimals.ge(decimal(this), decimal(\"0\"))");
    // Confluent's test as written: the BigDecimal in the record (a datum read with conversions)
    assertThat(violations(AVRO_DECIMAL_SCHEMA, record(schema, "amount", new java.math.BigDecimal("100.50")), false))
        .isEmpty();
    assertThat(violations(AVRO_DECIMAL_SCHEMA, record(schema, "amount", new java.math.BigDecimal("-0.01")), false))
        .hasSize(1);
  }

  /** CelValidatorDecimalTest's avroDecimal_convertersOff_rawBytesRequireTwoArgOverload: plain bytes stay bytes. */
  @Test
  void rawBytesAndScale_twoArgumentDecimal() {
    String json = """
        {"type":"record","name":"Money","namespace":"test",
         "confluent:rules":[{"name":"r","expr":"decimals.eq(decimal(this.value, this.scale), decimal(\\"123.45\\"))"}],
         "fields":[{"name":"value","type":"bytes"},{"name":"scale","type":"int"}]}""";
    Schema schema = new Schema.Parser().parse(json);
    assertThat(violations(json, record(schema, "value", decimalBytes("123.45"), "scale", 2), false)).isEmpty();
  }

  private static final String EVENT = """
      {"type":"record","name":"Event","fields":[
        {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"},
         "confluent:rules":[{"name":"past","expr":"timestamp.of(this) < now"},
          {"name":"exact","expr":"timestamp.of(this) == timestamp('2024-01-02T03:04:05.006Z')"}]},
        {"name":"maybe","type":["null",{"type":"long","logicalType":"timestamp-micros"}],
         "confluent:rules":[{"name":"after2000","expr":"timestamp.of(this) > timestamp('2000-01-01T00:00:00Z')"}]},
        {"name":"day","type":{"type":"int","logicalType":"date"},
         "confluent:rules":[{"name":"dayAsInt","expr":"this > 0"}]},
        {"name":"id","type":{"type":"string","logicalType":"uuid"},
         "confluent:rules":[{"name":"idAsString","expr":"size(this) == 36"}]}],
       "confluent:rules":[{"name":"recordSeesInstant","expr":"timestamp.of(this.at) < now"}]}""";

  /**
   * A timestamp is an Instant (Confluent: the application's object, declared dyn): {@code timestamp.of(this)} takes
   * it, in a field rule, through a nullable union and in a record rule; a date and a uuid are their Java types too,
   * so a rule written for the underlying int or string cannot run, as in Confluent's serializer.
   */
  @Test
  void logicalTypes_areTheApplicationsJavaTypes() {
    Schema schema = new Schema.Parser().parse(EVENT);
    GenericRecord event = record(schema, "at", java.time.Instant.parse("2024-01-02T03:04:05.006Z").toEpochMilli(),
        "maybe", 1_700_000_000_000_000L, "day", 19_000, "id", new Utf8("fa02a430-892f-4160-97cd-6e3d1bc14494"));
    GenericRecord converted = record(schema, "at", java.time.Instant.parse("2024-01-02T03:04:05.006Z"),
        "maybe", null, "day", java.time.LocalDate.ofEpochDay(19_000),
        "id", java.util.UUID.fromString("fa02a430-892f-4160-97cd-6e3d1bc14494"));
    assertThat(violations(EVENT, converted, false)).as("the Java types given as they are").hasSize(2);
    assertThat(violations(EVENT, event, false)).hasSize(2).satisfiesExactly(
        day -> assertThat(day).startsWith("day: dayAsInt: this > 0 (caused by: "),
        id -> assertThat(id).startsWith("id: idAsString: size(this) == 36 (caused by: "));
  }

  /** {@code this} is declared with its schema's type: a rule that does not fit it fails to compile, naming it. */
  @Test
  void thisIsTyped_aRuleThatDoesNotFitTheTypeCannotCompile() {
    String json = """
        {"type":"record","name":"R","fields":[
          {"name":"n","type":"int","confluent:rules":[{"name":"asText","expr":"this.startsWith('a')"}]},
          {"name":"s","type":["null","string"],"confluent:rules":[{"name":"ok","expr":"this.startsWith('a')"}]}]}""";
    Schema schema = new Schema.Parser().parse(json);
    assertThat(violations(json, record(schema, "n", 1, "s", "abc"), false)).singleElement().asString()
        .startsWith("n: asText: this.startsWith('a') (caused by: ").contains("cannot compile");
  }

  /**
   * Issue 51, item 5: Confluent's variant functions in an inline rule, on a JSON string and on an Avro variant record
   * ({metadata, value}, a map in CEL).
   */
  @Test
  void variantFunctions_runInInlineRules() {
    String json = """
        {"type":"record","name":"R","fields":[{"name":"j","type":"string",
          "confluent:rules":[{"name":"v","expr":"variants.type(variants.parseJson(this)) == 'object'"}]},
         {"name":"payload","type":{"type":"record","name":"VariantRecord","logicalType":"variant","fields":[
            {"name":"metadata","type":"bytes"},{"name":"value","type":"bytes"}]},
          "confluent:rules":[{"name":"nameIsAlice",
            "expr":"variants.as(variants.field(variant(this), 'name'), 'string') == 'alice'"}]}]}""";
    Schema schema = new Schema.Parser().parse(json);
    // {"name": "alice"} and {"name": "bob"}, built by the spec: metadata [1, 1 key, offsets 0 4, "name"]
    java.nio.ByteBuffer metadata = java.nio.ByteBuffer.wrap(java.util.HexFormat.of().parseHex("010100046e616d65"));
    GenericRecord alice = record(schema.getField("payload").schema(), "metadata", metadata,
        "value", java.nio.ByteBuffer.wrap(java.util.HexFormat.of().parseHex("0201000006" + "15616c696365")));
    GenericRecord bob = record(schema.getField("payload").schema(), "metadata", metadata,
        "value", java.nio.ByteBuffer.wrap(java.util.HexFormat.of().parseHex("0201000004" + "0d626f62")));
    assertThat(violations(json, record(schema, "j", "{}", "payload", alice), false)).isEmpty();
    assertThat(violations(json, record(schema, "j", "[]", "payload", bob), false))
        .containsExactly("j: v: variants.type(variants.parseJson(this)) == 'object'",
            "payload: nameIsAlice: variants.as(variants.field(variant(this), 'name'), 'string') == 'alice'");
    assertThat(violations(json, record(schema, "j", "not json", "payload", alice), false)).singleElement()
        .asString().startsWith("j: v: ").contains("variants.parseJson: not valid JSON");
  }

  private static final String WIDE = """
      {"type":"record","name":"Wide","fields":[
        {"name":"blob","type":{"type":"array","items":{"type":"map","values":"int"}}},
        {"name":"tags","type":{"type":"map","values":"string"}},
        {"name":"rows","type":{"type":"array","items":{"type":"record","name":"Row","fields":[
          {"name":"opt","type":["null",{"type":"record","name":"Inner","fields":[
            {"name":"v","type":"int","confluent:rules":[{"name":"vPositive","expr":"this >= 0"}]}]}]}]}}},
        {"name":"n","type":"int","confluent:rules":[{"name":"nPositive","expr":"this >= 0"}]}]}""";

  /**
   * Item 3: the walk allocates nothing per element where no rule runs: it never enters a subtree without rules (an
   * array of maps, whose every map a walk would iterate; a map of strings), and builds no path for elements whose
   * rules are skipped (a null nullable record): paths are built only for a violation. The eager walk built two
   * strings per row and one per map and map value (megabytes here).
   */
  @Test
  void walk_allocatesNothingPerElement_whereNoRuleRuns() {
    Schema schema = new Schema.Parser().parse(WIDE);
    int n = 20_000;
    List<Map<String, Integer>> blob = new java.util.ArrayList<>();
    Map<String, String> tags = new java.util.HashMap<>();
    List<GenericRecord> rows = new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      blob.add(Map.of("a", i));
      tags.put("k" + i, "v");
      rows.add(record(schema.getField("rows").schema().getElementType(), "opt", null));
    }
    GenericRecord wide = record(schema, "blob", blob, "tags", tags, "rows", rows, "n", 1);
    InlineChecks checks = new CelValidator().prepare(schema);
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    for (int warm = 0; warm < 5; warm++) {
      assertThat(checks.violations(wide, false)).isEmpty();
    }
    // the least of several walks: one run before the JIT compiled the walk keeps allocations that C2 removes
    long allocated = Long.MAX_VALUE;
    for (int walk = 0; walk < 10; walk++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      assertThat(checks.violations(wide, false)).isEmpty();
      allocated = Math.min(allocated, threads.getCurrentThreadAllocatedBytes() - before);
    }
    assertThat(allocated).as("bytes allocated by one walk over %d rows, ints and map values", n)
        .isLessThan(64 * 1024);
    // the rows' rules still run where there is a value, and the path names the element
    rows.set(7, record(schema.getField("rows").schema().getElementType(), "opt",
        record(schema.getField("rows").schema().getElementType().getField("opt").schema().getTypes().get(1),
            "v", -1)));
    assertThat(checks.violations(wide, false)).containsExactly("rows[7].opt.v: vPositive: this >= 0");
  }
}
