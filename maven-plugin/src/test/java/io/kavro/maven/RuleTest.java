package io.kavro.maven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A {@code <rule>} as the registry client takes it: Confluent's defaults, and errors that name the rule. */
class RuleTest {
  private static Rule rule(String name, String type) {
    Rule rule = new Rule();
    rule.name = name;
    rule.type = type;
    return rule;
  }

  @Test
  void toContract_onlyNameAndType_defaultsToTransformAndWriteRead() {
    io.kavro.registry.contract.Rule converted = rule("checkOwner", " cel ").toContract("here");

    assertThat(converted.name()).isEqualTo("checkOwner");
    assertThat(converted.type()).isEqualTo("CEL");
    assertThat(converted.kind()).isEqualTo(io.kavro.registry.contract.Rule.Kind.TRANSFORM);
    assertThat(converted.mode()).isEqualTo(io.kavro.registry.contract.Rule.Mode.WRITEREAD);
    assertThat(converted.disabled()).isFalse();
    assertThat(converted.tags()).isEmpty();
    assertThat(converted.params()).isEmpty();
  }

  @Test
  void toContract_everyField_isCarried_kindAndModeInAnyCase() {
    Rule rule = rule("checkOwner", "CEL");
    rule.kind = "condition";
    rule.mode = " Write ";
    rule.doc = "owner is set";
    rule.tags = Set.of("PII");
    rule.params = Map.of("limit", "3");
    rule.expr = "message.owner != ''";
    rule.onSuccess = "NONE";
    rule.onFailure = "DLQ";
    rule.disabled = true;

    io.kavro.registry.contract.Rule converted = rule.toContract("here");

    assertThat(converted).isEqualTo(new io.kavro.registry.contract.Rule("checkOwner", "owner is set",
        io.kavro.registry.contract.Rule.Kind.CONDITION, io.kavro.registry.contract.Rule.Mode.WRITE, "CEL",
        Set.of("PII"), Map.of("limit", "3"), "message.owner != ''", "NONE", "DLQ", true));
  }

  @Test
  void toContract_noType_failsNamingWhereAndWhatWasGiven() {
    assertThatThrownBy(() -> rule("checkOwner", null).toContract("<ruleSet> of subject 'x', domainRules"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("<ruleSet> of subject 'x', domainRules: a <rule> needs a <name> and a <type>; was "
            + "name=checkOwner, type=null");
  }

  @Test
  void toContract_blankName_fails() {
    assertThatThrownBy(() -> rule(" ", "CEL").toContract("here")).hasMessageContaining("needs a <name>");
  }

  @Test
  void toContract_unknownKind_failsNamingTheRuleTheValueAndTheChoices() {
    Rule rule = rule("checkOwner", "CEL");
    rule.kind = "VALIDATE";

    assertThatThrownBy(() -> rule.toContract("here")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("here: rule 'checkOwner' has kind 'VALIDATE'; one of [TRANSFORM, CONDITION]");
  }

  @Test
  void toContract_unknownMode_failsNamingIt() {
    Rule rule = rule("checkOwner", "CEL");
    rule.mode = "SOMETIMES";

    assertThatThrownBy(() -> rule.toContract("here")).hasMessageContaining("has mode 'SOMETIMES'; one of [UPGRADE");
  }

  @Test
  void toContract_paramWithoutValue_failsNamingTheRule() {
    Rule rule = rule("checkOwner", "CEL");
    rule.params = new HashMap<>();
    rule.params.put("limit", null);

    assertThatThrownBy(() -> rule.toContract("here")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("here: rule 'checkOwner' has a <params> entry with no value");
  }
}
