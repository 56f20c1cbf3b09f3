package io.kavro.rules.cel;

import static io.kavro.rules.cel.CelTestData.INPUT;
import static io.kavro.rules.cel.CelTestData.person;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.RuleException;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Confluent's decimal functions in a CEL rule, one row per case: the expression and what Confluent's
 * {@code BuiltinOverload} gives (BigDecimal arithmetic: exact, division and square root to 38 digits half up),
 * written as {@code string(...)} of the decimal.
 */
class DecimalFunctionsTest {
  private final CelExecutor executor = new CelExecutor();

  private Object eval(String expr) {
    return executor.prepare(CelTestData.target("CEL", "dec", Rule.Kind.CONDITION, Set.of(), expr))
        .apply(INPUT, person());
  }

  @ParameterizedTest(name = "{0} == {1}")
  @CsvSource(delimiter = '|', value = {
      "string(decimal('12.50'))|12.50", "string(decimal(1))|1", "string(decimal(0.1))|0.1",
      "string(decimal('1e3'))|1000", "string(decimal(message.pin))|5000",
      "string(decimal(b'\\x04\\xd2', 2))|12.34", "string(decimal(b'', 2))|0.00", "string(decimal(b'\\xff', 0))|-1",
      "string(decimals.add(decimal('1.10'), decimal('2.205')))|3.305",
      "string(decimals.sub(decimal('1'), decimal('0.01')))|0.99",
      "string(decimals.mul(decimal('1.5'), decimal('1.5')))|2.25",
      "string(decimals.div(decimal('1'), decimal('3')))|0.33333333333333333333333333333333333333",
      "string(decimals.div(decimal('10'), decimal('4')))|2.5",
      "string(decimals.mod(decimal('-7'), decimal('3')))|-1",
      "string(decimals.sqrt(decimal('2')))|1.4142135623730950488016887242096980786",
      "string(decimals.sqrt(decimal('4')))|2",
      "string(decimals.greatest(decimal('1'), decimal('2.0')))|2.0",
      "string(decimals.least(decimal('1'), decimal('2.0')))|1",
      "string(decimals.neg(decimal('1.5')))|-1.5", "string(decimals.abs(decimal('-2')))|2",
      "string(decimals.round(decimal('2.5')))|3", "string(decimals.round(decimal('-2.5')))|-3",
      "string(decimals.round(decimal('1.2355'), 3))|1.236", "string(decimals.round(decimal('1250'), -2))|1300",
      "string(decimals.trunc(decimal('-2.7')))|-2", "string(decimals.trunc(decimal('1.2345'), 2))|1.23",
      "string(decimals.trunc(decimal('1.2'), 5))|1.2",
      "string(decimals.floor(decimal('-2.5')))|-3", "string(decimals.ceil(decimal('2.1')))|3",
      "decimals.sign(decimal('-2'))|-1", "double(decimal('0.5'))|0.5",
      "decimals.eq(decimal('1.0'), decimal('1.00'))|true", "decimals.lt(decimal('1'), decimal('2'))|true",
      "decimals.le(decimal('2'), decimal('2.0'))|true", "decimals.gt(decimal('1'), decimal('2'))|false",
      "decimals.ge(decimal('-1'), decimal('2'))|false"})
  void eachFunction_answersAsConfluents(String expr, String expected) {
    assertThat(String.valueOf(eval(expr))).as(expr).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "decimals.div(decimal('1'), decimal('0'))", "decimals.mod(decimal('1'), decimal('0.0'))",
      "decimals.sqrt(decimal('-1'))", "decimal('abc')", "decimal(b'\\x01')", "decimal(message.labels)"})
  void errors_failTheRule(String expr) {
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> eval(expr)).as(expr)
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'dec'"));
  }

  /**
   * Kavro's bounds (1000 digits, a scale within +-1000) fail the rule, quickly, and by the bound's own check: the
   * executor hides the messages of CEL's exceptions (they may quote field values), so the check is known by its
   * frame in the stack trace the failure keeps.
   */
  @ParameterizedTest
  @ValueSource(strings = {"decimal('1e999999999')", "decimals.round(decimal('1'), 2000000000)",
      "decimals.add(decimal('1e1000'), decimal('1e-1000'))", "decimal(b'\\x01', 1001)"})
  void outOfBounds_failsTheRuleByTheBound(String expr) {
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(() -> eval(expr)).as(expr)
        .isInstanceOf(RuleException.class).hasMessageContaining("rule 'dec'")
        .satisfies(e -> assertThat(stackTrace(e)).containsAnyOf("Decimals.bounded(", "Decimals.scale(")));
  }

  private static String stackTrace(Throwable e) {
    java.io.StringWriter out = new java.io.StringWriter();
    e.printStackTrace(new java.io.PrintWriter(out));
    return out.toString();
  }
}
