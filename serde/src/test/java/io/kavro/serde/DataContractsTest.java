package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.UnsupportedRulesException;
import io.kavro.registry.mock.MockRegistries;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issues 23 and 35, on {@code mock://}, without {@code kavro-rules} on the class path: a subject whose schema carries
 * data contract rules (an ENCRYPT rule on a PII field, say) is never written or read as if the rules were not
 * there. Each way in (auto-registration, which takes the latest version's rules as Confluent's registry does,
 * {@code use.latest.version}, reading by id) fails with a typed error naming the rule and the artifact that runs
 * it; {@code rules.ignore=true} opts out; a refused record leaves no trace.
 */
class DataContractsTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"ssn","type":"string"}]}""");
  private static final io.kavro.registry.contract.DataContract ENCRYPT = Contracts.domain(Contracts.rule("encryptSsn",
      io.kavro.registry.contract.Rule.Kind.TRANSFORM, io.kavro.registry.contract.Rule.Mode.WRITEREAD, "ENCRYPT",
      null));
  private static final String RULE = "rule 'encryptSsn' (ENCRYPT, TRANSFORM, WRITEREAD)";

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord person(String ssn) {
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("ssn", ssn);
    return person;
  }

  @Test
  void everyWayIn_refusedNamingTheRule_unlessIgnored() {
    int id = MockRegistries.scope(serdes.scope).register("people-value", PERSON, List.of(), ENCRYPT);
    KafkaAvroSerializer autoRegister = serdes.serializer();
    KafkaAvroSerializer latest = serdes.serializer("auto.register.schemas", false, "use.latest.version", true);
    KafkaAvroSerializer byId = serdes.serializer("auto.register.schemas", false, "use.schema.id", id);

    for (KafkaAvroSerializer serializer : List.of(autoRegister, latest, byId)) {
      assertThatThrownBy(() -> serializer.serialize("people", person("123-45-6789")))
          .isInstanceOf(SchemaRegistrationException.class)
          .hasMessageContaining("subject 'people-value'").hasMessageContaining("io.kavro:kavro-rules")
          .hasMessageContaining(RULE).hasCauseInstanceOf(UnsupportedRulesException.class)
            .hasRootCauseInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class);
    }

    byte[] written = serdes.serializer("rules.ignore", true).serialize("people", person("123-45-6789"));
    assertThat(java.nio.ByteBuffer.wrap(written, 1, 4).getInt()).isEqualTo(id);
    assertThatThrownBy(() -> serdes.deserializer().deserialize("people", written))
        .isInstanceOf(SerializationException.class).hasMessageContaining("schema id " + id)
        .hasMessageContaining(RULE).hasMessageContaining("io.kavro:kavro-rules")
        .hasCauseInstanceOf(UnsupportedRulesException.class)
            .hasRootCauseInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class);
    assertThat(serdes.deserializer("rules.ignore", true).deserialize("people", written)).isEqualTo(
        person("123-45-6789"));
  }

  @Test
  void aRefusedRecord_leavesNoTrace() {
    MockRegistries.scope(serdes.scope).register("people-value", PERSON, List.of(), ENCRYPT);
    KafkaAvroSerializer serializer = serdes.serializer();
    assertThatThrownBy(() -> serializer.serialize("people", person("1"))).isInstanceOf(SerializationException.class);

    byte[] next = serializer.serialize("others", person("2"));

    assertThat(next).isEqualTo(serdes.serializer().serialize("others", person("2")));
    assertThatThrownBy(() -> serializer.serialize("people", person("3"))).as("refused again, never cached as good")
        .isInstanceOf(SerializationException.class);
  }
}
