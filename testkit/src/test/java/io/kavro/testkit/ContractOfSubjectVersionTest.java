package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.UnsupportedRulesException;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 49, item 11: a contract belongs to a subject's version. On the testkit's stack (Apicurio with the contract
 * layer in front, as users get it), the same schema registered with an ENCRYPT rule under subject A and then
 * without rules under subject B must leave A's rule in force: a consumer of A's records that has no kavro-rules
 * (this module's tests have none) is refused, never handed the ciphertext.
 */
@ExtendWith(KavroStackExtension.class)
class ContractOfSubjectVersionTest {
  private final TestStack stack;

  ContractOfSubjectVersionTest(TestStack stack) {
    this.stack = stack;
  }

  @Test
  void sameSchemaUnderAnotherSubjectWithoutRules_aReaderOfTheFirstSubjectStillMeetsItsRule() throws Exception {
    String run = "n" + UUID.randomUUID().toString().replace("-", "");
    Schema person = new Schema.Parser().parse("""
        {"type":"record","name":"Person","namespace":"%s","fields":[
          {"name":"ssn","type":"string","confluent:tags":["PII"]}]}""".formatted(run));
    String topicA = "people-a-" + run;
    String topicB = "people-b-" + run;
    Rule encrypt = new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
        Map.of("encrypt.kek.name", "kek-" + run, "encrypt.kms.type", "local-kms", "encrypt.kms.key.id", "key1"),
        null, null, "ERROR,NONE", false);
    int idA;
    try (SchemaRegistryClient admin = SchemaRegistryClients.create(stack.registryConfigs())) {
      idA = admin.register(topicA + "-value", person, List.of(),
          new DataContract(Metadata.EMPTY, new RuleSet(List.of(), List.of(encrypt), List.of(), null)));
    }

    // B's producer registers the same schema, without rules, as a serializer does.
    GenericRecord plain = new GenericData.Record(person);
    plain.put("ssn", "123-45-6789");
    byte[] recordOfB;
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(stack.registryConfigs(), false);
      recordOfB = serializer.serialize(topicB, plain);
    }

    // A record of A's, as a producer with kavro-rules writes it: A's id, the ssn its ciphertext.
    GenericRecord sealed = new GenericData.Record(person);
    sealed.put("ssn", "AAAAAXNlYWxlZCBieSBhIEtFSyB0aGUgcmVhZGVyIGRvZXMgbm90IGhhdmU=");
    byte[] recordOfA = framed(idA, sealed);

    // A consumer that starts after both registrations, without kavro-rules.
    try (KafkaAvroDeserializer reader = new KafkaAvroDeserializer()) {
      reader.configure(stack.registryConfigs(), false);
      assertThat(reader.deserialize(topicB, recordOfB)).as("B's records carry no rule").isEqualTo(plain);

      Throwable refused = catchThrowable(() -> reader.deserialize(topicA, recordOfA));
      assertThat(refused).as("A's record is refused, not handed over as ciphertext")
          .isInstanceOf(SerializationException.class).hasMessageContaining("encryptPii")
          .hasMessageContaining("ENCRYPT");
      assertThat(chain(refused)).anyMatch(UnsupportedRulesException.class::isInstance);
    }
    int idB = ByteBuffer.wrap(recordOfB, 1, 4).getInt();
    assertThat(idB).as("B's version is the schema without rules: another id than A's").isNotEqualTo(idA);
  }

  private static byte[] framed(int id, GenericRecord record) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0);
    out.write(ByteBuffer.allocate(4).putInt(id).array());
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  private static List<Throwable> chain(Throwable e) {
    List<Throwable> chain = new java.util.ArrayList<>();
    for (Throwable t = e; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    return chain;
  }
}
