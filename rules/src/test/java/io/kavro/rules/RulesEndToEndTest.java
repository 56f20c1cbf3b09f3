package io.kavro.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.contract.DataContract;
import io.kavro.registry.contract.Dek;
import io.kavro.registry.DekRegistry;
import io.kavro.registry.contract.Metadata;
import io.kavro.registry.contract.Rule;
import io.kavro.registry.contract.RuleSet;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.registry.mock.MockRegistry;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 35, through the serde's own classes with kavro-rules found by ServiceLoader, on {@code mock://} (its
 * rule sets and DEK registry run as a real registry's would): every executor, and the actions, as an
 * application meets them.
 */
class RulesEndToEndTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]},
       {"name":"photo","type":"bytes","confluent:tags":["PII"]},{"name":"age","type":"int"}]}""");
  private static final Map<String, String> KMS = Map.of("encrypt.kek.name", "kek1", "encrypt.kms.type", "local-kms",
      "encrypt.kms.key.id", "key1");
  private static final String SECRET = "rule.executors._default_.param.secret";

  private final String scope = "rules-e2e-" + UUID.randomUUID();
  private final MockRegistry registry = MockRegistries.scope(scope);

  @AfterEach
  void drop() {
    MockRegistries.drop(scope);
  }

  private Map<String, Object> config(Object... keyValues) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", "mock://" + scope,
        "auto.register.schemas", false, "use.latest.version", true));
    for (int i = 0; i < keyValues.length; i += 2) {
      config.put((String) keyValues[i], keyValues[i + 1]);
    }
    return config;
  }

  private KafkaAvroSerializer serializer(Object... keyValues) {
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(config(keyValues), false);
    return serializer;
  }

  private KafkaAvroDeserializer deserializer(Object... keyValues) {
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config(keyValues), false);
    return deserializer;
  }

  private static Rule rule(String name, Rule.Kind kind, Rule.Mode mode, String type, Set<String> tags,
      Map<String, String> params, String expr, String onFailure) {
    return new Rule(name, null, kind, mode, type, tags, params, expr, null, onFailure, false);
  }

  private static DataContract domain(Rule... rules) {
    return new DataContract(Metadata.EMPTY, new RuleSet(List.of(), List.of(rules), List.of(), null));
  }

  private static GenericRecord person(String name, String ssn, int age) {
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("name", name);
    person.put("ssn", ssn);
    person.put("photo", ByteBuffer.wrap(new byte[] {1, 2, 3}));
    person.put("age", age);
    return person;
  }

  private static boolean contains(byte[] haystack, String needle) {
    return new String(haystack, StandardCharsets.ISO_8859_1).contains(needle);
  }

  @Test
  void encrypt_fieldsAreCiphertextOnTheWire_andPlainForAReaderWithTheKey() {
    registry.register("people-value", PERSON, List.of(), domain(rule("encryptPii", Rule.Kind.TRANSFORM,
        Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), KMS, null, null)));

    byte[] written = serializer(SECRET, "s3cret").serialize("people", person("ann", "123-45-6789", 30));

    assertThat(contains(written, "123-45-6789")).as("no plaintext on the wire").isFalse();
    assertThat(contains(written, "ann")).as("untagged fields stay plain").isTrue();
    GenericRecord raw = (GenericRecord) deserializer("rules.ignore", true).deserialize("people", written);
    byte[] ciphertext = Base64.getDecoder().decode(raw.get("ssn").toString());
    assertThat(ciphertext.length).as("12-byte nonce, 11 bytes, 16-byte tag").isEqualTo(12 + 11 + 16);
    assertThat(((ByteBuffer) raw.get("photo")).remaining()).isEqualTo(12 + 3 + 16);

    GenericRecord read = (GenericRecord) deserializer(SECRET, "s3cret").deserialize("people", written);
    assertThat(read.get("ssn").toString()).isEqualTo("123-45-6789");
    assertThat(((ByteBuffer) read.get("photo")).array()).containsExactly(1, 2, 3);

    DekRegistry deks = registry.dekRegistry();
    assertThat(deks.kek("kek1", false)).hasValueSatisfying(kek -> {
      assertThat(kek.kmsType()).isEqualTo("local-kms");
      assertThat(kek.kmsKeyId()).isEqualTo("key1");
      assertThat(kek.shared()).isFalse();
    });
    Dek dek = deks.dek("kek1", "people-value", "AES256_GCM", 1, false).orElseThrow();
    assertThat(dek.encryptedKeyMaterial()).isNotBlank();
    assertThat(dek.keyMaterial()).as("a non-shared KEK's registry never holds the key in clear").isNull();
  }

  @Test
  void encrypt_aReaderWithoutTheKey_failsNamingTheRule_orPassesCiphertextWithErrorNone() {
    registry.register("strict-value", PERSON, List.of(), domain(rule("encryptPii", Rule.Kind.TRANSFORM,
        Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), KMS, null, null)));
    registry.register("lenient-value", PERSON, List.of(), domain(rule("encryptPii", Rule.Kind.TRANSFORM,
        Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), KMS, null, "ERROR,NONE")));
    byte[] strict = serializer(SECRET, "s3cret").serialize("strict", person("ann", "123-45-6789", 30));
    byte[] lenient = serializer(SECRET, "s3cret").serialize("lenient", person("ann", "123-45-6789", 30));

    assertThatThrownBy(() -> deserializer(SECRET, "guess-42").deserialize("strict", strict))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: encryptPii")
        .hasMessageContaining("com.acme.Person.ssn").hasMessageNotContaining("guess-42");
    GenericRecord passed = (GenericRecord) deserializer(SECRET, "guess-42").deserialize("lenient", lenient);
    assertThat(passed.get("ssn").toString()).isNotEqualTo("123-45-6789").isBase64();
  }

  @Test
  void encrypt_withTheSchemaGuidInAHeader_isDecryptedToo() {
    registry.register("people-value", PERSON, List.of(), domain(rule("encryptPii", Rule.Kind.TRANSFORM,
        Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), KMS, null, null)));
    org.apache.kafka.common.header.internals.RecordHeaders headers =
        new org.apache.kafka.common.header.internals.RecordHeaders();

    byte[] written = serializer(SECRET, "s3cret", "value.schema.id.serializer", "HeaderSchemaIdSerializer")
        .serialize("people", headers, person("ann", "123-45-6789", 30));

    assertThat(headers.lastHeader("__value_schema_id").value()[0]).as("a GUID").isEqualTo((byte) 1);
    assertThat(contains(written, "123-45-6789")).isFalse();
    GenericRecord read = (GenericRecord) deserializer(SECRET, "s3cret").deserialize("people", headers, written);
    assertThat(read.get("ssn").toString()).isEqualTo("123-45-6789");
  }

  @Test
  void encrypt_siv_isDeterministic() {
    Map<String, String> siv = new HashMap<>(KMS);
    siv.put("encrypt.dek.algorithm", "AES256_SIV");
    registry.register("people-value", PERSON, List.of(), domain(rule("encryptPii", Rule.Kind.TRANSFORM,
        Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), siv, null, null)));
    KafkaAvroSerializer serializer = serializer(SECRET, "s3cret");

    byte[] first = serializer.serialize("people", person("ann", "123-45-6789", 30));
    byte[] second = serializer.serialize("people", person("ann", "123-45-6789", 30));

    assertThat(first).isEqualTo(second);
    assertThat(((GenericRecord) deserializer(SECRET, "s3cret").deserialize("people", first)).get("ssn").toString())
        .isEqualTo("123-45-6789");
  }

  @Test
  void encryptPayload_theWholeBodyIsCiphertext_insideTheFraming() {
    registry.register("people-value", PERSON, List.of(), new DataContract(Metadata.EMPTY, new RuleSet(List.of(),
        List.of(), List.of(rule("encryptAll", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT_PAYLOAD",
            Set.of(), KMS, null, null)), null)));

    byte[] written = serializer(SECRET, "s3cret").serialize("people", person("ann", "123-45-6789", 30));

    assertThat(written[0]).isZero();
    assertThat(ByteBuffer.wrap(written, 1, 4).getInt()).isEqualTo(1);
    assertThat(contains(written, "ann")).isFalse();
    assertThat(((GenericRecord) deserializer(SECRET, "s3cret").deserialize("people", written)).get("name")
        .toString()).isEqualTo("ann");
  }

  @Test
  void cel_conditionFailsTheRecordNamingTheRule_andTheNextRecordIsClean() {
    registry.register("people-value", PERSON, List.of(), domain(rule("adult", Rule.Kind.CONDITION, Rule.Mode.WRITE,
        "CEL", Set.of(), Map.of(), "message.age >= 18", null)));
    KafkaAvroSerializer serializer = serializer();

    assertThatThrownBy(() -> serializer.serialize("people", person("kim", "1", 12)))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: adult")
        .hasMessageContaining("Expr failed: 'message.age >= 18'");
    byte[] next = serializer.serialize("people", person("ann", "2", 30));

    assertThat(next).isEqualTo(serializer().serialize("people", person("ann", "2", 30)));
  }

  @Test
  void celField_transformsTheTaggedStringsOnly() {
    registry.register("people-value", PERSON, List.of(), domain(rule("mask", Rule.Kind.TRANSFORM, Rule.Mode.WRITE,
        "CEL_FIELD", Set.of("PII"), Map.of(), "typeName == 'STRING' ; 'XXX-' + value.substring(7)", null)));

    byte[] written = serializer().serialize("people", person("ann", "123-45-6789", 30));

    GenericRecord read = (GenericRecord) deserializer().deserialize("people", written);
    assertThat(read.get("ssn").toString()).isEqualTo("XXX-6789");
    assertThat(read.get("name").toString()).isEqualTo("ann");
    assertThat(((ByteBuffer) read.get("photo")).array()).containsExactly(1, 2, 3);
  }

  private static final Schema V1 = new Schema.Parser().parse("""
      {"type":"record","name":"Customer","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string"}]}""");
  private static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Customer","namespace":"com.acme","fields":[{"name":"name","type":"string"},
       {"name":"socialSecurityNumber","type":"string"}]}""");

  @Test
  void jsonata_migrations_readOldAndNewMajorsAlike() {
    registry.setCompatibility("customers-value", CompatibilityLevel.NONE);
    registry.register("customers-value", V1, List.of(), new DataContract(
        new Metadata(Map.of(), Map.of("major_version", "1"), Set.of()), RuleSet.EMPTY));
    registry.register("customers-value", V2, List.of(), new DataContract(
        new Metadata(Map.of(), Map.of("major_version", "2"), Set.of()), new RuleSet(List.of(
            rule("up", Rule.Kind.TRANSFORM, Rule.Mode.UPGRADE, "JSONATA", Set.of(), Map.of(),
                "$merge([$sift($, function($v, $k) {$k != 'ssn'}), {'socialSecurityNumber': $.'ssn'}])", null),
            rule("down", Rule.Kind.TRANSFORM, Rule.Mode.DOWNGRADE, "JSONATA", Set.of(), Map.of(),
                "$merge([$sift($, function($v, $k) {$k != 'socialSecurityNumber'}), {'ssn': $.'socialSecurityNumber'}])",
                null)), List.of(), List.of(), null)));
    GenericRecord old = new GenericData.Record(V1);
    old.put("name", "ann");
    old.put("ssn", "123");
    GenericRecord current = new GenericData.Record(V2);
    current.put("name", "bob");
    current.put("socialSecurityNumber", "456");
    byte[] oldBytes = serializer("use.latest.with.metadata", "major_version=1").serialize("customers", old);
    byte[] newBytes = serializer("use.latest.with.metadata", "major_version=2").serialize("customers", current);

    KafkaAvroDeserializer v2Reader = deserializer("use.latest.with.metadata", "major_version=2");
    KafkaAvroDeserializer v1Reader = deserializer("use.latest.with.metadata", "major_version=1");

    GenericRecord upgraded = (GenericRecord) v2Reader.deserialize("customers", oldBytes);
    assertThat(upgraded.getSchema()).isEqualTo(V2);
    assertThat(upgraded.get("socialSecurityNumber").toString()).isEqualTo("123");
    GenericRecord downgraded = (GenericRecord) v1Reader.deserialize("customers", newBytes);
    assertThat(downgraded.getSchema()).isEqualTo(V1);
    assertThat(downgraded.get("ssn").toString()).isEqualTo("456");
    assertThat(((GenericRecord) v2Reader.deserialize("customers", newBytes)).get("socialSecurityNumber")
        .toString()).isEqualTo("456");
  }

  /** Issue 49, item 4: ENCRYPT on a subject whose schema has no field would write it in clear. */
  @Test
  void encrypt_onAStringSubject_isRefusedWhenPlanned_namingTheSubjectAndEncryptPayload() {
    Schema taggedString = new Schema.Parser().parse("{\"type\":\"string\",\"confluent:tags\":[\"PII\"]}");
    registry.register("ids-value", taggedString, List.of(), domain(rule("encryptId", Rule.Kind.TRANSFORM,
        Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), KMS, null, "ERROR,NONE")));

    Throwable refused = org.assertj.core.api.Assertions.catchThrowable(
        () -> serializer(SECRET, "s3cret").serialize("ids", "123-45-6789"));

    assertThat(refused).isInstanceOf(SerializationException.class).hasMessageContaining("'ids-value'")
        .hasMessageContaining("encryptId").hasMessageContaining("ENCRYPT_PAYLOAD")
        .hasRootCauseInstanceOf(io.kavro.rules.encryption.NoFieldsToEncryptException.class);
    assertThat(registry.dekRegistry().kek("kek1", true)).as("no key was made").isEmpty();
  }

  /** Issue 49, item 7: a rule's failure on a route that encrypts quotes no value, in the message or a cause. */
  @Test
  void aFailingCelRule_onARouteThatEncrypts_showsTheValueNowhere() {
    registry.register("people-value", PERSON, List.of(), domain(
        rule("digits", Rule.Kind.CONDITION, Rule.Mode.WRITE, "CEL", Set.of(), Map.of(), "int(message.ssn) > 0",
            null),
        rule("encryptPii", Rule.Kind.TRANSFORM, Rule.Mode.WRITEREAD, "ENCRYPT", Set.of("PII"), KMS, null, null)));

    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(
        () -> serializer(SECRET, "s3cret").serialize("people", person("ann", "123-45-6789", 30)));

    assertThat(thrown).isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: digits");
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      assertThat(String.valueOf(t.getMessage())).as("%s", t.getClass()).doesNotContain("45-67");
    }
  }

  @Test
  void aSchemaWithoutRules_isWrittenAsWithoutKavroRules() {
    registry.register("plain-value", PERSON);
    byte[] written = serializer().serialize("plain", person("ann", "123-45-6789", 30));
    byte[] ignoring = serializer("rules.ignore", true).serialize("plain", person("ann", "123-45-6789", 30));
    assertThat(Arrays.equals(written, ignoring)).isTrue();
  }
}
