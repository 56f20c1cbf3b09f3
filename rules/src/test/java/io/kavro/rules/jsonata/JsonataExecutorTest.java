package io.kavro.rules.jsonata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import io.kavro.serde.rules.RuleTarget;
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
        .hasMessageContaining("rule 'r1'");
    assertThat(System.nanoTime() - start).as("bounded by depth, not by the 60 s timeout").isLessThan(10_000_000_000L);
  }

  @Test
  void endlessLoop_isBoundedByTheTimeout() throws Exception {
    PreparedRule rule = prepare(Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE,
        "($f := function($x) { $f($x + 1) }; $f(0))", Map.of("jsonata.timeout.ms", "300"));
    assertThatThrownBy(() -> rule.apply(INPUT, JSON.readTree("{}"))).isInstanceOf(RuleException.class)
        .hasMessageContaining("rule 'r1'");
  }
}
