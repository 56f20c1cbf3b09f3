package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.LogCapture;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35: the converter runs a version's data contract rules as the serde does (an ENCRYPT rule on a tagged
 * field, a CEL condition), with kavro-rules found on the class path. A contract that this deployment cannot run (a
 * rule type with no executor, a KMS type with no driver) fails the task with an {@code Error}, which Connect's error
 * handling does not catch: as a {@link DataException}, {@code errors.tolerance=all} would skip every record.
 */
class ConverterRulesTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]},{"name":"age","type":"int"}]}""");
  private static final org.apache.kafka.connect.data.Schema CONNECT = SchemaBuilder.struct().name("com.acme.Person")
      .field("name", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
      .field("ssn", org.apache.kafka.connect.data.Schema.STRING_SCHEMA)
      .field("age", org.apache.kafka.connect.data.Schema.INT32_SCHEMA).build();

  private final String scope = "converter-rules-" + UUID.randomUUID();

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private AvroConverter converter() {
    AvroConverter converter = new AvroConverter();
    converter.configure(Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false,
        "use.latest.version", true, "rule.executors._default_.param.secret", "s3cret"), false);
    return converter;
  }

  private static Struct person(int age) {
    return new Struct(CONNECT).put("name", "ann").put("ssn", "123-45-6789").put("age", age);
  }

  @Test
  void encryptsOnTheWayOut_andDecryptsOnTheWayIn_andChecksConditions() {
    Rule encrypt = new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
        Map.of("encrypt.kek.name", "kek1", "encrypt.kms.type", "local-kms", "encrypt.kms.key.id", "k"), null, null,
        null, false);
    Rule adult = new Rule("adult", null, Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(),
        "message.age >= 18", null, null, false);
    MockRegistries.scope(scope).register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(encrypt, adult), List.of(), null)));
    AvroConverter converter = converter();

    byte[] written = converter.fromConnectData("people", CONNECT, person(30));

    assertThat(new String(written, StandardCharsets.ISO_8859_1)).doesNotContain("123-45-6789").contains("ann");
    SchemaAndValue read = converter().toConnectData("people", written);
    assertThat(((Struct) read.value()).getString("ssn")).isEqualTo("123-45-6789");
    assertThatThrownBy(() -> converter.fromConnectData("people", CONNECT, person(12)))
        .isInstanceOf(DataException.class).hasStackTraceContaining("Rule failed: adult");
  }

  private void registerWith(Rule... rules) {
    MockRegistries.scope(scope).register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(rules), List.of(), null)));
  }

  @Test
  void ruleTypeWithNoExecutor_failsTheTask_bothWays_loggedOnce() {
    registerWith(new Rule("mask", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ACME_MASK", Set.of("PII"),
        Map.of(), null, null, null, false));
    byte[] written;
    try (AvroConverter ignoring = new AvroConverter()) {
      ignoring.configure(Map.of("schema.registry.url", "mock://" + scope, "auto.register.schemas", false,
          "use.latest.version", true, "rules.ignore", true), false);
      written = ignoring.fromConnectData("people", CONNECT, person(30));
    }

    try (LogCapture logs = new LogCapture(); AvroConverter converter = converter()) {
      for (int i = 0; i < 2; i++) {
        assertThatThrownBy(() -> converter.fromConnectData("people", CONNECT, person(30)))
            .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
            .hasMessageStartingWith("the schema's data contract rules cannot run in this deployment: the "
                + "deployment's fault (or the contract's, where it names a rule type, action or KMS type that does "
                + "not exist), not the record's: add what the failure names (a rule executor's or KMS driver's jar "
                + "in the Kavro plugin's lib/, then restart the worker; a setting, then restart the task).")
            .hasMessageContaining("no rule executor of type ACME_MASK")
            .hasMessageContaining("value of topic 'people'");
      }
      assertThatThrownBy(() -> converter.toConnectData("people", written))
          .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
          .hasMessageContaining("no rule executor of type ACME_MASK");
      assertThat(logs.lines(Level.ERROR)).as("once, not once a record").singleElement().asString()
          .contains("AvroConverter (value side)", "a deployment fault", "ACME_MASK");
    }
  }

  @Test
  void actionThatIsNotHere_failsTheTask() {
    registerWith(new Rule("adult", null, Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(),
        "message.age >= 18", null, "PAGER", false));

    try (AvroConverter converter = converter()) {
      assertThatThrownBy(() -> converter.fromConnectData("people", CONNECT, person(30)))
          .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
          .hasMessageContaining("names the onFailure action PAGER, which is not here");
    }
  }

  @Test
  void kmsTypeWithNoDriver_failsTheTask_whileARecordsOwnRuleFailureStaysData() {
    registerWith(new Rule("adult", null, Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(),
        "message.age >= 18", null, null, false),
        new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
            Map.of("encrypt.kek.name", "kek-aws", "encrypt.kms.type", "aws-kms", "encrypt.kms.key.id",
                "arn:aws:kms:eu-west-1:111122223333:key/k"), null, null, null, false));
    try (AvroConverter converter = converter()) {
      assertThatThrownBy(() -> converter.fromConnectData("people", CONNECT, person(30)))
          .isExactlyInstanceOf(ConnectFailures.TaskFailure.class)
          .hasMessageContaining("no KMS driver for KMS type 'aws-kms'")
          .hasStackTraceContaining("RuleDeploymentException");
      assertThatThrownBy(() -> converter.fromConnectData("people", CONNECT, person(12)))
          .as("the condition runs first, and fails on the record itself")
          .isInstanceOf(DataException.class).hasStackTraceContaining("Rule failed: adult");
    }
  }
}
