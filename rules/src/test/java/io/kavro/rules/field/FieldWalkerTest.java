package io.kavro.rules.field;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleTarget;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class FieldWalkerTest {
  static final Schema USER = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"acme","fields":[
        {"name":"name","type":"string"},
        {"name":"ssn","type":"string","confluent:tags":["PII"]},
        {"name":"age","type":"int"},
        {"name":"nick","type":["null","string"],"confluent:tags":["PII"]},
        {"name":"address","type":{"type":"record","name":"Address","fields":[
          {"name":"street","type":"string"},{"name":"ssn","type":"string"}]}},
        {"name":"phones","type":{"type":"array","items":{"type":"record","name":"Phone","fields":[
          {"name":"number","type":"string","confluent:tags":["PII"]}]}}},
        {"name":"attrs","type":{"type":"map","values":"string"},"confluent:tags":["PII"]},
        {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}},
        {"name":"data","type":"bytes"}
      ]}""");
  static final Metadata SSN_SECRET = new Metadata(Map.of("**.ssn", Set.of("SECRET")), Map.of(), Set.of());

  static Rule rule(String name, Rule.Kind kind, Rule.Mode mode, Set<String> tags) {
    return new Rule(name, null, kind, mode, "CEL_FIELD", tags, Map.of(), "expr", null, null, false);
  }

  static RuleTarget target(Rule rule, Metadata metadata) {
    return new RuleTarget(rule, Rule.Mode.WRITE, "users-value", USER,
        new DataContract(metadata, RuleSet.EMPTY), List.of(rule), 0, null);
  }

  static GenericRecord user(String nick) {
    GenericRecord address = new GenericData.Record(USER.getField("address").schema());
    address.put("street", new Utf8("Main St"));
    address.put("ssn", "A-1");
    Schema phoneSchema = USER.getField("phones").schema().getElementType();
    GenericRecord phone = new GenericData.Record(phoneSchema);
    phone.put("number", new Utf8("555"));
    GenericRecord user = new GenericData.Record(USER);
    user.put("name", new Utf8("Ann"));
    user.put("ssn", "123");
    user.put("age", 42);
    user.put("nick", nick);
    user.put("address", address);
    user.put("phones", new GenericData.Array<>(USER.getField("phones").schema(), List.of(phone)));
    Map<Utf8, Utf8> attrs = new LinkedHashMap<>();
    attrs.put(new Utf8("k"), new Utf8("v"));
    user.put("attrs", attrs);
    user.put("kind", new GenericData.EnumSymbol(USER.getField("kind").schema(), "B"));
    user.put("data", ByteBuffer.wrap("raw".getBytes(StandardCharsets.UTF_8)));
    return user;
  }

  /** Records "fullName:type" of each call and appends "-x" to strings. */
  static final class Recorder implements FieldTransform {
    final List<String> seen = new ArrayList<>();
    final List<FieldContext> fields = new ArrayList<>();

    @Override
    public Object apply(FieldContext field, Object value) {
      seen.add(field.fullName() + ":" + field.type());
      fields.add(field);
      return value instanceof String s ? s + "-x" : value;
    }
  }

  @Test
  void walk_inlineTags_transformsTaggedFieldsInRecordsArraysMapsAndUnions() {
    Rule pii = rule("pii", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII"));
    GenericRecord in = user("nn");
    Recorder recorder = new Recorder();

    GenericRecord out = (GenericRecord) FieldWalker.of(target(pii, Metadata.EMPTY)).walk(in, recorder);

    assertThat(recorder.seen).containsExactly(
        "acme.User.ssn:STRING", "acme.User.nick:STRING", "acme.Phone.number:STRING", "acme.User.attrs:STRING");
    assertThat(out.get("ssn")).isEqualTo("123-x");
    assertThat(out.get("nick")).isEqualTo("nn-x");
    assertThat(((GenericRecord) ((List<?>) out.get("phones")).get(0)).get("number")).isEqualTo("555-x");
    assertThat(out.get("attrs")).isEqualTo(Map.of(new Utf8("k"), "v-x"));
    assertThat(out.get("name")).isEqualTo(new Utf8("Ann"));
    assertThat(((GenericRecord) out.get("address")).get("ssn")).isEqualTo("A-1");
    // the given datum is left as it was
    assertThat(in.get("ssn")).isEqualTo("123");
    assertThat(((GenericRecord) ((List<?>) in.get("phones")).get(0)).get("number")).isEqualTo(new Utf8("555"));
  }

  /** Review of issue 49, item 7: whether a rule's tags select any field, however deep (arrays, recursion). */
  @Test
  void selectsAny_isTrueOnlyWhenATagMatchesAField() {
    Schema linked = new Schema.Parser().parse("""
        {"type":"record","name":"Node","namespace":"acme","fields":[
          {"name":"next","type":["null","Node"]},
          {"name":"items","type":{"type":"array","items":{"type":"record","name":"Item","fields":[
            {"name":"secret","type":"string","confluent:tags":["DEEP"]}]}}}]}""");
    Rule deep = rule("deep", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("DEEP"));
    Rule typo = rule("typo", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PIII"));

    assertThat(FieldWalker.of(target(rule("pii", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII")),
        Metadata.EMPTY)).selectsAny()).isTrue();
    assertThat(FieldWalker.of(target(rule("secret", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("SECRET")),
        SSN_SECRET)).selectsAny()).as("by the contract's metadata.tags").isTrue();
    assertThat(FieldWalker.of(target(rule("all", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of()),
        Metadata.EMPTY)).selectsAny()).as("no tags: every field").isTrue();
    assertThat(FieldWalker.of(target(typo, Metadata.EMPTY)).selectsAny()).isFalse();
    assertThat(FieldWalker.of(new RuleTarget(deep, Rule.Mode.WRITE, "nodes-value", linked,
        new DataContract(Metadata.EMPTY, RuleSet.EMPTY), List.of(deep), 0, null)).selectsAny()).isTrue();
    assertThat(FieldWalker.of(new RuleTarget(typo, Rule.Mode.WRITE, "nodes-value", linked,
        new DataContract(Metadata.EMPTY, RuleSet.EMPTY), List.of(typo), 0, null)).selectsAny()).isFalse();
  }

  @Test
  void walk_metadataWildcardTags_areAddedToInlineTags() {
    Rule secret = rule("secret", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("SECRET"));
    Recorder recorder = new Recorder();

    GenericRecord out = (GenericRecord) FieldWalker.of(target(secret, SSN_SECRET)).walk(user(null), recorder);

    assertThat(recorder.seen).containsExactly("acme.User.ssn:STRING", "acme.Address.ssn:STRING");
    assertThat(recorder.fields.get(0).tags()).containsExactlyInAnyOrder("PII", "SECRET");
    assertThat(recorder.fields.get(1).tags()).containsExactly("SECRET");
    assertThat(recorder.fields.get(1).name()).isEqualTo("ssn");
    assertThat(recorder.fields.get(1).record().getSchema().getFullName()).isEqualTo("acme.Address");
    assertThat(out.get("ssn")).isEqualTo("123-x");
    assertThat(((GenericRecord) out.get("address")).get("ssn")).isEqualTo("A-1-x");
  }

  @Test
  void walk_ruleWithoutTags_transformsEveryPrimitiveEnumAndBytesField() {
    Rule all = rule("all", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of());
    Recorder recorder = new Recorder();

    FieldWalker.of(target(all, Metadata.EMPTY)).walk(user(null), recorder);

    assertThat(recorder.seen).containsExactly("acme.User.name:STRING", "acme.User.ssn:STRING",
        "acme.User.age:INT", "acme.User.nick:NULL", "acme.Address.street:STRING", "acme.Address.ssn:STRING",
        "acme.Phone.number:STRING", "acme.User.attrs:STRING", "acme.User.kind:ENUM", "acme.User.data:BYTES");
  }

  @Test
  void walk_bytes_areHandedAsByteArrayAndWrittenBackAsBuffer() {
    Rule all = rule("all", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of());
    GenericRecord in = user(null);
    FieldTransform upper = (field, value) ->
        value instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8).toUpperCase()
            .getBytes(StandardCharsets.UTF_8) : value;

    GenericRecord out = (GenericRecord) FieldWalker.of(target(all, Metadata.EMPTY)).walk(in, upper);

    assertThat(out.get("data")).isEqualTo(ByteBuffer.wrap("RAW".getBytes(StandardCharsets.UTF_8)));
    assertThat(((ByteBuffer) in.get("data")).remaining()).isEqualTo(3);
  }

  @Test
  void walk_nullableUnion_nullIsOfTypeNull() {
    Rule pii = rule("pii", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII"));
    Recorder recorder = new Recorder();

    GenericRecord out = (GenericRecord) FieldWalker.of(target(pii, Metadata.EMPTY)).walk(user(null), recorder);

    assertThat(recorder.seen).contains("acme.User.nick:NULL");
    assertThat(recorder.fields.get(1).inCombined()).isFalse();
    assertThat(out.get("nick")).isNull();
  }

  @Test
  void walk_nullMessage_isNull() {
    Rule pii = rule("pii", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII"));
    assertThat(FieldWalker.of(target(pii, Metadata.EMPTY)).walk(null, new Recorder())).isNull();
  }

  @Test
  void walk_selectedRecordField_selectsItsUntaggedPrimitives() {
    Schema outer = new Schema.Parser().parse("""
        {"type":"record","name":"Outer","fields":[
          {"name":"inner","confluent:tags":["PII"],"type":{"type":"record","name":"Inner","fields":[
            {"name":"a","type":"string"},
            {"name":"k","type":{"type":"enum","name":"K","symbols":["X"]}}]}},
          {"name":"b","type":"string"}]}""");
    GenericRecord inner = new GenericData.Record(outer.getField("inner").schema());
    inner.put("a", "v");
    inner.put("k", new GenericData.EnumSymbol(outer.getField("inner").schema().getField("k").schema(), "X"));
    GenericRecord record = new GenericData.Record(outer);
    record.put("inner", inner);
    record.put("b", "w");
    Rule pii = rule("pii", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII"));
    Recorder recorder = new Recorder();

    GenericRecord out = (GenericRecord) FieldWalker.of(new RuleTarget(pii, Rule.Mode.WRITE, "s", outer,
        DataContract.NONE, List.of(pii), 0, null)).walk(record, recorder);

    assertThat(recorder.seen).containsExactly("Outer.inner:STRING");
    assertThat(((GenericRecord) out.get("inner")).get("a")).isEqualTo("v-x");
    assertThat(out.get("b")).isEqualTo("w");
  }

  @Test
  void walk_conditionFalse_failsNamingRuleAndField() {
    Rule check = new Rule("no-bad", null, Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL_FIELD", Set.of("SECRET"),
        Map.of(), "value != 'A-1'", null, null, false);
    FieldWalker walker = FieldWalker.of(target(check, SSN_SECRET));
    FieldTransform notA1 = (field, value) -> !"A-1".equals(value);

    assertThatThrownBy(() -> walker.walk(user(null), notA1))
        .isInstanceOf(RuleException.class)
        .hasMessage("rule 'no-bad' (CEL_FIELD, CONDITION, WRITE): condition failed on field 'acme.Address.ssn':"
            + " expr failed: 'value != 'A-1''");
  }

  @Test
  void walk_conditionPassing_returnsTheMessageItself() {
    Rule check = rule("ok", Rule.Kind.CONDITION, Rule.Mode.WRITE, Set.of("PII"));
    GenericRecord in = user("n");
    List<String> seen = new ArrayList<>();

    Object out = FieldWalker.of(target(check, Metadata.EMPTY)).walk(in, (field, value) -> {
      seen.add(field.fullName());
      return Boolean.TRUE;
    });

    assertThat(out).isSameAs(in);
    assertThat(seen).containsExactly("acme.User.ssn", "acme.User.nick", "acme.Phone.number", "acme.User.attrs");
  }

  @Test
  void walk_valueNotOfItsUnion_failsNamingTheField() {
    Rule pii = rule("pii", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII"));
    GenericRecord in = user(null);
    in.put("nick", 5);

    assertThatThrownBy(() -> FieldWalker.of(target(pii, Metadata.EMPTY)).walk(in, new Recorder()))
        .isInstanceOf(RuleException.class)
        .hasMessageStartingWith("rule 'pii' (CEL_FIELD, TRANSFORM, WRITE): field 'acme.User.nick' holds"
            + " java.lang.Integer, not a value of union");
  }

  @Test
  void walk_transformThrowing_isARuleExceptionNamingTheField() {
    Rule pii = rule("pii", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII"));
    FieldTransform broken = (field, value) -> {
      throw new IllegalStateException("boom: " + value);
    };

    // Issue 49, item 7: the exception may quote the value; its class and stack trace are kept, never its message
    assertThatThrownBy(() -> FieldWalker.of(target(pii, Metadata.EMPTY)).walk(user(null), broken))
        .isInstanceOf(RuleException.class)
        .hasMessage("rule 'pii' (CEL_FIELD, TRANSFORM, WRITE) failed on field 'acme.User.ssn':"
            + " java.lang.IllegalStateException")
        .satisfies(e -> {
          assertThat(e.getCause()).hasMessageStartingWith("java.lang.IllegalStateException").hasMessageNotContaining(
              "boom");
          assertThat(e.getCause().getStackTrace()[0].getClassName()).startsWith(FieldWalkerTest.class.getName());
        });
  }

  @Test
  void skips_identicalTransformEarlierOnWriteLaterOnRead() {
    Rule first = rule("first", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, Set.of("PII"));
    Rule second = rule("second", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, Set.of("PII"));
    Rule other = rule("other", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, Set.of("PII", "X"));
    List<Rule> rules = List.of(first, second, other);

    assertThat(walker(first, Rule.Mode.WRITE, rules, 0).skips()).isFalse();
    assertThat(walker(second, Rule.Mode.WRITE, rules, 1).skips()).isTrue();
    assertThat(walker(other, Rule.Mode.WRITE, rules, 2).skips()).isFalse();
    assertThat(walker(first, Rule.Mode.READ, rules, 0).skips()).isTrue();
    assertThat(walker(second, Rule.Mode.READ, rules, 1).skips()).isFalse();

    GenericRecord in = user(null);
    Recorder recorder = new Recorder();
    assertThat(walker(second, Rule.Mode.WRITE, rules, 1).walk(in, recorder)).isSameAs(in);
    assertThat(recorder.seen).isEmpty();
  }

  @Test
  void skips_neverForRulesWithoutTagsOrOfAnotherType() {
    Rule a = rule("a", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of());
    Rule b = rule("b", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of());
    Rule c = new Rule("c", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "ENCRYPT", Set.of("PII"), Map.of(), null,
        null, null, false);
    Rule d = rule("d", Rule.Kind.TRANSFORM, Rule.Mode.WRITE, Set.of("PII"));
    List<Rule> rules = List.of(a, b, c, d);

    assertThat(walker(b, Rule.Mode.WRITE, rules, 1).skips()).isFalse();
    assertThat(walker(d, Rule.Mode.WRITE, rules, 3).skips()).isFalse();
  }

  private static FieldWalker walker(Rule rule, Rule.Mode phase, List<Rule> rules, int index) {
    return FieldWalker.of(new RuleTarget(rule, phase, "users-value", USER, DataContract.NONE, rules, index, null));
  }
}
