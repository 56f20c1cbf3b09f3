package io.kavro.rules.cel;

import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.RuleInput;
import io.kavro.serde.rules.RuleTarget;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;

/** The schema, datum and rules the CEL tests share. */
final class CelTestData {
  static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"acme","fields":[
        {"name":"name","type":"string"},
        {"name":"ssn","type":"string","confluent:tags":["PII"]},
        {"name":"pin","type":"int","confluent:tags":["PII"]},
        {"name":"nick","type":["null","string"],"default":null},
        {"name":"labels","type":{"type":"array","items":"string"}},
        {"name":"kind","type":{"type":"enum","name":"Kind","symbols":["A","B"]}},
        {"name":"data","type":"bytes"}
      ]}""");
  static final RuleInput INPUT = new RuleInput("people", false, null);

  private CelTestData() {}

  static GenericRecord person() {
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("name", new Utf8("Ann"));
    person.put("ssn", "123");
    person.put("pin", 5000);
    person.put("nick", null);
    person.put("labels", new GenericData.Array<>(PERSON.getField("labels").schema(), List.of(new Utf8("a"))));
    person.put("kind", new GenericData.EnumSymbol(PERSON.getField("kind").schema(), "A"));
    person.put("data", ByteBuffer.wrap("raw".getBytes(StandardCharsets.UTF_8)));
    return person;
  }

  static RuleTarget target(String type, String name, Rule.Kind kind, Set<String> tags, String expr) {
    Rule rule = new Rule(name, null, kind, Rule.Mode.WRITE, type, tags, Map.of(), expr, null, null, false);
    return new RuleTarget(rule, Rule.Mode.WRITE, "people-value", PERSON, DataContract.NONE, List.of(rule), 0,
        null);
  }
}
