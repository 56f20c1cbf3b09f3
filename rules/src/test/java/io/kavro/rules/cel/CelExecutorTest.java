package io.kavro.rules.cel;

import static io.kavro.rules.cel.CelTestData.INPUT;
import static io.kavro.rules.cel.CelTestData.PERSON;
import static io.kavro.rules.cel.CelTestData.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleExecutor;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class CelExecutorTest {
  private final CelExecutor executor = new CelExecutor();

  private PreparedRule condition(String expr) {
    return executor.prepare(CelTestData.target("CEL", "check", Rule.Kind.CONDITION, Set.of(), expr));
  }

  private PreparedRule transform(String expr) {
    return executor.prepare(CelTestData.target("CEL", "change", Rule.Kind.TRANSFORM, Set.of(), expr));
  }

  @Test
  void condition_trueAndFalse() {
    assertThat(condition("message.name == 'Ann' && message.pin > 4999").apply(INPUT, person()))
        .isEqualTo(Boolean.TRUE);
    assertThat(condition("message.name == 'Bob'").apply(INPUT, person())).isEqualTo(Boolean.FALSE);
  }

  @Test
  void condition_nonBoolean_isPassedOnAsItIs() {
    assertThat(condition("message.name + '!'").apply(INPUT, person())).isEqualTo("Ann!");
  }

  @Test
  void condition_bindsAvroValuesAsCelValues() {
    String expr = "type(message.pin) == int && message.kind == 'A' && message.data == b'raw'"
        + " && message.nick == null && message.labels == ['a'] && message.ssn.startsWith('12')";
    assertThat(condition(expr).apply(INPUT, person())).isEqualTo(Boolean.TRUE);
  }

  @Test
  void condition_guardNotTrue_passesWithoutTheBody() {
    assertThat(condition("message.pin > 9999 ; false").apply(INPUT, person())).isEqualTo(Boolean.TRUE);
    assertThat(condition("message.pin > 1 ; false").apply(INPUT, person())).isEqualTo(Boolean.FALSE);
  }

  @Test
  void transform_wholeMessage_becomesARecordOfTheTargetSchema() {
    String expr = "{'name': message.name.upperAscii(), 'ssn': message.ssn, 'pin': message.pin + 1,"
        + " 'nick': 'annie', 'labels': message.labels.map(l, l + '!'), 'kind': 'B', 'data': b'new'}";

    GenericRecord out = (GenericRecord) transform(expr).apply(INPUT, person());

    GenericRecord expected = new GenericData.Record(PERSON);
    expected.put("name", "ANN");
    expected.put("ssn", "123");
    expected.put("pin", 5001);
    expected.put("nick", "annie");
    expected.put("labels", new GenericData.Array<>(PERSON.getField("labels").schema(), List.of("a!")));
    expected.put("kind", new GenericData.EnumSymbol(PERSON.getField("kind").schema(), "B"));
    expected.put("data", ByteBuffer.wrap("new".getBytes(StandardCharsets.UTF_8)));
    assertThat(out).isEqualTo(expected);
    assertThat(out.get("pin")).isInstanceOf(Integer.class);
    assertThat(out.get("name")).isInstanceOf(String.class);
  }

  @Test
  void transform_missingNullableField_isItsDefault() {
    String expr = "{'name': 'x', 'ssn': 'y', 'pin': 1, 'labels': [], 'kind': 'A', 'data': b''}";

    GenericRecord out = (GenericRecord) transform(expr).apply(INPUT, person());

    assertThat(out.get("nick")).isNull();
    assertThat(out.get("name")).isEqualTo("x");
  }

  @Test
  void transform_missingNonNullField_failsNamingIt() {
    assertThatThrownBy(() -> transform("{'name': 'x'}").apply(INPUT, person()))
        .isInstanceOf(RuleException.class)
        .hasMessage("rule 'change' (CEL, TRANSFORM, WRITE): the CEL result has no field 'acme.Person.ssn',"
            + " which is not nullable");
  }

  @Test
  void transform_intOverflow_failsNamingTheField() {
    String expr = "{'name': 'x', 'ssn': 'y', 'pin': 3000000000, 'labels': [], 'kind': 'A', 'data': b''}";

    assertThatThrownBy(() -> transform(expr).apply(INPUT, person()))
        .isInstanceOf(RuleException.class)
        .hasMessage("rule 'change' (CEL, TRANSFORM, WRITE): field 'acme.Person.pin': the CEL result overflows an int");
  }

  @Test
  void transform_returningMessage_returnsTheGivenDatum() {
    GenericRecord in = person();
    assertThat(transform("message").apply(INPUT, in)).isSameAs(in);
  }

  @Test
  void transform_guardNotTrue_returnsTheGivenDatum() {
    GenericRecord in = person();
    assertThat(transform("message.pin > 9999 ; {'name': 'x'}").apply(INPUT, in)).isSameAs(in);
  }

  @Test
  void prepare_compileError_namesTheRuleAndGivesCelsReason() {
    assertThatThrownBy(() -> executor.prepare(
        CelTestData.target("CEL", "bad", Rule.Kind.CONDITION, Set.of(), "message.pin >")))
        .isInstanceOf(RuleException.class)
        .hasMessageStartingWith("rule 'bad' (CEL, CONDITION, WRITE): cannot compile CEL expression"
            + " 'message.pin >': ")
        .hasMessageContaining("<input>:1:14: mismatched input '<EOF>'");
  }

  @Test
  void prepare_noExpression_namesTheRule() {
    assertThatThrownBy(() -> executor.prepare(
        CelTestData.target("CEL", "empty", Rule.Kind.CONDITION, Set.of(), null)))
        .isInstanceOf(RuleException.class)
        .hasMessage("rule 'empty' (CEL, CONDITION, WRITE): has no CEL expression (expr)");
  }

  @Test
  void apply_evaluationError_namesTheRule() {
    assertThatThrownBy(() -> condition("message.nope == 1").apply(INPUT, person()))
        .isInstanceOf(RuleException.class)
        .hasMessageStartingWith("rule 'check' (CEL, CONDITION, WRITE): CEL expression 'message.nope == 1' failed: ");
  }

  /** Issue 49, item 7: CEL's own message quotes the value ({@code For input string: "123-45-6789"}). */
  @Test
  void apply_evaluationError_quotesNoFieldValue_inTheMessageOrAnyCause() {
    GenericRecord person = person();
    person.put("ssn", "123-45-6789");
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(
        () -> condition("int(message.ssn) > 0").apply(INPUT, person));

    assertThat(thrown).isInstanceOf(RuleException.class)
        .hasMessageStartingWith("rule 'check' (CEL, CONDITION, WRITE): CEL expression 'int(message.ssn) > 0' failed: ");
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as("%s", t.getClass()).doesNotContain("45-67");
    }
    Throwable enumSymbol = org.assertj.core.api.Assertions.catchThrowable(() -> transform(
        "{'name': 'x', 'ssn': 'y', 'pin': 1, 'labels': [], 'kind': message.ssn, 'data': b''}").apply(INPUT, person));
    assertThat(enumSymbol).isInstanceOf(RuleException.class).hasMessageContaining("acme.Person.kind")
        .hasMessageNotContaining("45-67");
  }

  @Test
  void serviceLoader_findsBothExecutors() {
    assertThat(ServiceLoader.load(RuleExecutor.class).stream().map(p -> p.get().type()))
        .contains("CEL", "CEL_FIELD");
  }
  /** A hang guard only: the assertions are on the errors. */
  private static final Duration GUARD = Duration.ofSeconds(20);

  /** {@code depth} nested {@code .all()} over 10-element lists: 10^depth iterations, all true. */
  static String nestedAll(int depth) {
    String list = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]";
    String expr = "true";
    for (int i = 0; i < depth; i++) {
      expr = list + ".all(x" + i + ", " + expr + ")";
    }
    return expr;
  }

  /**
   * A run that must stop on the cost bound, with the time bound out of its way: a slow machine could reach the
   * default 5 s before 10,000,000 steps, and the wrong bound would be named.
   */
  private PreparedRule costBounded(String expr) {
    return condition(expr, Map.of("cel.timeout.ms", "60000"));
  }

  /** As {@link #costBounded}, at a tenth of the default cost: the same crossing, in a tenth of the time. */
  private PreparedRule cheaplyCostBounded(String expr) {
    return condition(expr, Map.of("cel.timeout.ms", "60000", "cel.max.cost", "1000000"));
  }

  private PreparedRule condition(String expr, Map<String, ?> configs) {
    CelExecutor configured = new CelExecutor();
    configured.configure(configs);
    return configured.prepare(CelTestData.target("CEL", "check", Rule.Kind.CONDITION, Set.of(), expr));
  }

  @Test
  void nestedMacros_failOnTheCostBound_namingTheRuleTheSubjectAndTheSetting() {
    PreparedRule rule = costBounded(nestedAll(9));
    assertTimeoutPreemptively(GUARD, () -> assertThatThrownBy(() -> rule.apply(INPUT, person()))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'check'")
        .hasMessageContaining("people-value").hasMessageContaining("cel.max.cost=10000000"));
  }

  @Test
  void aCostWithinTheBound_passes() {
    assertThat(condition(nestedAll(4)).apply(INPUT, person())).isEqualTo(Boolean.TRUE);
  }

  @Test
  void aLongRun_failsOnTheTimeBound() {
    PreparedRule rule = condition(nestedAll(9), Map.of("cel.max.cost", "1000000000000", "cel.timeout.ms", "200"));
    assertTimeoutPreemptively(GUARD, () -> assertThatThrownBy(() -> rule.apply(INPUT, person()))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'check'")
        .hasMessageContaining("cel.timeout.ms=200"));
  }

  @Test
  void aCrossedBound_failsEvenWhereCelAbsorbsTheError() {
    // CEL's || is commutative: "error || true" is true; a run over its budget must not pass for that
    PreparedRule rule = cheaplyCostBounded(nestedAll(9) + " || true");
    assertTimeoutPreemptively(GUARD, () -> assertThatThrownBy(() -> rule.apply(INPUT, person()))
        .isInstanceOf(RuleException.class).hasMessageContaining("cel.max.cost"));
  }

  @Test
  void aGuardOverItsBudget_failsTheRule_ratherThanSkipIt() {
    PreparedRule rule = cheaplyCostBounded(nestedAll(9) + " ; false");
    assertTimeoutPreemptively(GUARD, () -> assertThatThrownBy(() -> rule.apply(INPUT, person()))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'check'")
        .hasMessageContaining("cel.max.cost"));
  }

  @Test
  void aValueDoubledAgainAndAgain_failsOnTheCostBound_beforeItFillsTheHeap() {
    String expr = "[message.name]" + ".map(a, a + a)".repeat(60) + ".size() > 0";
    PreparedRule rule = condition(expr);
    assertTimeoutPreemptively(GUARD, () -> assertThatThrownBy(() -> rule.apply(INPUT, person()))
        .isInstanceOf(RuleException.class).hasMessageContaining("cel.max.cost"));
  }

  @Test
  void badBounds_areRefusedWhenConfigured() {
    assertThatThrownBy(() -> new CelExecutor().configure(Map.of("cel.max.cost", "0")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("cel.max.cost");
    assertThatThrownBy(() -> new CelExecutor().configure(Map.of("cel.timeout.ms", "soon")))
        .isInstanceOf(ConfigException.class).hasMessageContaining("cel.timeout.ms");
  }

  /**
   * Confluent's {@code cel.regex.engine}: Kavro runs RE2 whatever it says, so a regex RE2 cannot run (lookahead)
   * fails the rule, as the serde's warning says ({@code CelRegexEngineSettingTest}: one WARN per serde, refusals).
   */
  @Test
  void celRegexEngine_pcre_lookaheadFailsTheRule() {
    assertThatThrownBy(() -> condition("message.name.matches('(?=J)J.*')", Map.of("cel.regex.engine", "pcre"))
        .apply(INPUT, person())).isInstanceOf(RuleException.class);
  }

  /** Issue 51, item 5: Confluent's string checks, on the message's values, with Confluent's answers. */
  @Test
  void condition_confluentsStringChecks() {
    GenericRecord in = person();
    in.put("ssn", "ann@example.com");
    in.put("nick", "fa02a430-892f-4160-97cd-6e3d1bc14494");
    assertThat(condition("message.ssn.isEmail() && message.nick.isUuid() && !message.name.isEmail()"
        + " && 'example.com'.isHostname() && '127.0.0.1'.isIpv4() && '::1'.isIpv6()"
        + " && 'http://x.org/a'.isUri() && '/a'.isUriRef() && !'/a'.isUri()").apply(INPUT, in))
        .isEqualTo(Boolean.TRUE);
    assertThat(condition("message.name.isHostname() && !'01.2.3.4'.isIpv4()").apply(INPUT, in))
        .isEqualTo(Boolean.TRUE);
    in.put("ssn", "ann.@example.com");
    assertThat(condition("message.ssn.isEmail()").apply(INPUT, in)).isEqualTo(Boolean.FALSE);
  }

  @Test
  void confluentsStringChecks_areMembersOfStringOnly() {
    assertThatThrownBy(() -> condition("message.pin.isEmail()").apply(INPUT, person()))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'check'");
    assertThatThrownBy(() -> condition("isEmail('a@b.com')"))
        .isInstanceOf(RuleException.class).hasMessageContaining("cannot compile CEL expression");
  }

  /** Issue 51, item 5: Confluent's timestamp.of, with and without a unit. */
  @Test
  void condition_timestampOf() {
    assertThat(condition("timestamp.of(1700000000123, 'millis') == timestamp('2023-11-14T22:13:20.123Z')"
        + " && timestamp.of(-1, 'millis') == timestamp('1969-12-31T23:59:59.999Z')"
        + " && timestamp.of(-1, 'micros') == timestamp('1969-12-31T23:59:59.999999Z')"
        + " && timestamp.of(1700000000000000001, 'nanos') == timestamp('2023-11-14T22:13:20.000000001Z')"
        + " && timestamp.of(1700000000, 'seconds') == timestamp('2023-11-14T22:13:20Z')"
        + " && timestamp.of('2024-01-02T03:04:05+01:00') == timestamp('2024-01-02T02:04:05Z')"
        + " && timestamp.of(timestamp('2024-01-02T02:04:05Z')) == timestamp('2024-01-02T02:04:05Z')"
        + " && timestamp.of(message.pin * 1000, 'millis') == timestamp('1970-01-01T01:23:20Z')")
        .apply(INPUT, person())).isEqualTo(Boolean.TRUE);
    for (String wrong : List.of("timestamp.of(message.pin)", "timestamp.of(1, 'hours')",
        "timestamp.of('2024-01-02T03:04:05')", "timestamp.of(message.labels)")) {
      assertThatThrownBy(() -> condition(wrong).apply(INPUT, person())).as(wrong)
          .isInstanceOf(RuleException.class).hasMessageContaining("rule 'check'");
    }
  }

  /** Issue 51, item 5: Confluent's variable now, the time of the run, the same in the guard and the body. */
  @Test
  void condition_now() {
    long before = System.currentTimeMillis();
    String expr = "now >= timestamp.of(" + before + ", 'millis') && now < timestamp.of(" + (before + 60_000)
        + ", 'millis') && now == now ; now - duration('1s') < now";
    Object inTheWindow = condition(expr).apply(INPUT, person());
    Object beforeTheTest = condition("now < timestamp.of(" + before + ", 'millis')").apply(INPUT, person());
    long after = System.currentTimeMillis();
    assumeTrue(after >= before && after < before + 60_000, "the wall clock was stepped while the test ran");
    assertThat(inTheWindow).isEqualTo(Boolean.TRUE);
    assertThat(beforeTheTest).isEqualTo(Boolean.FALSE);
  }
}
