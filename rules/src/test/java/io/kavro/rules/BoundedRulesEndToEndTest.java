package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.KafkaAvroSerializer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 49 item 5, through the serializer: a rule that would run without end fails within its bound, and the failure
 * goes to the rule's {@code onFailure} like any other.
 */
class BoundedRulesEndToEndTest {
  private static final Schema USER = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"com.acme","fields":[{"name":"name","type":"string"}]}""");
  /** A hang guard only: the assertions are on the outcome. */
  private static final Duration GUARD = Duration.ofSeconds(20);

  private final String scope = "bounded-e2e-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private KafkaAvroSerializer serializer() {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    // CEL's time bound out of the way (a slow machine could reach it before the cost bound these tests cross),
    // and the cost bound at a tenth of its default: the same crossing, sooner
    serializer.configure(Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false,
        "use.latest.version", true, "rule.executors._CEL_.param.cel.timeout.ms", "60000",
        "rule.executors._CEL_.param.cel.max.cost", "1000000"), false);
    return serializer;
  }

  private void register(String type, String expr, String onFailure) {
    Rule rule = new Rule("bounded", null, Rule.Kind.CONDITION, Rule.Mode.WRITE, type, Set.of(), Map.of(), expr, null,
        onFailure, false);
    registry.register("users-value", USER, List.of(),
        new DataContract(Metadata.EMPTY, new RuleSet(List.of(), List.of(rule), List.of(), null)));
  }

  private static GenericRecord user(String name) {
    GenericRecord user = new GenericData.Record(USER);
    user.put("name", name);
    return user;
  }

  private static String nestedAll(int depth) {
    String expr = "true";
    for (int i = 0; i < depth; i++) {
      expr = "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].all(x" + i + ", " + expr + ")";
    }
    return expr;
  }

  @Test
  void celOverItsCost_failsTheRecord_withErrorNamingTheBound() {
    register("CEL", nestedAll(9), null);
    KafkaAvroSerializer serializer = serializer();
    assertTimeoutPreemptively(GUARD, () -> assertThatThrownBy(() -> serializer.serialize("users", user("ann")))
        .isInstanceOf(SerializationException.class).hasMessageContaining("bounded")
        .hasStackTraceContaining("cel.max.cost"));
  }

  @Test
  void celOverItsCost_goesToOnFailure_likeAnyFailure() {
    register("CEL", nestedAll(9), "NONE");
    KafkaAvroSerializer serializer = serializer();
    byte[] written = assertTimeoutPreemptively(GUARD, () -> serializer.serialize("users", user("ann")));
    assertThat(written).isNotEmpty();
  }

  @Test
  void jsonataCatastrophicRegex_answersInLinearTime() {
    register("JSONATA", "$not($contains(name, /^(.*a){12}$/))", null);
    KafkaAvroSerializer serializer = serializer();
    byte[] written = assertTimeoutPreemptively(GUARD,
        () -> serializer.serialize("users", user("a".repeat(39) + "!")));
    assertThat(written).isNotEmpty();
  }
}
