package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.InlineValidationException;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, item 5: inline validation rules through the serializer, with kavro-rules found by ServiceLoader: the
 * cases of Confluent's {@code CelValidatorAvroSerializerTest} (schema-rules module), and when they run relative to
 * the domain rules ({@code AbstractKafkaAvroSerializer.serializeImpl}).
 */
class InlineValidationEndToEndTest {
  /** Confluent's CelValidatorAvroSerializerTest schema, with a tagged ssn whose length is checked. */
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme",
       "confluent:rules":[{"name":"ageNotInsane","expr":"this.age <= 150"}],
       "fields":[
        {"name":"age","type":"int","confluent:rules":[{"name":"agePositive","expr":"this >= 0"}]},
        {"name":"name","type":"string","confluent:rules":[{"name":"nameNotEmpty","expr":"size(this) > 0"}]},
        {"name":"ssn","type":"string","confluent:tags":["PII"],
         "confluent:rules":[{"name":"ssnLength","expr":"size(this) == 11"}]}]}""");
  private static final String SSN = "123-45-6789";

  private final String scope = "inline-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private KafkaAvroSerializer serializer(Object... keyValues) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "auto.register.schemas", false, "use.latest.version", true));
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    return serializer;
  }

  private static GenericRecord person(int age, String name) {
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("age", age);
    person.put("name", name);
    person.put("ssn", SSN);
    return person;
  }

  /** A CEL_FIELD transform that masks the PII fields: {@code 123-45-6789} becomes {@code XXX-6789}. */
  private void registerWithMask() {
    Rule mask = new Rule("mask", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITE, "CEL_FIELD", Set.of("PII"), Map.of(),
        "typeName == 'STRING' ; 'XXX-' + value.substring(7)", null, null, false);
    registry.register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(mask), List.of(), null)));
  }

  @Test
  void confluentCases_passes_fieldRuleFails_disabledPasses_multipleReported() {
    registry.register("people-value", PERSON);
    assertThat(serializer("validation.rules.execution", "AFTER_DOMAIN_RULES").serialize("people", person(30, "Al")))
        .isNotEmpty();
    assertThatThrownBy(() -> serializer("validation.rules.execution", "AFTER_DOMAIN_RULES")
        .serialize("people", person(-5, "Al")))
        .isInstanceOf(InlineValidationException.class).isNotInstanceOf(RetriableException.class)
        .hasMessageContaining("age: agePositive: this >= 0");
    assertThat(serializer("validation.rules.execution", "DISABLED").serialize("people", person(-5, "Al")))
        .isNotEmpty();
    assertThat(serializer().serialize("people", person(-5, "Al"))).isNotEmpty();
    assertThatThrownBy(() -> serializer("validation.rules.execution", "before_domain_rules")
        .serialize("people", person(-5, "")))
        .isInstanceOfSatisfying(InlineValidationException.class, e -> assertThat(e.violations())
            .containsExactly("age: agePositive: this >= 0", "name: nameNotEmpty: size(this) > 0"))
        .hasMessageContaining("2 violations").hasMessageContaining("value of topic 'people'");
  }

  @Test
  void failFast_reportsOnlyTheFirst() {
    registry.register("people-value", PERSON);
    assertThatThrownBy(() -> serializer("validation.rules.execution", "AFTER_DOMAIN_RULES",
        "validation.rules.fail.fast", "true").serialize("people", person(-5, "")))
        .isInstanceOfSatisfying(InlineValidationException.class, e -> assertThat(e.violations())
            .containsExactly("age: agePositive: this >= 0"))
        .hasMessageContaining("1 violation)");
  }

  @Test
  void beforeDomainRules_seesTheMessageAsGiven_afterSeesTheTransformed() {
    registerWithMask();
    // before: the ssn is 11 characters long; the mask then runs
    assertThat(serializer("validation.rules.execution", "BEFORE_DOMAIN_RULES").serialize("people", person(30, "Al")))
        .isNotEmpty();
    // after: the masked ssn (XXX-6789) is 8 characters long
    assertThatThrownBy(() -> serializer("validation.rules.execution", "AFTER_DOMAIN_RULES")
        .serialize("people", person(30, "Al")))
        .isInstanceOfSatisfying(InlineValidationException.class, e -> assertThat(e.violations())
            .containsExactly("ssn: ssnLength: size(this) == 11"))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("6789"));
  }
}
