package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import io.kavro.serde.rules.RuleOutcome;
import io.kavro.serde.rules.RuleTarget;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class DlqActionTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]},{"name":"age","type":"int"}]}""");
  private static final Rule ENCRYPT = new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD,
      "ENCRYPT", Set.of("PII"), Map.of(), null, null, null, false);
  private static final Rule ADULT = new Rule("adult", null, Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "CEL",
      Set.of(), Map.of(), "message.age >= 18", null, "DLQ", false);
  private static final DataContract CONTRACT = new DataContract(Metadata.EMPTY,
      new RuleSet(List.of(), List.of(ENCRYPT, ADULT), List.of(), null));

  private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
      new ByteArraySerializer());

  private static RuleOutcome outcome(Rule.Mode phase, Object original) {
    RuleTarget target = new RuleTarget(ADULT, phase, "people-value", PERSON, CONTRACT, List.of(ADULT), 0, null);
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "t1".getBytes(StandardCharsets.UTF_8));
    return new RuleOutcome(target, new RuleInput("people", false, headers), original,
        new RuleException("Expr failed: 'message.age >= 18'"));
  }

  private DlqAction action(Map<String, Object> configs) {
    DlqAction action = new DlqAction(producer);
    action.configure(configs);
    return action;
  }

  private static String header(ProducerRecord<byte[], byte[]> record, String name) {
    return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
  }

  @Test
  void onWrite_sendsTheMessageAsJsonWithEncryptedFieldsRedacted_thenFails() {
    GenericRecord kid = new GenericData.Record(PERSON);
    kid.put("name", "kim");
    kid.put("ssn", "123-45-6789");
    kid.put("age", 12);

    assertThatThrownBy(() -> action(Map.of("dlq.topic", "people-dlq")).run(outcome(Rule.Mode.WRITE, kid)))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: adult");

    assertThat(producer.history()).hasSize(1);
    ProducerRecord<byte[], byte[]> sent = producer.history().get(0);
    assertThat(sent.topic()).isEqualTo("people-dlq");
    assertThat(sent.key()).isNull();
    assertThat(new String(sent.value(), StandardCharsets.UTF_8))
        .isEqualTo("{\"name\":\"kim\",\"ssn\":\"<REDACTED>\",\"age\":12}");
    assertThat(header(sent, "trace")).isEqualTo("t1");
    assertThat(header(sent, "__rule.name")).isEqualTo("adult");
    assertThat(header(sent, "__rule.mode")).isEqualTo("WRITE");
    assertThat(header(sent, "__rule.subject")).isEqualTo("people-value");
    assertThat(header(sent, "__rule.topic")).isEqualTo("people");
    assertThat(header(sent, "__rule.exception")).isEqualTo("Expr failed: 'message.age >= 18'");
    assertThat(kid.get("ssn")).as("the record itself is not redacted").isEqualTo("123-45-6789");
  }

  @Test
  void onRead_sendsThePayloadAsItWas() {
    byte[] payload = {0, 0, 0, 0, 7, 1, 2, 3};
    assertThatThrownBy(() -> action(Map.of("dlq.topic", "people-dlq")).run(outcome(Rule.Mode.READ, payload)))
        .isInstanceOf(SerializationException.class);
    assertThat(producer.history().get(0).value()).isEqualTo(payload);
    assertThat(header(producer.history().get(0), "__rule.mode")).isEqualTo("READ");
  }

  @Test
  void withoutATopic_sendsNothing_andStillFails() {
    assertThatThrownBy(() -> action(Map.of()).run(outcome(Rule.Mode.READ, new byte[] {1})))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: adult");
    assertThat(producer.history()).isEmpty();
  }

  @Test
  void redactedTypes_areASetting() {
    GenericRecord kid = new GenericData.Record(PERSON);
    kid.put("name", "kim");
    kid.put("ssn", "123");
    kid.put("age", 12);
    assertThatThrownBy(() -> action(Map.of("dlq.topic", "d", "dlq.redact.rule.types", "CEL"))
        .run(outcome(Rule.Mode.WRITE, kid))).isInstanceOf(SerializationException.class);
    assertThat(new String(producer.history().get(0).value(), StandardCharsets.UTF_8))
        .isEqualTo("{\"name\":\"kim\",\"ssn\":\"123\",\"age\":12}");
  }
}
