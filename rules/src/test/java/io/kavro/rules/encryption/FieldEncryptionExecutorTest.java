package io.kavro.rules.encryption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.contract.Dek;
import io.kavro.registry.contract.Rule;
import io.kavro.serde.rules.PreparedRule;
import io.kavro.serde.rules.RuleException;
import io.kavro.serde.rules.RuleInput;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

class FieldEncryptionExecutorTest {
  private static final String SECRET = "field-test-secret";
  private static final RuleInput INPUT = new RuleInput("users", false, null);
  private static final Schema SCHEMA = new Schema.Parser().parse("""
      {"type": "record", "name": "User", "namespace": "com.acme", "fields": [
        {"name": "name", "type": "string"},
        {"name": "ssn", "type": "string", "confluent:tags": ["PII"]},
        {"name": "photo", "type": "bytes", "confluent:tags": ["PII"]},
        {"name": "nickname", "type": ["null", "string"], "confluent:tags": ["PII"]},
        {"name": "id", "type": ["int", "string"], "confluent:tags": ["PII"]},
        {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
          {"name": "street", "type": "string", "confluent:tags": ["PII"]},
          {"name": "zip", "type": "int"}]}}
      ]}""");
  private static final Schema WITH_INT = new Schema.Parser().parse("""
      {"type": "record", "name": "Account", "namespace": "com.acme", "fields": [
        {"name": "pin", "type": "int", "confluent:tags": ["PII"]}]}""");
  private static final String LONG_SSN = "123-45-6789 ".repeat(25);

  private final InMemoryDekRegistry registry = new InMemoryDekRegistry();

  @Test
  void writeThenRead_roundTripsTaggedStringBytesAndNestedFields() {
    GenericRecord written = (GenericRecord) prepare(Rule.Mode.WRITE, SCHEMA, 0).apply(INPUT, user("123-45-6789", 7));
    assertThat(written.get("name")).hasToString("Ann");
    assertThat(written.get("ssn")).asString().isNotEqualTo("123-45-6789");
    assertThat(written.get("nickname")).asString().isNotEqualTo("annie");
    assertThat(((GenericRecord) written.get("address")).get("street")).asString().isNotEqualTo("Main St 1");
    assertThat(((GenericRecord) written.get("address")).get("zip")).isEqualTo(12345);
    assertThat(written.get("id")).isEqualTo(7); // an int branch of a union of several types is left as it is

    GenericRecord read = (GenericRecord) prepare(Rule.Mode.READ, SCHEMA, 0).apply(INPUT, written);
    assertThat(read.get("ssn")).hasToString("123-45-6789");
    assertThat(read.get("nickname")).hasToString("annie");
    assertThat(((GenericRecord) read.get("address")).get("street")).hasToString("Main St 1");
    assertThat(bytes(read.get("photo"))).containsExactly(1, 2, 3, 4);
    assertThat(read.get("id")).isEqualTo(7);
  }

  @Test
  void write_stringIsStandardBase64OfTheGcm_bytesTheRawGcm() throws Exception {
    GenericRecord written = (GenericRecord) prepare(Rule.Mode.WRITE, SCHEMA, 0).apply(INPUT, user(LONG_SSN, 7));
    String ssn = written.get("ssn").toString();
    assertThat(ssn).matches("[A-Za-z0-9+/]+={0,2}");
    byte[] cipher = Base64.getDecoder().decode(ssn);
    assertThat(cipher).hasSize(12 + LONG_SSN.length() + 16);
    byte[] key = dekKey();
    assertThat(new String(PayloadEncryptionExecutorTest.gcmDecrypt(key, cipher), StandardCharsets.UTF_8))
        .isEqualTo(LONG_SSN);
    byte[] photo = bytes(written.get("photo"));
    assertThat(photo).hasSize(12 + 4 + 16);
    assertThat(PayloadEncryptionExecutorTest.gcmDecrypt(key, photo)).containsExactly(1, 2, 3, 4);
  }

