package io.kavro.rules.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.serde.rules.InlineChecks;
import io.kavro.serde.rules.RuleException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Issue 51: an inline rule's {@code this} is typed as Confluent types it, a record as a CEL struct of its fields, and
 * a rule Confluent refuses when it compiles is refused when its schema version is prepared, before any record.
 *
 * <p>Each case states the outcome Confluent gives, read from its source at 794611b (facts, not code):
 * {@code schema-rules/.../cel/CelValidator.java} (a rule's result kind must be BOOL or STRING, else "must return bool
 * or string", a compile failure of every record that reaches the rule), {@code CelUtils.findCelTypeForAvroSchema}
 * ({@code this}: a record a struct reference, an array {@code list(dyn)}, a map {@code map(string, dyn)}, a nullable
 * union its other branch, any other union and any logical type {@code dyn}), {@code CelUtils.buildCompiledRule} (a
 * record's struct that the expression does not type-check against is retried as {@code map(string, dyn)}) and
 * {@code avro/AvroCelTypeProvider.fieldCelType} (a field's type: lists and maps of their element's type, nested
 * records as struct references, nullable unions their branch, logical types and other unions {@code dyn}).
 */
class InlineTypingTest {
  private static final String ADDRESS = """
      {"type":"record","name":"Address","fields":[{"name":"zip","type":"string"},
       {"name":"country","type":["null","string"],"default":null}]}""";

  /** An order's schema with one rule: on the record ({@code recordRule}), or on {@code field}. */
  private static String order(String recordRule, String field, String fieldRule) {
    String record = recordRule == null ? "" : """
        "confluent:rules":[{"name":"r","expr":%s}],""".formatted(quote(recordRule));
    return """
        {"type":"record","name":"Order","namespace":"com.acme",%s
         "fields":[
          {"name":"id","type":"string"%s},
          {"name":"qty","type":"int"%s},
          {"name":"paid","type":"boolean"%s},
          {"name":"flags","type":{"type":"map","values":"boolean"}%s},
          {"name":"tags","type":{"type":"array","items":"string"}%s},
          {"name":"note","type":["null","string"]%s},
          {"name":"choice","type":["string","int"]%s},
          {"name":"addr","type":%s%s},
          {"name":"prev","type":["null","Address"]%s},
          {"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}%s},
          {"name":"amount","type":{"type":"bytes","logicalType":"decimal","precision":9,"scale":2}%s}]}"""
        .formatted(record, on("id", field, fieldRule), on("qty", field, fieldRule), on("paid", field, fieldRule),
            on("flags", field, fieldRule), on("tags", field, fieldRule), on("note", field, fieldRule),
            on("choice", field, fieldRule), ADDRESS, on("addr", field, fieldRule), on("prev", field, fieldRule),
            on("at", field, fieldRule), on("amount", field, fieldRule));
  }

  private static String on(String name, String field, String rule) {
    return name.equals(field) ? """
        ,"confluent:rules":[{"name":"f","expr":%s}]""".formatted(quote(rule)) : "";
  }

  private static String quote(String expr) {
    return "\"" + expr.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static Schema recordRule(String expr) {
    return new Schema.Parser().parse(order(expr, null, null));
  }

  private static Schema fieldRule(String field, String expr) {
    return new Schema.Parser().parse(order(null, field, expr));
  }

  /** A valid order: qty 2, paid, flags {flag: true}, tags [a], note "hello", choice "x", addr zip 12345. */
  private static GenericRecord order(Schema schema) {
    Schema address = schema.getField("addr").schema();
    GenericRecord addr = new GenericData.Record(address);
    addr.put("zip", "12345");
    addr.put("country", null);
    GenericRecord order = new GenericData.Record(schema);
    order.put("id", "A1");
    order.put("qty", 2);
    order.put("paid", true);
    order.put("flags", Map.of("flag", true));
    order.put("tags", List.of("a"));
    order.put("note", "hello");
    order.put("choice", "x");
    order.put("addr", addr);
    order.put("prev", null);
    order.put("at", Instant.parse("2024-01-02T03:04:05Z").toEpochMilli());
    order.put("amount", ByteBuffer.wrap(new java.math.BigDecimal("12.50").unscaledValue().toByteArray()));
    return order;
  }

  private static List<String> violations(Schema schema, GenericRecord order) {
    InlineChecks checks = new CelValidator().prepare(schema);
    assertThat(checks).as("the schema has inline rules").isNotNull();
    return checks.violations(order, false);
  }

  private static void assertRefused(Schema schema, String... named) {
    assertThatThrownBy(() -> new CelValidator().prepare(schema))
        .isInstanceOf(RuleException.class)
        .satisfies(e -> assertThat(e.getMessage()).contains(named));
  }

  // Refused by Confluent when the rule compiles: its result type is dyn.

  /** Confluent: a map field's this is map(string, dyn), so this['flag'] is dyn: refused. Kavro ran it per record. */
  @Test
  void mapOfBooleans_thisIndexed_isDyn_refusedWhenPrepared() {
    assertRefused(fieldRule("flags", "this['flag']"), "validation rule 'f' of com.acme.Order.flags",
        "must return bool or string", "this['flag']", "returns dyn");
  }

  /** Confluent: in a record's struct, a map<boolean> field is map(string, bool): this.flags['flag'] is a bool. */
  @Test
  void mapOfBooleans_throughTheRecord_isBool_runsPerRecord() {
    Schema schema = recordRule("this.flags['flag']");
    GenericRecord order = order(schema);
    assertThat(violations(schema, order)).isEmpty();
    order.put("flags", Map.of("flag", false));
    assertThat(violations(schema, order)).containsExactly("<root>: r: this.flags['flag']");
    order.put("flags", Map.of());
    assertThat(violations(schema, order)).singleElement().asString().startsWith("<root>: r: this.flags['flag'] "
        + "(caused by: ");
  }

  /** Confluent: a union of several branches is dyn, as a field of the struct and as a field rule's this. */
  @Test
  void multiBranchUnion_asTheResult_isDyn_refusedWhenPrepared() {
    assertRefused(recordRule("this.choice"), "validation rule 'r' of com.acme.Order", "this.choice", "returns dyn");
    assertRefused(fieldRule("choice", "this"), "validation rule 'f' of com.acme.Order.choice", "returns dyn");
  }

  /** Confluent: a multi-branch union compared is a bool, checked per record. */
  @Test
  void multiBranchUnion_compared_runsPerRecord() {
    Schema schema = recordRule("this.choice == 'x'");
    GenericRecord order = order(schema);
    assertThat(violations(schema, order)).isEmpty();
    order.put("choice", 7);
    assertThat(violations(schema, order)).containsExactly("<root>: r: this.choice == 'x'");
    // the union's dyn compared beside typed fields: the result is the string field's type, so the rule runs
    Schema beside = recordRule("this.choice == 'x' && this.paid ? '' : this.id");
    GenericRecord other = order(beside);
    assertThat(violations(beside, other)).isEmpty();
    other.put("choice", 7);
    assertThat(violations(beside, other)).singleElement().asString().startsWith("<root>: r: ");
  }

  /** Confluent: a logical type is dyn (its value may be its Java type): as a result, refused; taken, it runs. */
  @Test
  void logicalTypes_areDyn_refusedAsTheResult_takenByTheirFunctions() {
    assertRefused(recordRule("this.at"), "this.at", "returns dyn");
    assertRefused(fieldRule("amount", "this"), "validation rule 'f' of com.acme.Order.amount", "returns dyn");
    Schema schema = recordRule("timestamp.of(this.at) < timestamp('2025-01-01T00:00:00Z') "
        + "&& decimals.gt(decimal(this.amount), decimal('10'))");
    GenericRecord order = order(schema);
    assertThat(violations(schema, order)).isEmpty();
    order.put("amount", ByteBuffer.wrap(new java.math.BigDecimal("9.99").unscaledValue().toByteArray()));
    assertThat(violations(schema, order)).hasSize(1);
  }

  /** Confluent: dyn(...) is dyn whatever it holds: refused (Kavro checked the value it answered). */
  @Test
  void dynConversion_isDyn_refusedWhenPrepared() {
    assertRefused(fieldRule("id", "dyn(size(this))"), "dyn(size(this))", "returns dyn");
  }

  // A field the record does not have.

  /**
   * A misspelt field: Confluent's struct check fails on it, and its retry with map(string, dyn) compiles, so every
   * record that reaches the rule fails ("no such key"), and a guarded read passes them all. Kavro refuses it when
   * prepared, naming the field: no record is written under it (a deliberate difference, documented).
   */
  @Test
  void misspeltField_refusedWhenPrepared_namingIt() {
    assertRefused(recordRule("this.qtty > 0"), "validation rule 'r' of com.acme.Order", "this.qtty > 0",
        "reads field 'qtty'");
    assertRefused(recordRule("!has(this.qtty) || this.qtty > 0"), "reads field 'qtty'");
  }

  /** Nested records are structs too: a misspelt field of one is refused; a field rule on a record sees its struct. */
  @Test
  void nestedRecords_typed_misspeltNestedFieldRefused() {
    assertRefused(recordRule("this.addr.zpi == '12345'"), "reads field 'zpi'");
    assertRefused(fieldRule("addr", "this.zpi == '12345'"), "validation rule 'f' of com.acme.Order.addr",
        "reads field 'zpi'");
    Schema schema = recordRule("this.addr.zip.size() == 5");
    GenericRecord order = order(schema);
    assertThat(violations(schema, order)).isEmpty();
    ((GenericRecord) order.get("addr")).put("zip", "1234");
    assertThat(violations(schema, order)).containsExactly("<root>: r: this.addr.zip.size() == 5");
    Schema onField = fieldRule("addr", "this.zip.startsWith('1')");
    assertThat(violations(onField, order(onField))).isEmpty();
  }

  /** Nullable fields are their branch's type: a nullable record's fields are checked, a nullable string is one. */
  @Test
  void nullableFields_areTheirBranchesType() {
    assertRefused(recordRule("this.prev.zpi == '1'"), "reads field 'zpi'");
    Schema schema = recordRule("this.note.size() > 3");
    GenericRecord order = order(schema);
    assertThat(violations(schema, order)).isEmpty();
    order.put("note", "hi");
    assertThat(violations(schema, order)).containsExactly("<root>: r: this.note.size() > 3");
  }

  /**
   * A field rule on a nullable string: this is a string (its result allowed: a non-empty one fails the record); null
   * skips it (Confluent's skip-on-null).
   */
  @Test
  void nullableField_ruleOnIt_typedAsTheBranch() {
    Schema schema = fieldRule("note", "this.size() > 3 ? '' : 'too short'");
    GenericRecord order = order(schema);
    assertThat(violations(schema, order)).isEmpty();
    order.put("note", "hi");
    assertThat(violations(schema, order)).singleElement().asString().startsWith("note: f: ");
    order.put("note", null);
    assertThat(violations(schema, order)).isEmpty();
    assertRefused(fieldRule("note", "this.size()"), "returns int");
  }

  // Typed fields: a well-typed rule runs; bool and string results only.

  /** Confluent: struct fields of their CEL types: bool, int, string, list(string); a string result is allowed. */
  @Test
  void recordFields_typed_wellTypedRulesRun() {
    Schema schema = recordRule("this.paid && this.qty > 0 && this.tags.all(t, t.size() == 1) && this.id != ''");
    GenericRecord order = order(schema);
    assertThat(violations(schema, order)).isEmpty();
    order.put("tags", List.of("a", "bb"));
    assertThat(violations(schema, order)).hasSize(1);
    // a bare bool field is a bool, a string field a string (as a map's dyn value, either would be refused)
    Schema bare = recordRule("this.paid");
    GenericRecord unpaid = order(bare);
    assertThat(violations(bare, unpaid)).isEmpty();
    unpaid.put("paid", false);
    assertThat(violations(bare, unpaid)).containsExactly("<root>: r: this.paid");
    Schema text = recordRule("this.tags[0]");
    assertThat(violations(text, order(text))).singleElement().asString().startsWith("<root>: r: this.tags[0] (the");
    assertRefused(recordRule("this.qty"), "this.qty", "returns int");
    assertRefused(recordRule("this.tags"), "returns list");
    Schema message = recordRule("this.qty > 1 ? '' : 'too few'");
    GenericRecord few = order(message);
    few.put("qty", 1);
    assertThat(violations(message, few)).hasSize(1);
  }

  /**
   * Confluent retries a struct the expression does not fit as map(string, dyn): this['id'] (a struct has no index)
   * and a comparison across types compile so, and run per record.
   */
  @Test
  void structThatDoesNotFit_retriedAsAMap_runsPerRecord() {
    Schema indexed = recordRule("this['id'] == 'A1'");
    GenericRecord order = order(indexed);
    assertThat(violations(indexed, order)).isEmpty();
    order.put("id", "B2");
    assertThat(violations(indexed, order)).containsExactly("<root>: r: this['id'] == 'A1'");
    Schema across = recordRule("this.qty != 'two'");
    assertThat(violations(across, order(across))).isEmpty();
  }

  /** A record inside a union of several branches is typed when a rule's this is it (a record rule). */
  @Test
  void recordRule_onARecordBehindAUnion_typed() {
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"Outer","fields":[{"name":"u","type":["string",{"type":"record","name":"In",
         "confluent:rules":[{"name":"r","expr":"this.n > 0"}],"fields":[{"name":"n","type":"int"}]}]}]}""");
    GenericRecord in = new GenericData.Record(schema.getField("u").schema().getTypes().get(1));
    in.put("n", 0);
    GenericRecord outer = new GenericData.Record(schema);
    outer.put("u", in);
    assertThat(violations(schema, outer)).containsExactly("u: r: this.n > 0");
    assertRefused(new Schema.Parser().parse(schema.toString().replace("this.n > 0", "this.m > 0")),
        "reads field 'm'");
  }

  private static Schema unionOf(String branches, String expr) {
    return new Schema.Parser().parse("""
        {"type":"record","name":"Outer","namespace":"com.acme","fields":[{"name":"u","type":[%s],
         "confluent:rules":[{"name":"f","expr":"%s"}]}]}""".formatted(branches, expr));
  }

  private static final String A = """
      {"type":"record","name":"A","fields":[{"name":"flag","type":"boolean"}]}""";
  private static final String B = """
      {"type":"record","name":"B","fields":[{"name":"flag","type":"boolean"},{"name":"m","type":"int"}]}""";

  /**
   * A field rule on a union of several branches: Confluent's validator declares this by the value's own schema where
   * it is a record (its struct), else by the union's (dyn). So this.flag on a union of two records with a boolean flag
   * is a bool for either value, and runs; with a string branch, it is dyn for a string, which Confluent refuses for
   * the records that hold one, and Kavro refuses when prepared.
   */
  @Test
  void fieldRuleOnAUnionOfRecords_typedPerBranch() {
    Schema schema = unionOf(A + "," + B, "this.flag");
    GenericRecord a = new GenericData.Record(schema.getField("u").schema().getTypes().get(0));
    a.put("flag", false);
    GenericRecord outer = new GenericData.Record(schema);
    outer.put("u", a);
    assertThat(violations(schema, outer)).containsExactly("u: f: this.flag");
    GenericRecord b = new GenericData.Record(schema.getField("u").schema().getTypes().get(1));
    b.put("flag", true);
    b.put("m", 1);
    outer.put("u", b);
    assertThat(violations(schema, outer)).isEmpty();
    outer.put("u", "secret"); // of no branch: a typed violation that does not quote it
    assertThat(violations(schema, outer)).containsExactly("u: f: this.flag (caused by: the value is of no branch of "
        + "its union)");
    assertRefused(unionOf(A + ",\"string\"", "this.flag"), "validation rule 'f' of com.acme.Outer.u",
        "returns dyn");
  }

  /**
   * A field only some records of the union have: Confluent types each value by its record, and retries the one that
   * lacks the field as a map (as any struct the expression does not fit), so a guarded read runs for every record and
   * an unguarded one fails, per record, those that lack it. Refused only where no record of the union has the field.
   */
  @Test
  void fieldRuleOnAUnionOfRecords_fieldOfOneRecord_theOtherTakesTheMapRetry() {
    Schema schema = unionOf(A + "," + B, "!has(this.m) || this.m > 0");
    GenericRecord a = new GenericData.Record(schema.getField("u").schema().getTypes().get(0));
    a.put("flag", true);
    GenericRecord b = new GenericData.Record(schema.getField("u").schema().getTypes().get(1));
    b.put("flag", true);
    b.put("m", 0);
    GenericRecord outer = new GenericData.Record(schema);
    outer.put("u", a);
    assertThat(violations(schema, outer)).isEmpty();
    outer.put("u", b);
    assertThat(violations(schema, outer)).containsExactly("u: f: !has(this.m) || this.m > 0");
    b.put("m", 1);
    assertThat(violations(schema, outer)).isEmpty();
    Schema indexed = unionOf(A + "," + B, "!('m' in this) || this['m'] > 0");
    outer.put("u", a);
    assertThat(violations(indexed, outer)).isEmpty();
    Schema unguarded = unionOf(A + "," + B, "this.m > 0");
    assertThat(violations(unguarded, outer)).singleElement().asString().startsWith("u: f: this.m > 0 (caused by: ");
    outer.put("u", b);
    assertThat(violations(unguarded, outer)).isEmpty();
    assertRefused(unionOf(A + "," + B, "this.zz > 0"), "validation rule 'f' of com.acme.Outer.u (on a com.acme.A)",
        "reads field 'zz'");
    assertRefused(unionOf(A + "," + B, "!has(this.zz) || this.m > 0"), "reads field 'zz'");
  }

  /**
   * Struct-typed environments hold the schema's record names: none is kept in the shared cache, however many
   * schemas are prepared, and the rules still run (the shared untyped runtime selects a struct's field from the
   * record's map: has(), a map's value, now).
   */
  @Test
  void structEnvironments_notKeptPerRecordName_rulesRunOnTheSharedRuntime() {
    String template = """
        {"type":"record","name":"R%s","namespace":"com.acme.many","confluent:rules":[{"name":"r",
         "expr":"has(this.n) && this.n > 0 && this.ms['k'] == 'v' && now > timestamp('2020-01-01T00:00:00Z')"}],
         "fields":[{"name":"n","type":"int"},{"name":"ms","type":{"type":"map","values":"string"}}]}""";
    Schema warm = new Schema.Parser().parse(template.formatted("Warm"));
    assertThat(new CelValidator().prepare(warm)).isNotNull();
    int before = CelValidator.sharedEnvironments();
    for (int i = 0; i < 100; i++) {
      Schema schema = new Schema.Parser().parse(template.formatted(i));
      GenericRecord record = new GenericData.Record(schema);
      record.put("n", 1);
      record.put("ms", Map.of("k", "v"));
      InlineChecks checks = new CelValidator().prepare(schema);
      assertThat(checks.violations(record, false)).isEmpty();
      record.put("ms", Map.of("k", "w"));
      assertThat(checks.violations(record, false)).hasSize(1);
    }
    assertThat(CelValidator.sharedEnvironments()).as("shared environments").isEqualTo(before);
  }

  /** A recursive record is its own struct (its next field a reference to it): its rules prepare and run per node. */
  @Test
  void recursiveRecord_typed_rulesRunPerNode() {
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"Node","confluent:rules":[{"name":"r","expr":"this.value > 0"}],
         "fields":[{"name":"value","type":"int"},{"name":"next","type":["null","Node"],"default":null}]}""");
    GenericRecord third = node(schema, 0, null);
    GenericRecord head = node(schema, 1, node(schema, 2, third));
    assertThat(violations(schema, head)).containsExactly("next.next: r: this.value > 0");
    third.put("value", 3);
    assertThat(violations(schema, head)).isEmpty();
    Schema deep = new Schema.Parser().parse(schema.toString().replace("this.value > 0",
        "this.next.next.value > this.value"));
    GenericRecord longer = node(deep, 1, node(deep, 2, node(deep, 3, null)));
    // the second node's next has no next, nor the third a next: a select on null fails each
    assertThat(violations(deep, longer)).hasSize(2).first().asString().startsWith("next: r: ");
    assertRefused(new Schema.Parser().parse(schema.toString().replace("this.value > 0", "this.next.valeu > 0")),
        "reads field 'valeu'");
  }

  private static GenericRecord node(Schema schema, int value, GenericRecord next) {
    GenericRecord node = new GenericData.Record(schema);
    node.put("value", value);
    node.put("next", next);
    return node;
  }

  /** Mutual recursion (A holds a B, which holds an A): both are structs, each record's rule runs. */
  @Test
  void mutuallyRecursiveRecords_typed_rulesRun() {
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"A","confluent:rules":[{"name":"ra","expr":"this.x >= 0 && this.b.y.size() > 0"}],
         "fields":[{"name":"x","type":"int"},{"name":"b","type":{"type":"record","name":"B",
          "confluent:rules":[{"name":"rb","expr":"this.y != 'bad'"}],
          "fields":[{"name":"y","type":"string"},{"name":"a","type":["null","A"],"default":null}]}}]}""");
    Schema bSchema = schema.getField("b").schema();
    GenericRecord inner = new GenericData.Record(schema);
    inner.put("x", -1);
    GenericRecord innerB = new GenericData.Record(bSchema);
    innerB.put("y", "bad");
    inner.put("b", innerB);
    GenericRecord b = new GenericData.Record(bSchema);
    b.put("y", "ok");
    b.put("a", inner);
    GenericRecord a = new GenericData.Record(schema);
    a.put("x", 1);
    a.put("b", b);
    assertThat(violations(schema, a)).containsExactly("b.a: ra: this.x >= 0 && this.b.y.size() > 0",
        "b.a.b: rb: this.y != 'bad'");
    assertRefused(new Schema.Parser().parse(schema.toString().replace("this.b.y.size()", "this.b.a.z.size()")),
        "reads field 'z'");
  }

  /**
   * Struct fields of every Avro leaf and container, with the values as Avro's reader gives them (Utf8,
   * GenericEnumSymbol, ByteBuffer, GenericFixed, GenericData.Array), typed as Confluent's AvroCelTypeProvider types
   * them: enum string, fixed and bytes bytes, float double, long int, array of enums list(string), map map(string,
   * string).
   */
  @Test
  void structFieldsOfEveryType_valuesReadBack_run() throws java.io.IOException {
    String rule = "this.color == 'RED' && this.fx == b'\\x01\\x02' && this.ratio > 0.5 && this.big > 1 "
        + "&& size(this.data) == 3 && this.colors[0] == 'RED' && this.ms['k'] == 'v'";
    Schema schema = allTypes(rule);
    Schema color = schema.getField("color").schema();
    GenericRecord record = new GenericData.Record(schema);
    record.put("color", new GenericData.EnumSymbol(color, "RED"));
    record.put("fx", new GenericData.Fixed(schema.getField("fx").schema(), new byte[] {1, 2}));
    record.put("ratio", 0.75f);
    record.put("big", 5_000_000_000L);
    record.put("data", ByteBuffer.wrap(new byte[] {7, 8, 9}));
    record.put("colors", List.of(new GenericData.EnumSymbol(color, "RED"), new GenericData.EnumSymbol(color, "BLUE")));
    record.put("ms", Map.of("k", "v"));
    GenericRecord read = readBack(schema, record);
    assertThat(read.get("color")).isInstanceOf(GenericData.EnumSymbol.class);
    assertThat(read.get("fx")).isInstanceOf(org.apache.avro.generic.GenericFixed.class);
    assertThat(read.get("data")).isInstanceOf(ByteBuffer.class);
    assertThat(read.get("colors")).isInstanceOf(GenericData.Array.class);
    assertThat(read.get("ms")).isInstanceOf(Map.class);
    assertThat(violations(schema, read)).isEmpty();
    record.put("colors", List.of(new GenericData.EnumSymbol(color, "BLUE")));
    assertThat(violations(schema, readBack(schema, record))).containsExactly("<root>: r: " + rule);
    record.put("colors", List.of(new GenericData.EnumSymbol(color, "RED")));
    record.put("fx", new GenericData.Fixed(schema.getField("fx").schema(), new byte[] {1, 3}));
    assertThat(violations(schema, readBack(schema, record))).containsExactly("<root>: r: " + rule);
    // the fields' own types: a bare field is its type, not dyn
    assertRefused(allTypes("this.ratio"), "returns double");
    assertRefused(allTypes("this.fx"), "returns bytes");
    assertRefused(allTypes("this.colors"), "returns list");
    assertThat(violations(allTypes("this.color"), read)).singleElement().asString()
        .isEqualTo("<root>: r: this.color (the rule's own message is not shown: it may quote the value)");
  }

  private static Schema allTypes(String rule) {
    return new Schema.Parser().parse("""
        {"type":"record","name":"All","confluent:rules":[{"name":"r","expr":%s}],"fields":[
         {"name":"color","type":{"type":"enum","name":"Color","symbols":["RED","BLUE"]}},
         {"name":"fx","type":{"type":"fixed","name":"Two","size":2}},
         {"name":"ratio","type":"float"},
         {"name":"big","type":"long"},
         {"name":"data","type":"bytes"},
         {"name":"colors","type":{"type":"array","items":"Color"}},
         {"name":"ms","type":{"type":"map","values":"string"}}]}""".formatted(quote(rule)));
  }

  private static GenericRecord readBack(Schema schema, GenericRecord record) throws java.io.IOException {
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    org.apache.avro.io.BinaryEncoder encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
    new org.apache.avro.generic.GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return new org.apache.avro.generic.GenericDatumReader<GenericRecord>(schema).read(null,
        org.apache.avro.io.DecoderFactory.get().binaryDecoder(out.toByteArray(), null));
  }

  /**
   * A value of no Avro type at all in a union: Avro's "Unknown datum type" quotes it; the violation never does,
   * whether a rule is on the union (its branch is chosen to type it) or below it (the walk chooses the branch).
   */
  @Test
  void valueOfNoAvroType_inAUnion_violationDoesNotQuoteIt() {
    Object secret = new Object() {
      @Override
      public String toString() {
        return "secret-123";
      }
    };
    Schema onUnion = unionOf(A + "," + B, "this.flag");
    GenericRecord outer = new GenericData.Record(onUnion);
    outer.put("u", secret);
    assertThat(violations(onUnion, outer)).containsExactly("u: f: this.flag (caused by: the value is of no branch "
        + "of its union)");
    Schema below = new Schema.Parser().parse("""
        {"type":"record","name":"Outer","fields":[{"name":"u","type":["string",{"type":"record","name":"In",
         "confluent:rules":[{"name":"r","expr":"this.n > 0"}],"fields":[{"name":"n","type":"int"}]}]}]}""");
    GenericRecord holder = new GenericData.Record(below);
    holder.put("u", secret);
    assertThat(violations(below, holder)).singleElement().asString().startsWith("u: the value is of no branch")
        .doesNotContain("secret-123");
  }
}
