package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.InlineValidationException;
import io.kavro.serde.KafkaAvroSerializer;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 51: an inline rule Confluent's validator refuses when it compiles (a {@code dyn} result, here
 * {@code this['flag']} of a {@code map<boolean>}) or that reads a field the record lacks is refused when the
 * serializer first prepares the schema version: fail closed, no record written under it, the first or any later
 * one, whatever its values; the same schema with the rule well typed writes.
 */
class InlineTypingEndToEndTest {
  private static final String SCHEMA = """
      {"type":"record","name":"Flags","namespace":"com.acme","fields":[
        {"name":"qty","type":"int"},
        {"name":"flags","type":{"type":"map","values":"boolean"},"confluent:rules":[{"name":"flagSet","expr":%s}]}]}""";

  private final String scope = "inline-typing-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private static Schema schema(String expr) {
    return new Schema.Parser().parse(SCHEMA.formatted("\"" + expr.replace("\"", "\\\"") + "\""));
  }

  private KafkaAvroSerializer serializer() {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false,
        "use.latest.version", true, "validation.rules.execution", "AFTER_DOMAIN_RULES"), false);
    return serializer;
  }

  private static GenericRecord flags(Schema schema, boolean flag) {
    GenericRecord record = new GenericData.Record(schema);
    record.put("qty", 1);
    record.put("flags", Map.of("flag", flag));
    return record;
  }

  @Test
  void dynResult_refusedBeforeAnyRecord_everyRecord_wellTypedRuleWrites() {
    Schema dyn = schema("this['flag']");
    registry.register("flags-value", dyn);
    KafkaAvroSerializer serializer = serializer();
    for (boolean flag : new boolean[] {true, true, false}) {
      assertThatThrownBy(() -> serializer.serialize("flags", flags(dyn, flag)))
          .isInstanceOf(SerializationException.class).isNotInstanceOf(InlineValidationException.class)
          .hasMessageContaining("an inline validation rule cannot run")
          .hasMessageContaining("validation rule 'flagSet' of com.acme.Flags.flags")
          .hasMessageContaining("this['flag']").hasMessageContaining("returns dyn");
    }
    Schema typed = schema("this['flag'] == true");
    registry.register("flags-value", typed);
    KafkaAvroSerializer next = serializer();
    assertThat(next.serialize("flags", flags(typed, true))).isNotEmpty();
    assertThatThrownBy(() -> next.serialize("flags", flags(typed, false)))
        .isInstanceOf(InlineValidationException.class).hasMessageContaining("flags: flagSet");
  }

  @Test
  void misspeltField_refusedBeforeAnyRecord_namingIt() {
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","confluent:rules":[{"name":"positive",
         "expr":"!has(this.qtty) || this.qtty > 0"}],"fields":[{"name":"qty","type":"int"}]}""");
    registry.register("orders-value", schema);
    GenericRecord order = new GenericData.Record(schema);
    order.put("qty", 5);
    assertThatThrownBy(() -> serializer().serialize("orders", order))
        .isInstanceOf(SerializationException.class).isNotInstanceOf(InlineValidationException.class)
        .hasMessageContaining("validation rule 'positive' of com.acme.Order")
        .hasMessageContaining("!has(this.qtty) || this.qtty > 0").hasMessageContaining("reads field 'qtty'");
  }
}
