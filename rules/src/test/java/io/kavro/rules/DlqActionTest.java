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
  void redactedTypes_addToEncrypt_neverReplaceIt() {
    GenericRecord kid = new GenericData.Record(PERSON);
    kid.put("name", "kim");
    kid.put("ssn", "123");
    kid.put("age", 12);
    assertThatThrownBy(() -> action(Map.of("dlq.topic", "d", "dlq.redact.rule.types", "JSONATA"))
        .run(outcome(Rule.Mode.WRITE, kid))).isInstanceOf(SerializationException.class);
    assertThat(new String(producer.history().get(0).value(), StandardCharsets.UTF_8))
        .isEqualTo("{\"name\":\"kim\",\"ssn\":\"<REDACTED>\",\"age\":12}");
    assertThatThrownBy(() -> action(Map.of("dlq.topic", "d", "dlq.redact.rule.types", "CEL"))
        .run(outcome(Rule.Mode.WRITE, kid))).isInstanceOf(SerializationException.class);
    assertThat(new String(producer.history().get(1).value(), StandardCharsets.UTF_8)).as("the CEL rule has no tags")
        .isEqualTo("{\"name\":\"<REDACTED>\",\"ssn\":\"<REDACTED>\",\"age\":\"<REDACTED>\"}");
  }

  // Issue 49, item 3: every value an ENCRYPT rule selects, whatever its type and wherever it is.
  private static final Schema VAULT = new Schema.Parser().parse("""
      {"type":"record","name":"Vault","namespace":"com.acme","fields":[
       {"name":"id","type":"string"},
       {"name":"photo","type":"bytes","confluent:tags":["PII"]},
       {"name":"digest","type":{"type":"fixed","name":"Digest","size":8},"confluent:tags":["PII"]},
       {"name":"level","type":{"type":"enum","name":"Level","symbols":["LOW","TOPSECRET"]},"confluent:tags":["PII"]},
       {"name":"pin","type":"int","confluent:tags":["PII"]},
       {"name":"scan","type":["null","bytes"],"confluent:tags":["PII"]},
       {"name":"either","type":["int","string"],"confluent:tags":["PII"]},
       {"name":"notes","type":{"type":"array","items":"string"},"confluent:tags":["PII"]},
       {"name":"blobs","type":{"type":"map","values":"bytes"},"confluent:tags":["PII"]},
       {"name":"home","type":{"type":"record","name":"Home","fields":[
         {"name":"street","type":"string","confluent:tags":["PII"]},{"name":"zip","type":"int"}]}},
       {"name":"work","type":["null","Home"],"confluent:tags":["PII"]}]}""");

  private static GenericRecord vault() {
    GenericRecord home = new GenericData.Record(VAULT.getField("home").schema());
    home.put("street", "SECRET-street");
    home.put("zip", 12345);
    GenericRecord work = new GenericData.Record(VAULT.getField("home").schema());
    work.put("street", "SECRET-work");
    work.put("zip", 987654);
    GenericRecord vault = new GenericData.Record(VAULT);
    vault.put("id", "v-1");
    vault.put("photo", java.nio.ByteBuffer.wrap("SECRET-photo".getBytes(StandardCharsets.UTF_8)));
    vault.put("digest", new GenericData.Fixed(VAULT.getField("digest").schema(),
        "SECRETfx".getBytes(StandardCharsets.UTF_8)));
    vault.put("level", new GenericData.EnumSymbol(VAULT.getField("level").schema(), "TOPSECRET"));
    vault.put("pin", 424242);
    vault.put("scan", java.nio.ByteBuffer.wrap("SECRET-scan".getBytes(StandardCharsets.UTF_8)));
    vault.put("either", 777777);
    vault.put("notes", new GenericData.Array<>(VAULT.getField("notes").schema(), List.of("SECRET-note")));
    vault.put("blobs", Map.of("k", java.nio.ByteBuffer.wrap("SECRET-blob".getBytes(StandardCharsets.UTF_8))));
    vault.put("home", home);
    vault.put("work", work);
    return vault;
  }

  private static RuleOutcome vaultOutcome(DataContract contract, Rule failed, RuleException failure) {
    RuleTarget target = new RuleTarget(failed, Rule.Mode.WRITE, "vault-value", VAULT, contract, List.of(failed), 0,
        null);
    return new RuleOutcome(target, new RuleInput("vault", false, new RecordHeaders()), vault(), failure);
  }

  private static Rule cel(String name, String expr) {
    return new Rule(name, null, Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(), expr, null, "DLQ",
        false);
  }

  @Test
  void onWrite_everyValueAnEncryptRuleSelects_isRedacted_whateverItsTypeAndPlace() {
    Rule check = cel("check", "message.pin > 0");
    DataContract contract = new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(check, ENCRYPT), List.of(), null));

    assertThatThrownBy(() -> action(Map.of("dlq.topic", "d")).run(vaultOutcome(contract, check,
        new RuleException("Expr failed")))).isInstanceOf(SerializationException.class);

    assertThat(new String(producer.history().get(0).value(), StandardCharsets.ISO_8859_1)).isEqualTo(
        "{\"id\":\"v-1\",\"photo\":\"<REDACTED>\",\"digest\":\"<REDACTED>\",\"level\":\"<REDACTED>\","
            + "\"pin\":\"<REDACTED>\",\"scan\":{\"bytes\":\"<REDACTED>\"},\"either\":{\"int\":\"<REDACTED>\"},"
            + "\"notes\":[\"<REDACTED>\"],\"blobs\":{\"k\":\"<REDACTED>\"},"
            + "\"home\":{\"street\":\"<REDACTED>\",\"zip\":12345},"
            + "\"work\":{\"com.acme.Home\":{\"street\":\"<REDACTED>\",\"zip\":\"<REDACTED>\"}}}");
  }

  @Test
  void onWrite_aRuleOfTheRouteThatIsNoTransform_disabledOrReadOnly_stillRedacts() {
    Rule check = cel("check", "message.pin > 0");
    for (Rule encrypt : List.of(
        new Rule("e", null, Rule.Kind.CONDITION, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), Map.of(), null, null,
            null, false),
        new Rule("e", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), Map.of(), null, null,
            null, true),
        new Rule("e", null, Rule.Kind.TRANSFORM, Rule.Mode.READ, "encrypt", Set.of("PII"), Map.of(), null, null,
            null, false))) {
      producer.clear();
      DataContract contract = new DataContract(Metadata.EMPTY,
          new RuleSet(List.of(), List.of(check, encrypt), List.of(), null));
      assertThatThrownBy(() -> action(Map.of("dlq.topic", "d")).run(vaultOutcome(contract, check,
          new RuleException("Expr failed")))).isInstanceOf(SerializationException.class);
      String sent = new String(producer.history().get(0).value(), StandardCharsets.ISO_8859_1);
      assertThat(sent).as("%s", encrypt).contains("\"id\":\"v-1\"").doesNotContain("SECRET")
          .doesNotContain("424242").doesNotContain("777777");
    }
  }

  @Test
  void onWrite_aContractThatEncryptsThePayload_sendsNoPayload_onlyTheHeaders() {
    Rule check = cel("check", "message.pin > 0");
    Rule payload = new Rule("payload", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT_PAYLOAD", Set.of(),
        Map.of("encrypt.kek.name", "k"), null, null, "DLQ", false);
    DataContract contract = new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(check), List.of(payload), null));

    for (Rule failed : List.of(check, payload)) {
      producer.clear();
      assertThatThrownBy(() -> action(Map.of("dlq.topic", "d")).run(vaultOutcome(contract, failed,
          new RuleException("failed")))).isInstanceOf(SerializationException.class);
      ProducerRecord<byte[], byte[]> sent = producer.history().get(0);
      assertThat(sent.value()).as("after %s", failed.name()).isNull();
      assertThat(sent.key()).isNull();
      assertThat(header(sent, "__rule.name")).isEqualTo(failed.name());
    }
  }

  @Test
  void onWrite_aMessageThatCannotBeWalked_sendsNoPayload() {
    Rule check = cel("check", "message.pin > 0");
    DataContract badPattern = new DataContract(new Metadata(Map.of("**[", Set.of("PII")), Map.of(), Set.of()),
        new RuleSet(List.of(), List.of(check, ENCRYPT), List.of(), null));
    assertThatThrownBy(() -> action(Map.of("dlq.topic", "d")).run(vaultOutcome(badPattern, check,
        new RuleException("Expr failed")))).isInstanceOf(SerializationException.class);
    assertThat(producer.history().get(0).value()).isNull();

    producer.clear();
    DataContract contract = new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(check, ENCRYPT), List.of(), null));
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("ssn", "SECRET");
    RuleTarget target = new RuleTarget(check, Rule.Mode.WRITE, "vault-value", VAULT, contract, List.of(check), 0,
        null);
    assertThatThrownBy(() -> action(Map.of("dlq.topic", "d")).run(new RuleOutcome(target,
        new RuleInput("vault", false, null), person, new RuleException("x")))).isInstanceOf(SerializationException.class);
    assertThat(producer.history().get(0).value()).as("a datum of another schema").isNull();
  }

  @Test
  void theExceptionHeader_ofARealRuleFailure_quotesNoFieldValue() {
    Rule check = cel("check", "int(message.ssn) > 0");
    DataContract contract = new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(check, ENCRYPT), List.of(), null));
    RuleTarget target = new RuleTarget(check, Rule.Mode.WRITE, "people-value", PERSON, contract, List.of(check), 0,
        null);
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("name", "kim");
    person.put("ssn", "123-45-6789");
    person.put("age", 30);
    RuleException failure = catchRuleException(() -> new io.kavro.rules.cel.CelExecutor().prepare(target)
        .apply(new RuleInput("people", false, null), person));

    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(() -> action(Map.of("dlq.topic", "d"))
        .run(new RuleOutcome(target, new RuleInput("people", false, null), person, failure)));

    ProducerRecord<byte[], byte[]> sent = producer.history().get(0);
    assertThat(header(sent, "__rule.exception")).contains("int(message.ssn)").doesNotContain("123-45-6789")
        .doesNotContain("6789");
    assertThat(new String(sent.value(), StandardCharsets.UTF_8)).doesNotContain("123-45-6789");
    assertThat(thrown).isInstanceOf(SerializationException.class);
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as("%s", t.getClass()).doesNotContain("6789");
    }
  }

  private static RuleException catchRuleException(Runnable run) {
    try {
      run.run();
    } catch (RuleException e) {
      return e;
    }
    throw new AssertionError("the rule did not fail");
  }
}
