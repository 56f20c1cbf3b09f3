package io.kavro.rules.cel;

import static io.kavro.rules.cel.CelTestData.INPUT;
import static io.kavro.rules.cel.CelTestData.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class CelFieldExecutorTest {
  private final CelFieldExecutor executor = new CelFieldExecutor();

  private PreparedRule rule(Rule.Kind kind, Set<String> tags, String expr) {
    return executor.prepare(CelTestData.target("CEL_FIELD", "field", kind, tags, expr));
  }

  @Test
  void transform_guardedStringSuffix_onTaggedFieldsOnly() {
    GenericRecord in = person();

    GenericRecord out = (GenericRecord) rule(Rule.Kind.TRANSFORM, Set.of("PII"),
        "typeName == 'STRING' ; value + '-x'").apply(INPUT, in);

    assertThat(out.get("ssn")).isEqualTo("123-x");
    assertThat(out.get("pin")).isEqualTo(5000);
    assertThat(out.get("name")).isEqualTo(new Utf8("Ann"));
    assertThat(in.get("ssn")).isEqualTo("123");
  }

  @Test
  void transform_bindsFullNameNameTagsAndMessage() {
    GenericRecord out = (GenericRecord) rule(Rule.Kind.TRANSFORM, Set.of("PII"),
        "typeName == 'STRING' ; fullName + '|' + name + '|' + tags.join(',') + '|' + message.name")
        .apply(INPUT, person());

    assertThat(out.get("ssn")).isEqualTo("acme.Person.ssn|ssn|PII|Ann");
  }

  @Test
  void transform_intResult_isNarrowedToTheFieldsInt() {
    GenericRecord out = (GenericRecord) rule(Rule.Kind.TRANSFORM, Set.of("PII"),
        "typeName == 'INT' ; value * 2").apply(INPUT, person());

    assertThat(out.get("pin")).isEqualTo(10000);
  }

  @Test
  void transform_intOverflow_failsNamingTheField() {
    assertThatThrownBy(() -> rule(Rule.Kind.TRANSFORM, Set.of("PII"),
        "typeName == 'INT' ; value * 1000000").apply(INPUT, person()))
        .isInstanceOf(RuleException.class)
        .hasMessage("rule 'field' (CEL_FIELD, TRANSFORM, WRITE): field 'acme.Person.pin': the CEL result"
            + " overflows an int");
  }

  @Test
  void transform_withoutTags_leavesEnumsAlone() {
    GenericRecord out = (GenericRecord) rule(Rule.Kind.TRANSFORM, Set.of(),
        "typeName == 'STRING' ; value + '-x'").apply(INPUT, person());

    assertThat(out.get("name")).isEqualTo("Ann-x");
    assertThat(out.get("labels").toString()).isEqualTo("[a-x]");
    assertThat(out.get("kind").toString()).isEqualTo("A");
    assertThat(out.get("nick")).isNull();
  }

  @Test
  void condition_false_failsNamingTheField() {
    assertThatThrownBy(() -> rule(Rule.Kind.CONDITION, Set.of("PII"),
        "typeName != 'STRING' || value.size() > 3").apply(INPUT, person()))
        .isInstanceOf(RuleException.class)
        .hasMessage("rule 'field' (CEL_FIELD, CONDITION, WRITE): condition failed on field 'acme.Person.ssn':"
            + " expr failed: 'typeName != 'STRING' || value.size() > 3'");
  }

  @Test
  void condition_true_returnsTheMessage() {
    GenericRecord in = person();
    assertThat(rule(Rule.Kind.CONDITION, Set.of("PII"), "value != null").apply(INPUT, in)).isSameAs(in);
  }

  /** Issue 49, item 12: the guard gates a condition as it gates a transform. */
  @Test
  void condition_guardNotTrue_passesTheFieldWithoutTheBody() {
    GenericRecord in = person();
    assertThat(rule(Rule.Kind.CONDITION, Set.of("PII"), "name == 'nope' ; false").apply(INPUT, in)).isSameAs(in);
    assertThat(rule(Rule.Kind.CONDITION, Set.of("PII"), "typeName == 'STRING' ; value.size() > 2")
        .apply(INPUT, in)).as("the body would fail on the int field").isSameAs(in);
    assertThatThrownBy(() -> rule(Rule.Kind.CONDITION, Set.of("PII"), "name == 'pin' ; false").apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("condition failed on field 'acme.Person.pin'");
  }

  /** Issue 49, item 7: CEL's own message quotes the value; the rule's names the field only. */
  @Test
  void evaluationError_namesTheField_quotesNoValue() {
    GenericRecord in = person();
    in.put("ssn", "123-45-6789");
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> rule(Rule.Kind.TRANSFORM, Set.of("PII"),
        "typeName == 'STRING' ; string(int(value))").apply(INPUT, in));
    assertThat(thrown).isInstanceOf(RuleException.class).hasMessageContaining("string(int(value))");
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as("%s", t.getClass()).doesNotContain("45-67");
    }
  }

  @Test
  void prepare_compileError_namesTheRule() {
    assertThatThrownBy(() -> rule(Rule.Kind.CONDITION, Set.of("PII"), "value +"))
        .isInstanceOf(RuleException.class)
        .hasMessageStartingWith("rule 'field' (CEL_FIELD, CONDITION, WRITE): cannot compile CEL expression"
            + " 'value +': ");
  }
  @Test
  void nestedMacros_failOnTheCostBound_namingTheRuleTheSubjectAndTheSetting() {
    CelFieldExecutor costBounded = new CelFieldExecutor();
    costBounded.configure(Map.of("cel.timeout.ms", "60000")); // a slow machine must not cross the time bound first
    PreparedRule rule = costBounded.prepare(CelTestData.target("CEL_FIELD", "field", Rule.Kind.CONDITION, Set.of(),
        CelExecutorTest.nestedAll(9)));
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> assertThatThrownBy(() -> rule.apply(INPUT, person()))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'field'")
        .hasMessageContaining("people-value").hasMessageContaining("cel.max.cost=10000000"));
  }

  @Test
  void theBudget_isEachMessagesOwn() {
    // some 70,000 steps per field, some six fields: fifty messages cost far more than one message's budget
    PreparedRule rule = rule(Rule.Kind.CONDITION, Set.of(), CelExecutorTest.nestedAll(4));
    for (int i = 0; i < 50; i++) {
      assertThat(rule.apply(INPUT, person())).isInstanceOf(GenericRecord.class);
    }
  }

  /** Issue 51, item 5: CEL_FIELD rules have Confluent's string checks too. */
  @Test
  void condition_confluentsStringChecks_onEachField() {
    GenericRecord in = person();
    in.put("ssn", "ann@example.com");
    assertThat(rule(Rule.Kind.CONDITION, Set.of("PII"), "typeName == 'STRING' ; value.isEmail()").apply(INPUT, in))
        .isSameAs(in);
    assertThat(rule(Rule.Kind.CONDITION, Set.of("PII"), "typeName == 'STRING' ; !value.isIpv4()"
        + " && !value.isIpv6() && !value.isHostname() && !value.isUuid() && !value.isUri() && value.isUriRef()")
        .apply(INPUT, in)).isSameAs(in);
    in.put("ssn", "ann@example.com ");
    assertThatThrownBy(() -> rule(Rule.Kind.CONDITION, Set.of("PII"), "typeName == 'STRING' ; value.isEmail()")
        .apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("condition failed on field 'acme.Person.ssn'");
  }

  /** Issue 51, item 5: CEL_FIELD rules have timestamp.of and now too. */
  @Test
  void condition_timestampOfAndNow_onEachField() {
    GenericRecord in = person();
    assertThat(rule(Rule.Kind.CONDITION, Set.of("PII"), "typeName == 'INT' ; now > timestamp.of(value, 'seconds')"
        + " && now < timestamp.of(" + (System.currentTimeMillis() + 3_600_000) + ", 'millis')").apply(INPUT, in))
        .isSameAs(in);
    assertThatThrownBy(() -> rule(Rule.Kind.CONDITION, Set.of("PII"), "typeName == 'INT' ; now < timestamp.of(value,"
        + " 'seconds')").apply(INPUT, in))
        .isInstanceOf(RuleException.class).hasMessageContaining("condition failed on field 'acme.Person.pin'");
  }
}