  @Test
  void write_withExpiry_prefixesStringsAndBytesWithTheDekVersion() {
    GenericRecord written = (GenericRecord) prepare(Rule.Mode.WRITE, SCHEMA, 30).apply(INPUT, user("x", "id-1"));
    HexFormat hex = HexFormat.of();
    assertThat(hex.formatHex(Base64.getDecoder().decode(written.get("ssn").toString()), 0, 5)).isEqualTo("0000000001");
    assertThat(hex.formatHex(bytes(written.get("photo")), 0, 5)).isEqualTo("0000000001");
    assertThat(hex.formatHex(Base64.getDecoder().decode(written.get("id").toString()), 0, 5)).isEqualTo("0000000001");
    GenericRecord read = (GenericRecord) prepare(Rule.Mode.READ, SCHEMA, 30).apply(INPUT, written);
    assertThat(read.get("id")).hasToString("id-1");
  }

  @Test
  void write_nullStaysNull() {
    GenericRecord user = user("123", 1);
    user.put("nickname", null);
    GenericRecord written = (GenericRecord) prepare(Rule.Mode.WRITE, SCHEMA, 0).apply(INPUT, user);
    assertThat(written.get("nickname")).isNull();
    assertThat(((GenericRecord) prepare(Rule.Mode.READ, SCHEMA, 0).apply(INPUT, written)).get("nickname")).isNull();
  }

  @Test
  void write_anIntField_isNotSupported_readLeavesIt() {
    GenericData.Record account = new GenericData.Record(WITH_INT);
    account.put("pin", 1234);
    assertThatThrownBy(() -> prepare(Rule.Mode.WRITE, WITH_INT, 0).apply(INPUT, account))
        .isInstanceOf(RuleException.class).hasMessageContaining("type INT not supported for encryption")
        .hasMessageContaining("com.acme.Account.pin").hasMessageContaining("encryptPII");
    assertThat(((GenericRecord) prepare(Rule.Mode.READ, WITH_INT, 0).apply(INPUT, account)).get("pin"))
        .isEqualTo(1234);
  }

  @Test
  void read_wrongSecret_namesTheFieldAndRule_notTheSecret() {
    GenericRecord written = (GenericRecord) prepare(Rule.Mode.WRITE, SCHEMA, 0).apply(INPUT, user("123", 1));
    FieldEncryptionExecutor reader = new FieldEncryptionExecutor();
    reader.configure(Map.of("secret", "a-wrong-secret"));
    PreparedRule read = reader.prepare(Targets.target(rule(0), Rule.Mode.READ, SCHEMA, registry));
    assertThatThrownBy(() -> read.apply(INPUT, written)).isInstanceOf(RuleException.class)
        .hasMessageContaining("com.acme.User.ssn").hasMessageContaining("encryptPII")
        .hasMessageNotContaining("a-wrong-secret").hasMessageNotContaining(SECRET);
  }

