package io.kavro.registry.contract;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Confluent's modes and the "A,B" split of actions, which every rule's plan is built from. */
class RuleTest {
  private static Rule rule(Rule.Mode mode) {
    return new Rule("r", null, Rule.Kind.TRANSFORM, mode, "CEL", Set.of(), Map.of("secret", "s3cret"), null, null,
        null, false);
  }

  @Test
  void modes_runInTheirPhases() {
    assertThat(Rule.Mode.WRITEREAD.runsIn(Rule.Mode.WRITE)).isTrue();
    assertThat(Rule.Mode.WRITEREAD.runsIn(Rule.Mode.READ)).isTrue();
    assertThat(Rule.Mode.WRITEREAD.runsIn(Rule.Mode.UPGRADE)).isFalse();
    assertThat(Rule.Mode.UPDOWN.runsIn(Rule.Mode.UPGRADE)).isTrue();
    assertThat(Rule.Mode.UPDOWN.runsIn(Rule.Mode.DOWNGRADE)).isTrue();
    assertThat(Rule.Mode.UPDOWN.runsIn(Rule.Mode.WRITE)).isFalse();
    assertThat(Rule.Mode.WRITE.runsIn(Rule.Mode.READ)).isFalse();
    assertThat(Rule.Mode.DOWNGRADE.runsIn(Rule.Mode.DOWNGRADE)).isTrue();
  }

  @Test
  void twoActions_splitForWriteReadAndUpDown_only() {
    assertThat(rule(Rule.Mode.WRITEREAD).actionIn("ERROR,NONE", Rule.Mode.WRITE)).isEqualTo("ERROR");
    assertThat(rule(Rule.Mode.WRITEREAD).actionIn("ERROR, NONE", Rule.Mode.READ)).isEqualTo("NONE");
    assertThat(rule(Rule.Mode.UPDOWN).actionIn("DLQ,ERROR", Rule.Mode.UPGRADE)).isEqualTo("DLQ");
    assertThat(rule(Rule.Mode.UPDOWN).actionIn("DLQ,ERROR", Rule.Mode.DOWNGRADE)).isEqualTo("ERROR");
    assertThat(rule(Rule.Mode.WRITE).actionIn("ERROR,NONE", Rule.Mode.WRITE)).isEqualTo("ERROR,NONE");
    assertThat(rule(Rule.Mode.READ).actionIn(null, Rule.Mode.READ)).isNull();
  }

  @Test
  void toString_holdsNoParameter() {
    assertThat(rule(Rule.Mode.WRITE).toString()).isEqualTo("rule 'r' (CEL, TRANSFORM, WRITE)").doesNotContain("s3cret");
  }
}
