package io.kavro.compat.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/**
 * kavro-rules on the cell's serde artifact, kafka-clients and Avro: an encrypted field and a CEL condition, with
 * the executors found by ServiceLoader.
 */
class RulesTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"ssn","type":"string",
       "confluent:tags":["PII"]},{"name":"age","type":"int"}]}""");

  @Test
  void encryptAndCel_runOnThisCell() {
    String scope = "cell-rules";
    Rule encrypt = new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
        Map.of("encrypt.kek.name", "kek1", "encrypt.kms.type", "local-kms", "encrypt.kms.key.id", "k"), null, null,
        null, false);
    Rule adult = new Rule("adult", null, Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(),
        "message.age >= 18", null, null, false);
    MockRegistries.scope(scope).register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(encrypt, adult), List.of(), null)));
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "auto.register.schemas", false, "use.latest.version", true, "rule.executors._default_.param.secret", "s"));
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      serializer.configure(config, false);
      deserializer.configure(config, false);
      GenericRecord person = new GenericData.Record(PERSON);
      person.put("ssn", "123-45-6789");
      person.put("age", 30);

      byte[] written = serializer.serialize("people", person);

      assertThat(new String(written, StandardCharsets.ISO_8859_1)).doesNotContain("123-45-6789");
      assertThat(((GenericRecord) deserializer.deserialize("people", written)).get("ssn").toString())
          .isEqualTo("123-45-6789");
      person.put("age", 12);
      assertThatThrownBy(() -> serializer.serialize("people", person)).isInstanceOf(SerializationException.class)
          .hasMessageContaining("Rule failed: adult");
    } finally {
      MockRegistries.drop(scope);
    }
  }
}