  /**
   * A KEK of a KMS type with no driver here: the rule's failure is a deployment fault, its type kept through the
   * cipher, so that the rule's action and a host's error handling see it as one (not the record's).
   */
  @Test
  void write_kmsTypeWithNoDriver_failsAsADeploymentFault_namingTheRule() {
    Map<String, String> params = new java.util.HashMap<>(PayloadEncryptionExecutorTest.params(0));
    params.put("encrypt.kms.type", "aws-kms");
    PreparedRule write = configured().prepare(Targets.target(Targets.rule("ENCRYPT", Set.of("PII"), params),
        Rule.Mode.WRITE, SCHEMA, registry));

    assertThatThrownBy(() -> write.apply(INPUT, user("123-45-6789", 7)))
        .isInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class)
        .hasMessageContaining("encryptPII").hasMessageContaining("no KMS driver for KMS type 'aws-kms'");
  }

  @Test
  void read_aChangedCiphertext_namesTheField() {
    GenericRecord written = (GenericRecord) prepare(Rule.Mode.WRITE, SCHEMA, 0).apply(INPUT, user("123", 1));
    GenericRecord address = (GenericRecord) written.get("address");
    byte[] street = Base64.getDecoder().decode(address.get("street").toString());
    street[street.length - 1] ^= 1;
    address.put("street", Base64.getEncoder().encodeToString(street));
    assertThatThrownBy(() -> prepare(Rule.Mode.READ, SCHEMA, 0).apply(INPUT, written))
        .isInstanceOf(RuleException.class).hasMessageContaining("com.acme.Address.street");
    address.put("street", "not base64!");
    assertThatThrownBy(() -> prepare(Rule.Mode.READ, SCHEMA, 0).apply(INPUT, written))
        .isInstanceOf(RuleException.class).hasMessageContaining("com.acme.Address.street")
        .hasMessageContaining("base64");
  }

  @Test
  void onceWarm_aRecordCallsNoRegistry() {
    PreparedRule writer = prepare(Rule.Mode.WRITE, SCHEMA, 0);
    PreparedRule reader = prepare(Rule.Mode.READ, SCHEMA, 0);
    reader.apply(INPUT, writer.apply(INPUT, user("1", 1)));
    int calls = registry.calls.get();
    for (int i = 0; i < 3; i++) {
      reader.apply(INPUT, writer.apply(INPUT, user("1", 1)));
    }
    assertThat(registry.calls.get()).isEqualTo(calls);
  }

  @Test
  void toString_holdsNoSecret() {
    FieldEncryptionExecutor executor = configured();
    assertThat(executor.toString()).isEqualTo("ENCRYPT executor");
    prepare(Rule.Mode.WRITE, SCHEMA, 0).apply(INPUT, user("1", 1));
    Dek dek = registry.deks.values().iterator().next();
    assertThat(dek.toString()).doesNotContain(dek.encryptedKeyMaterial());
  }

  /** Issue 49, item 4: on a schema with no field, ENCRYPT would write every record in clear. */
  @Test
  void prepare_onASchemaWithoutFields_isRefused_namingTheSubjectAndRule_andPointingToEncryptPayload() {
    Schema taggedString = new Schema.Parser().parse("{\"type\":\"string\",\"confluent:tags\":[\"PII\"]}");
    Schema strings = new Schema.Parser().parse("{\"type\":\"array\",\"items\":\"string\"}");
    for (Schema schema : List.of(Schema.create(Schema.Type.STRING), taggedString, Schema.create(Schema.Type.BYTES),
        strings, Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING)))) {
      for (Rule rule : List.of(rule(0), Targets.rule("ENCRYPT", PayloadEncryptionExecutorTest.params(0)))) {
        for (Rule.Mode phase : List.of(Rule.Mode.WRITE, Rule.Mode.READ)) {
          assertThatThrownBy(() -> configured().prepare(Targets.target(rule, phase, schema, registry)))
              .as("%s, %s, %s", schema, rule.tags(), phase)
              .isInstanceOf(NoFieldsToEncryptException.class)
              .hasMessageContaining("encryptPII").hasMessageContaining("'" + Targets.SUBJECT + "'")
              .hasMessageContaining("ENCRYPT_PAYLOAD")
              .satisfies(e -> {
                assertThat(((NoFieldsToEncryptException) e).subject()).isEqualTo(Targets.SUBJECT);
                assertThat(((NoFieldsToEncryptException) e).ruleName()).isEqualTo("encryptPII");
              });
        }
      }
    }
    assertThat(registry.calls.get()).as("refused before any key is made").isZero();
    Schema users = Schema.createArray(SCHEMA);
    assertThat(configured().prepare(Targets.target(rule(0), Rule.Mode.WRITE, users, registry)))
        .as("an array of records has fields").isNotNull();
  }

  /**
   * Review of issue 49, item 6: with no DEK registry, no record could be encrypted, and NONE would pass every one
   * over: both encryption rules are refused when prepared, naming the subject and the rule.
   */
  @Test
  void prepare_withoutADekRegistry_isRefused_namingTheSubjectAndRule() {
    for (Rule rule : List.of(rule(0), Targets.rule("ENCRYPT_PAYLOAD", PayloadEncryptionExecutorTest.params(0)))) {
      io.kavro.serde.rules.RuleExecutor executor = rule.type().equals("ENCRYPT") ? configured()
          : new PayloadEncryptionExecutor();
      for (Rule.Mode phase : List.of(Rule.Mode.WRITE, Rule.Mode.READ)) {
        for (io.kavro.registry.SchemaRegistryClient client : java.util.Arrays.asList(
            Targets.clientWithoutDekRegistry(), null)) {
          assertThatThrownBy(() -> executor.prepare(Targets.target(rule, phase, SCHEMA, client)))
              .as("%s, %s, %s", rule.type(), phase, client)
              .isInstanceOf(NoDekRegistryException.class)
              .hasMessageContaining("encryptPII").hasMessageContaining("'" + Targets.SUBJECT + "'")
              .hasMessageContaining("DEK registry")
              .satisfies(e -> assertThat(((NoDekRegistryException) e).ruleName()).isEqualTo("encryptPII"));
        }
      }
    }
  }

  /** Review of issue 49, item 7: tags that select no field (a typo) write everything in clear: warned once. */
  @Test
  void prepare_tagsThatSelectNoField_warnedOncePerRuleAndSubject() {
    Rule typo = Targets.rule("ENCRYPT", Set.of("PIII"), PayloadEncryptionExecutorTest.params(0));
    FieldEncryptionExecutor executor = configured();
    try (io.kavro.registry.LogCapture logs = new io.kavro.registry.LogCapture()) {
      executor.prepare(Targets.target(typo, Rule.Mode.WRITE, SCHEMA, registry));
      executor.prepare(Targets.target(typo, Rule.Mode.READ, SCHEMA, registry));
      executor.prepare(Targets.target(rule(0), Rule.Mode.WRITE, SCHEMA, registry));

      assertThat(logs.lines(org.apache.logging.log4j.Level.WARN)).singleElement().asString()
          .contains("encryptPII").contains("'" + Targets.SUBJECT + "'").contains("PIII").contains("selects no field");
    }
  }

  private PreparedRule prepare(Rule.Mode phase, Schema schema, int expiryDays) {
    return configured().prepare(Targets.target(rule(expiryDays), phase, schema, registry));
  }

  private static Rule rule(int expiryDays) {
    return Targets.rule("ENCRYPT", Set.of("PII"), PayloadEncryptionExecutorTest.params(expiryDays));
  }

  private static FieldEncryptionExecutor configured() {
    FieldEncryptionExecutor executor = new FieldEncryptionExecutor();
    executor.configure(Map.of("secret", SECRET));
    return executor;
  }

  /** The DEK's raw key, recovered independently of the code under test (HKDF of the secret, then the JDK's GCM). */
  private byte[] dekKey() throws Exception {
    Dek dek = registry.deks.get("kek1/" + Targets.SUBJECT + "/AES256_GCM/1");
    byte[] kek = LocalKmsDriverTest.hkdfSha256(SECRET.getBytes(StandardCharsets.UTF_8), new byte[32], new byte[0], 16);
    byte[] material = PayloadEncryptionExecutorTest.gcmDecrypt(kek,
        Base64.getDecoder().decode(dek.encryptedKeyMaterial()));
    return Arrays.copyOfRange(material, 2, material.length);
  }

  private static GenericRecord user(String ssn, Object id) {
    GenericData.Record address = new GenericData.Record(SCHEMA.getField("address").schema());
    address.put("street", new Utf8("Main St 1"));
    address.put("zip", 12345);
    GenericData.Record user = new GenericData.Record(SCHEMA);
    user.put("name", new Utf8("Ann"));
    user.put("ssn", new Utf8(ssn));
    user.put("photo", ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
    user.put("nickname", "annie");
    user.put("id", id);
    user.put("address", address);
    return user;
  }

  private static byte[] bytes(Object value) {
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }
}
