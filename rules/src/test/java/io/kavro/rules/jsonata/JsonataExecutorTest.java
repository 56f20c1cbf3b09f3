package io.kavro.rules.jsonata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import io.kavro.serde.rules.RuleTarget;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class JsonataExecutorTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final RuleInput INPUT = new RuleInput("t", false, null);
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Person","fields":[{"name":"name","type":"string"},
       {"name":"socialSecurityNumber","type":["null","string"],"default":null}]}""");
  /** Confluent's documented migration: ssn renamed. */
  private static final String RENAME = "$merge([$sift($, function($v, $k) {$k != 'ssn'}), "
      + "{'socialSecurityNumber': $.'ssn'}])";

  private static PreparedRule prepare(Rule.Kind kind, Rule.Mode mode, String expr, Map<String, ?> configs) {
    Rule rule = new Rule("r1", null, kind, mode, "JSONATA", Set.of(), Map.of(), expr, null, null, false);
    JsonataExecutor executor = new JsonataExecutor();
    executor.configure(configs);
    return executor.prepare(new RuleTarget(rule, mode == Rule.Mode.UPDOWN ? Rule.Mode.UPGRADE : mode, "s-value",
        V2, DataContract.NONE, List.of(rule), 0, null));
  }

  @Test
  void upgrade_renamesAField_inAvroJson() throws Exception {
    PreparedRule rule = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE, RENAME, Map.of());
    JsonNode out = (JsonNode) rule.apply(INPUT, JSON.readTree("{\"name\":\"ann\",\"ssn\":{\"string\":\"123\"}}"));
    assertThat(out.toString()).isEqualTo("{\"name\":\"ann\",\"socialSecurityNumber\":{\"string\":\"123\"}}");
  }

  @Test
  void domainTransform_onAGenericRecord_givesARecordOfTheTargetSchema() {
    PreparedRule rule = prepare(Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "$merge([$, {'name': $uppercase(name)}])",
        Map.of());
    GenericRecord record = new GenericData.Record(V2);
    record.put("name", "ann");
    Object out = rule.apply(INPUT, record);
    assertThat(out).isInstanceOf(GenericRecord.class);
    assertThat(((GenericRecord) out).get("name").toString()).isEqualTo("ANN");
    assertThat(record.get("name")).isEqualTo("ann");
  }

  @Test
  void condition_falseFails_trueAndNonBooleanPass() throws Exception {
    JsonNode ann = JSON.readTree("{\"name\":\"ann\"}");
    assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "name = 'bob'", Map.of()).apply(INPUT, ann))
        .isEqualTo(Boolean.FALSE);
    assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "name = 'ann'", Map.of()).apply(INPUT, ann))
        .isEqualTo(Boolean.TRUE);
    assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "nothing", Map.of()).apply(INPUT, ann))
        .isEqualTo(Boolean.TRUE);
  }

  @Test
  void badExpression_isRefusedWhenPrepared_namingTheRule() {
    assertThatThrownBy(() -> prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE, "$merge([", Map.of()))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'r1'").hasMessageContaining("JSONata");
  }

  @Test
  void endlessRecursion_isBoundedByMaxDepth() throws Exception {
    PreparedRule rule = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($f := function($x) { 1 + $f($x + 1) }; $f(0))", Map.of("jsonata.max.depth", "50"));
    long start = System.nanoTime();
    assertThatThrownBy(() -> rule.apply(INPUT, JSON.readTree("{}"))).isInstanceOf(RuleException.class)
        .hasMessageContaining("rule 'r1'").hasMessageContaining("nests deeper than jsonata.max.depth=50");
    assertThat(System.nanoTime() - start).as("bounded by depth, not by the 60 s timeout").isLessThan(10_000_000_000L);
  }

  /** Issue 51, item 7: Confluent's older names of the bounds, which its executor still reads, are honoured. */
  @Test
  void confluentsOlderNames_ofTheBounds_areRead() throws Exception {
    PreparedRule deep = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($f := function($x) { 1 + $f($x + 1) }; $f(0))", Map.of("max.depth", "50"));
    assertThatThrownBy(() -> deep.apply(INPUT, JSON.readTree("{}"))).isInstanceOf(RuleException.class)
        .hasMessageContaining("nests deeper than jsonata.max.depth=50");
    PreparedRule endless = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($f := function($x) { $f($x + 1) }; $f(0))", Map.of("timeout.ms", "300"));
    long start = System.nanoTime();
    assertThatThrownBy(() -> endless.apply(INPUT, JSON.readTree("{}"))).isInstanceOf(RuleException.class)
        .hasMessageContaining("ran longer than jsonata.timeout.ms=300");
    assertThat(System.nanoTime() - start).as("bounded by timeout.ms, not by the 60 s default")
        .isLessThan(20_000_000_000L);
    PreparedRule newerWins = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($f := function($x) { 1 + $f($x + 1) }; $f(0))", Map.of("max.depth", "50", "jsonata.max.depth", "70"));
    assertThatThrownBy(() -> newerWins.apply(INPUT, JSON.readTree("{}")))
        .hasMessageContaining("nests deeper than jsonata.max.depth=70");
  }

  @Test
  void endlessLoop_isBoundedByTheTimeout() throws Exception {
    PreparedRule rule = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($f := function($x) { $f($x + 1) }; $f(0))", Map.of("jsonata.timeout.ms", "300"));
    assertThatThrownBy(() -> rule.apply(INPUT, JSON.readTree("{}"))).isInstanceOf(RuleException.class)
        .hasMessageContaining("rule 'r1'").hasMessageContaining("ran longer than jsonata.timeout.ms=300");
  }
  /** A hang guard only: the assertions are on the answers and the errors. */
  private static final Duration GUARD = Duration.ofSeconds(10);
  /** 40 characters on which java.util.regex backtracks for hours through {@code ^(.*a){12}$}. */
  private static final String NO_MATCH = "{\"name\":\"" + "a".repeat(39) + "!\"}";

  @Test
  void catastrophicRegex_runsInLinearTime_inEveryRegexFunction() throws Exception {
    JsonNode record = JSON.readTree(NO_MATCH);
    assertTimeoutPreemptively(GUARD, () -> {
      assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "$contains(name, /^(.*a){12}$/)", Map.of())
          .apply(INPUT, record)).isEqualTo(Boolean.FALSE);
      assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "$exists($match(name, /^(.*a){12}$/))",
          Map.of()).apply(INPUT, record)).isEqualTo(Boolean.FALSE);
      assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "$replace(name, /^(.*a){12}$/, 'x') = name",
          Map.of()).apply(INPUT, record)).isEqualTo(Boolean.TRUE);
      assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "$count($split(name, /^(.*a){12}$/)) = 1",
          Map.of()).apply(INPUT, record)).isEqualTo(Boolean.TRUE);
      assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "$count(/^(.*a){12}$/(name)) = 0", Map.of())
          .apply(INPUT, record)).isEqualTo(Boolean.TRUE);
      // $eval in a block, where the engine's own $eval would see neither Kavro's functions nor the bounds
      assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE,
          "($n := name; $eval('$contains(name, /^(.*a){12}$/)'))", Map.of()).apply(INPUT, record))
          .isEqualTo(Boolean.FALSE);
    });
  }

  @Test
  void aReplaceLimit_readsAStringPatternAsItIs_notAsARegex() throws Exception {
    JsonNode record = JSON.readTree(NO_MATCH);
    assertTimeoutPreemptively(GUARD, () -> assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE,
        "$replace(name, '^(.*a){12}$', 'x', 1) = name", Map.of()).apply(INPUT, record)).isEqualTo(Boolean.TRUE));
    assertThat(prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "$replace('a.b.c', '.', '-', 1) = 'a-b.c'",
        Map.of()).apply(INPUT, record)).isEqualTo(Boolean.TRUE);
  }

  @Test
  void regexFunctions_keepJsonataSemantics() throws Exception {
    JsonNode record = JSON.readTree("{\"name\":\"Ann Lee, ann@x.org\"}");
    String expr = "{'contains': $contains(name, /LEE/i), 'match': $match(name, /([a-z]+)@([a-z.]+)/),"
        + " 'replace': $replace(name, /(\\w+) (\\w+)/, '$2 $1 $$'),"
        + " 'fn': $replace(name, /[aeiou]/, function($m) { $uppercase($m.match) }, 2),"
        + " 'split': $split(name, /[ ,]+/), 'literal': $split('a.b', '.'), 'filter': /^a/('ab'),"
        + " 'slash': $contains('a/b', /a\\/b/), 'empty': $replace('abc', /x*/, '-')}";
    JsonNode out = (JsonNode) prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE, expr, Map.of()).apply(INPUT, record);
    assertThat(out.get("contains").asBoolean()).isTrue();
    assertThat(out.get("match").toString())
        .isEqualTo("{\"match\":\"ann@x.org\",\"index\":9,\"groups\":[\"ann\",\"x.org\"]}");
    assertThat(out.get("replace").asText()).isEqualTo("Lee Ann $, ann@x.org");
    assertThat(out.get("fn").asText()).isEqualTo("Ann LEE, ann@x.org");
    assertThat(out.get("split").toString()).isEqualTo("[\"Ann\",\"Lee\",\"ann@x.org\"]");
    assertThat(out.get("literal").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(out.get("filter").toString()).isEqualTo("[\"ab\"]");
    assertThat(out.get("slash").asBoolean()).isTrue();
    assertThat(out.get("empty").asText()).as("empty matches move on").isEqualTo("-a-b-c-");
  }

  @Test
  void aRegexRe2CannotRun_isRefusedWhenPrepared_namingTheRuleAndTheRegex() {
    for (String regex : List.of("/(a)\\1/", "/a(?=b)/", "/(?<!x)a/")) {
      assertThatThrownBy(() -> prepare(Rule.Kind.CONDITION, Rule.Mode.WRITE, "$contains(name, " + regex + ")",
          Map.of())).isInstanceOf(RuleException.class).hasMessageContaining("rule 'r1'")
          .hasMessageContaining("s-value").hasMessageContaining(regex)
          .hasMessageContaining("RE2");
    }
  }

  @Test
  void endlessLoopInEval_isBoundedByTheRulesTimeout() throws Exception {
    PreparedRule rule = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($a := 1; $eval('($f := function($x) { $f($x + 1) }; $f(0))'))", Map.of("jsonata.timeout.ms", "300"));
    JsonNode empty = JSON.readTree("{}");
    assertTimeoutPreemptively(GUARD, () -> assertThatThrownBy(() -> rule.apply(INPUT, empty))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'r1'").hasMessageContaining("s-value")
        .hasMessageContaining("jsonata.timeout.ms=300"));
  }

  @Test
  void recursionDeeperThanTheStack_isARuleError_notAStackOverflowError() throws Exception {
    PreparedRule rule = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($f := function($x) { 1 + $f($x + 1) }; $f(0))", Map.of("jsonata.max.depth", "100000000"));
    JsonNode empty = JSON.readTree("{}");
    Throwable[] thrown = new Throwable[1];
    Thread small = new Thread(null, () -> {
      try {
        rule.apply(INPUT, empty);
      } catch (Throwable t) {
        thrown[0] = t;
      }
    }, "small-stack", 256 * 1024);
    small.start();
    small.join(GUARD.toMillis());
    assertThat(small.isAlive()).isFalse();
    assertThat(thrown[0]).isInstanceOf(RuleException.class).hasMessageContaining("rule 'r1'")
        .hasMessageContaining("stack");
  }

  @Test
  void anExpressionNestedDeeperThanTheStack_isRefusedWhenPrepared() {
    String deep = "(".repeat(200_000) + "1" + ")".repeat(200_000);
    assertThatThrownBy(() -> prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE, deep, Map.of()))
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'r1'");
  }
}
