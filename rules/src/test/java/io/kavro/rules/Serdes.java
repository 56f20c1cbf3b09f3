package io.kavro.rules;

import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/** The value serde and the record of the fail-closed tests: a person whose tagged {@code ssn} is encrypted. */
final class Serdes {
  static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]},{"name":"age","type":"int"}]}""");
  static final String SSN = "123-45-6789";

  private Serdes() {}

  static KafkaAvroSerializer serializer(Map<String, Object> config) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config, false);
    return serializer;
  }

  static KafkaAvroDeserializer deserializer(Map<String, Object> config) {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config, false);
    return deserializer;
  }

  /** A person named {@code name}, with {@link #SSN}. */
  static GenericRecord person(String name) {
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("name", name);
    person.put("ssn", SSN);
    person.put("age", 30);
    return person;
  }

  /** Whether {@link #SSN} is in the payload as it is. */
  static boolean inClear(byte[] payload) {
    return new String(payload, StandardCharsets.ISO_8859_1).contains(SSN);
  }
}
