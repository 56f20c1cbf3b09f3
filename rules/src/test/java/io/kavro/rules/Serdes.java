package io.kavro.rules;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistry;
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

/**
 * The value serde and the record of the encryption tests: a person whose tagged {@code ssn} is encrypted, written to
 * topic {@code people} (subject {@code people-value}) on a {@code mock://} registry. Shared, through kavro-rules'
 * test-jar, with the KMS drivers' end-to-end tests, which give their driver's credentials as
 * {@code rule.executors._default_.param.*} ({@link #PARAM}).
 */
public final class Serdes {
  /** The record's schema: {@code name}, {@code ssn} (tagged {@code PII}), {@code age}. */
  public static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]},{"name":"age","type":"int"}]}""");
  /** Every person's {@code ssn}. */
  public static final String SSN = "123-45-6789";
  /** The subject of the topic {@code people}'s values. */
  public static final String SUBJECT = "people-value";
  /** The prefix of the settings every rule executor gets. */
  public static final String PARAM = "rule.executors._default_.param.";

  private Serdes() {}

  /**
   * The settings of a serde on the {@code mock://} registry of {@code scope}, which uses the latest schema and
   * registers none, with {@code more} over them.
   */
  public static Map<String, Object> config(String scope, Map<String, ?> more) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "auto.register.schemas", false, "use.latest.version", true));
    config.putAll(more);
    return config;
  }

  /** A value serializer, configured. */
  public static KafkaAvroSerializer serializer(Map<String, Object> config) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    return serializer;
  }

  /** A value deserializer, configured. */
  public static KafkaAvroDeserializer deserializer(Map<String, Object> config) {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config, false);
    return deserializer;
  }

  /**
   * Registers {@link #PERSON} under {@link #SUBJECT} with the ENCRYPT rule {@code encryptPii} of the {@code PII}
   * fields, on write and read.
   *
   * @param onFailure the rule's {@code onFailure} ({@code "ERROR,ERROR"}, {@code "NONE,NONE"})
   */
  public static void registerEncryption(MockRegistry registry, String kekName, String kmsType, String kmsKeyId,
      String onFailure) {
    Rule rule = new Rule("encryptPii", null, Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"),
        Map.of("encrypt.kek.name", kekName, "encrypt.kms.type", kmsType, "encrypt.kms.key.id", kmsKeyId), null,
        null, onFailure, false);
    registry.register(SUBJECT, PERSON, List.of(), new DataContract(Metadata.EMPTY,
        new RuleSet(List.of(), List.of(rule), List.of(), null)));
  }

  /** A person named {@code name}, with {@link #SSN}. */
  public static GenericRecord person(String name) {
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("name", name);
    person.put("ssn", SSN);
    person.put("age", 30);
    return person;
  }

  /** The {@code ssn} of a person read back. */
  public static String ssnOf(Object person) {
    return ((GenericRecord) person).get("ssn").toString();
  }

  /** Whether {@link #SSN} is in the payload as it is. */
  public static boolean inClear(byte[] payload) {
    return new String(payload, StandardCharsets.ISO_8859_1).contains(SSN);
  }
}
