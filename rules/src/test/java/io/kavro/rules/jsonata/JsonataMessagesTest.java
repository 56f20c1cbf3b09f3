package io.kavro.rules.jsonata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
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

/** Issue 49, item 7: a JSONata rule's failure names the rule and JSONata's error code, never a field value. */
class JsonataMessagesTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","fields":[{"name":"ssn","type":"string"},
       {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}}]}""");
  private static final RuleInput INPUT = new RuleInput("t", false, null);

  private static Throwable failure(String expr) {
    Rule rule = new Rule("r1", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "JSONATA", Set.of(), Map.of(), expr, null,
        null, false);
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("ssn", "123-45-6789");
    person.put("kind", new GenericData.EnumSymbol(PERSON.getField("kind").schema(), "A"));
    return catchThrowable(() -> new JsonataExecutor().prepare(new RuleTarget(rule, Rule.Mode.WRITE, "s-value", PERSON,
        DataContract.NONE, List.of(rule), 0, null)).apply(INPUT, person));
  }

  @Test
  void evaluationAndResultErrors_quoteNoValue_inTheMessageOrAnyCause() {
    for (String expr : List.of("$sum(ssn)", "$error(ssn)", "$number(ssn)", "$merge([$, {'kind': ssn}])")) {
      Throwable thrown = failure(expr);
      assertThat(thrown).as(expr).isInstanceOf(RuleException.class).hasMessageContaining("rule 'r1'");
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        assertThat(String.valueOf(t.getMessage())).as("%s: %s", expr, t.getClass()).doesNotContain("45-67");
      }
    }
  }
}
