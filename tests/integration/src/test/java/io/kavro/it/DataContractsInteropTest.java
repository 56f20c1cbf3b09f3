package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.DataContractLayer;
import io.kavro.testkit.JsPeer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Kavro and Confluent's JavaScript client ({@code @confluentinc/schemaregistry} 1.10.1, tests/js-peer) on one
 * registry: the stack's Apicurio behind {@link DataContractLayer} (Confluent's contract and DEK APIs). Each
 * writes, the other reads, byte for byte: field encryption (AES256_GCM, deterministic AES256_SIV, rotation's
 * version prefix), payload encryption, CEL and CEL_FIELD rules, and JSONata migrations between two majors.
 */
@ExtendWith(KavroStackExtension.class)
class DataContractsInteropTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET = "interop-secret-7f3a";
  private static final String SECRET_KEY = "rule.executors._default_.param.secret";

  private static final String CUSTOMER = """
      {"type":"record","name":"Customer","namespace":"io.kavro.interop","fields":[
       {"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]},
       {"name":"photo","type":"bytes","confluent:tags":["PII"]},
       {"name":"address","type":{"type":"record","name":"Address","fields":[
         {"name":"street","type":"string","confluent:tags":["PII"]},{"name":"zip","type":"string"}]}}]}""";
  private static final Schema CUSTOMER_SCHEMA = new Schema.Parser().parse(CUSTOMER);
  private static final String CUSTOMER_JSON = "{\"name\":\"alice\",\"ssn\":\"123-45-6789\",\"photo\":{\"$bytes\":"
      + "\"AQID\"},\"address\":{\"street\":\"1 Main St\",\"zip\":\"12345\"}}";

  private final TestStack stack;
  private JsPeer peer;
  private DataContractLayer layer;
  private String topic;

  DataContractsInteropTest(TestStack stack) {
    this.stack = stack;
  }

  @BeforeEach
  void start() throws IOException {
    peer = JsPeer.require();
    layer = DataContractLayer.start(stack.registryUrl());
    topic = "interop-" + Long.toString(System.nanoTime(), 36);
  }

  @AfterEach
  void stop() {
    if (layer != null) {
      layer.close();
    }
  }

  // ---------------------------------------------------------------------------------------------- helpers

  private String subject() {
    return topic + "-value";
  }

  /** Confluent's JS client registers {@code schema} with the contract parts given (JSON text, or null). */
  private int jsRegister(String schema, String metadata, String ruleSet) throws Exception {
    ObjectNode body = JSON.createObjectNode().put("schema", schema);
    if (metadata != null) {
      body.set("metadata", JSON.readTree(metadata));
    }
    if (ruleSet != null) {
      body.set("ruleSet", JSON.readTree(ruleSet));
    }
    return Integer.parseInt(peer.run("register", layer.url(), subject(), JSON.writeValueAsString(body)).line());
  }

  private byte[] jsSerialize(String recordJson, String... options) throws Exception {
    return Base64.getDecoder().decode(peer.run(args("serialize", recordJson, options)).line());
  }

  private JsPeer.Run jsDeserialize(byte[] bytes, String... options) throws Exception {
    return peer.run(args("deserialize", Base64.getEncoder().encodeToString(bytes), options));
  }

  private String[] args(String command, String payload, String... options) {
    String[] args = new String[4 + options.length];
    args[0] = command;
    args[1] = layer.url();
    args[2] = topic;
    args[3] = payload;
    System.arraycopy(options, 0, args, 4, options.length);
    return args;
  }

  private Map<String, Object> kavroConfig(Object... extra) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", layer.url(),
        "auto.register.schemas", false, SECRET_KEY, SECRET));
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    return config;
  }

  private byte[] kavroSerialize(Object record, Object... extra) {
    Map<String, Object> config = kavroConfig(extra);
    if (!config.containsKey("use.latest.with.metadata")) {
      config.put("use.latest.version", true);
    }
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config, false);
      return serializer.serialize(topic, record);
    }
  }

  private GenericRecord kavroDeserialize(byte[] bytes, Object... extra) {
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(kavroConfig(extra), false);
      return (GenericRecord) deserializer.deserialize(topic, bytes);
    }
  }

  private static GenericRecord customer() {
    GenericRecord address = new GenericData.Record(CUSTOMER_SCHEMA.getField("address").schema());
    address.put("street", "1 Main St");
    address.put("zip", "12345");
    GenericRecord customer = new GenericData.Record(CUSTOMER_SCHEMA);
    customer.put("name", "alice");
    customer.put("ssn", "123-45-6789");
    customer.put("photo", ByteBuffer.wrap(new byte[] {1, 2, 3}));
    customer.put("address", address);
    return customer;
  }

  private static void assertPlainCustomer(GenericRecord read) {
    assertThat(read.get("name").toString()).isEqualTo("alice");
    assertThat(read.get("ssn").toString()).isEqualTo("123-45-6789");
    assertThat(bytes(read.get("photo"))).containsExactly(1, 2, 3);
    GenericRecord address = (GenericRecord) read.get("address");
    assertThat(address.get("street").toString()).isEqualTo("1 Main St");
    assertThat(address.get("zip").toString()).isEqualTo("12345");
  }

  private static byte[] bytes(Object value) {
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] out = new byte[buffer.remaining()];
    buffer.get(out);
    return out;
  }

  private static boolean contains(byte[] haystack, String needle) {
    return new String(haystack, StandardCharsets.ISO_8859_1).contains(needle);
  }

  /** The three encrypted fields as the wire holds them (read with rules.ignore): ssn, photo, street. */
  private byte[][] ciphertexts(byte[] written) {
    GenericRecord raw = kavroDeserialize(written, "rules.ignore", true);
    return new byte[][] {Base64.getDecoder().decode(raw.get("ssn").toString()), bytes(raw.get("photo")),
        Base64.getDecoder().decode(((GenericRecord) raw.get("address")).get("street").toString())};
  }

  private static String encryptRules(String extraParams) {
    return """
        {"domainRules":[{"name":"encryptPii","kind":"TRANSFORM","mode":"WRITEREAD","type":"ENCRYPT","tags":["PII"],
          "params":{"encrypt.kek.name":"interop-kek","encrypt.kms.type":"local-kms","encrypt.kms.key.id":"k1"%s},
          "onFailure":"ERROR,NONE"}]}""".formatted(extraParams);
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create(layer.url() + path)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET " + path + ": " + response.body()).isEqualTo(200);
    return response.body();
  }

  private void assertNoPlaintext(byte[] written) {
    assertThat(written[0]).as("magic byte").isZero();
    assertThat(contains(written, "alice")).as("the untagged name stays plain").isTrue();
    assertThat(contains(written, "12345")).as("the untagged zip stays plain").isTrue();
    assertThat(contains(written, "123-45-6789")).as("ssn is ciphertext").isFalse();
    assertThat(contains(written, "1 Main St")).as("the nested street is ciphertext").isFalse();
  }

  // ---------------------------------------------------------------------------------------------- ENCRYPT

  @Test
  void encrypt_aes256Gcm_jsWritesKavroReads_kavroWritesJsReads() throws Exception {
    jsRegister(CUSTOMER, null, encryptRules(""));

    byte[] fromJs = jsSerialize(CUSTOMER_JSON, "--secret", SECRET);
    assertNoPlaintext(fromJs);
    assertPlainCustomer(kavroDeserialize(fromJs));

    byte[] fromKavro = kavroSerialize(customer());
    assertNoPlaintext(fromKavro);
    assertThat(jsDeserialize(fromKavro, "--secret", SECRET).line()).isEqualTo(CUSTOMER_JSON);

    byte[][] js = ciphertexts(fromJs);
    byte[][] kavro = ciphertexts(fromKavro);
    for (byte[][] side : new byte[][][] {js, kavro}) {
      assertThat(side[0]).as("ssn: nonce 12 + 11 + tag 16, no Tink prefix, no version prefix").hasSize(39);
      assertThat(side[1]).as("photo: nonce 12 + 3 + tag 16").hasSize(31);
      assertThat(side[2]).as("street: nonce 12 + 9 + tag 16").hasSize(37);
    }
    assertThat(js[0]).as("GCM: a fresh nonce each time").isNotEqualTo(kavro[0]);
    assertThat(get("/dek-registry/v1/keks/interop-kek/deks/" + subject() + "/versions"))
        .as("Kavro wrote with the DEK the JS client made").isEqualTo("[1]");
  }

  @Test
  void encrypt_aes256Siv_kavroWritesFirst_bothSidesWriteTheSameBytes() throws Exception {
    jsRegister(CUSTOMER, null, encryptRules(",\"encrypt.dek.algorithm\":\"AES256_SIV\""));

    byte[] fromKavro = kavroSerialize(customer());
    assertNoPlaintext(fromKavro);
    assertThat(jsDeserialize(fromKavro, "--secret", SECRET).line()).isEqualTo(CUSTOMER_JSON);

    byte[] fromJs = jsSerialize(CUSTOMER_JSON, "--secret", SECRET);
    assertPlainCustomer(kavroDeserialize(fromJs));

    byte[][] js = ciphertexts(fromJs);
    byte[][] kavro = ciphertexts(fromKavro);
    assertThat(kavro[0]).as("ssn: synthetic IV 16 + 11").hasSize(27);
    assertThat(kavro[1]).as("photo: synthetic IV 16 + 3").hasSize(19);
    for (int i = 0; i < 3; i++) {
      assertThat(kavro[i]).as("the same value, the same DEK: the same ciphertext (field " + i + ")")
          .isEqualTo(js[i]);
    }
    assertThat(fromKavro).as("so the whole record is the same bytes").isEqualTo(fromJs);
    assertThat(get("/dek-registry/v1/keks/interop-kek/deks/" + subject() + "/versions?algorithm=AES256_SIV"))
        .as("the JS client wrote with the DEK Kavro made").isEqualTo("[1]");
  }

  @Test
  void encrypt_withDekExpiry_bothSidesPrefixTheDekVersion() throws Exception {
    jsRegister(CUSTOMER, null, encryptRules(",\"encrypt.dek.expiry.days\":\"1\""));

    byte[] fromJs = jsSerialize(CUSTOMER_JSON, "--secret", SECRET);
    assertPlainCustomer(kavroDeserialize(fromJs));
    byte[] fromKavro = kavroSerialize(customer());
    assertThat(jsDeserialize(fromKavro, "--secret", SECRET).line()).isEqualTo(CUSTOMER_JSON);
    assertNoPlaintext(fromKavro);

    for (byte[][] side : new byte[][][] {ciphertexts(fromJs), ciphertexts(fromKavro)}) {
      for (byte[] ciphertext : side) {
        assertThat(Arrays.copyOf(ciphertext, 5)).as("0x00 + DEK version 1").containsExactly(0, 0, 0, 0, 1);
      }
      assertThat(side[0]).as("ssn: prefix 5 + nonce 12 + 11 + tag 16").hasSize(44);
    }
  }

  // ---------------------------------------------------------------------------------------------- ENCRYPT_PAYLOAD

  @Test
  void encryptPayload_bothWays_theWholeBodyIsCiphertextInsideTheFraming() throws Exception {
    int id = jsRegister(CUSTOMER, null, """
        {"encodingRules":[{"name":"encryptBody","kind":"TRANSFORM","mode":"WRITEREAD","type":"ENCRYPT_PAYLOAD",
          "params":{"encrypt.kek.name":"interop-kek","encrypt.kms.type":"local-kms","encrypt.kms.key.id":"k1"}}]}""");
    int body = 1 + 5 + 1 + 11 + 1 + 3 + 1 + 9 + 1 + 5; // the Avro body of the customer: lengths and bytes

    byte[] fromKavro = kavroSerialize(customer());
    byte[] fromJs = jsSerialize(CUSTOMER_JSON, "--secret", SECRET);

    for (byte[] written : new byte[][] {fromKavro, fromJs}) {
      assertThat(written[0]).isZero();
      assertThat(ByteBuffer.wrap(written, 1, 4).getInt()).as("the schema id stays outside").isEqualTo(id);
      assertThat(written).as("framing 5 + nonce 12 + body + tag 16").hasSize(5 + 12 + body + 16);
      assertThat(contains(written, "alice")).isFalse();
      assertThat(contains(written, "12345")).isFalse();
    }
    assertThat(jsDeserialize(fromKavro, "--secret", SECRET).line()).isEqualTo(CUSTOMER_JSON);
    assertPlainCustomer(kavroDeserialize(fromJs));
  }

  // ---------------------------------------------------------------------------------------------- CEL

  private static final String PERSON = """
      {"type":"record","name":"Person","namespace":"io.kavro.interop","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string","confluent:tags":["PII"]},{"name":"age","type":"int"}]}""";

  private static GenericRecord person(String name, String ssn, int age) {
    GenericRecord person = new GenericData.Record(new Schema.Parser().parse(PERSON));
    person.put("name", name);
    person.put("ssn", ssn);
    person.put("age", age);
    return person;
  }

  @Test
  void cel_writeConditionAndCelFieldTransform_sameOnBothSides_readConditionFailsOnlyInKavro() throws Exception {
    jsRegister(PERSON, null, """
        {"domainRules":[
          {"name":"checkAge","kind":"CONDITION","mode":"WRITE","type":"CEL","expr":"message.age >= 18"},
          {"name":"maskSsn","kind":"TRANSFORM","mode":"WRITE","type":"CEL_FIELD","tags":["PII"],
           "expr":"typeName == 'STRING' ; 'XXX-' + value.substring(7)"},
          {"name":"notBlocked","kind":"CONDITION","mode":"READ","type":"CEL","expr":"message.name != 'mallory'"}]}""");

    byte[] fromJs = jsSerialize("{\"name\":\"ann\",\"ssn\":\"123-45-6789\",\"age\":30}");
    byte[] fromKavro = kavroSerialize(person("ann", "123-45-6789", 30));
    assertThat(fromKavro).as("the CEL_FIELD transform wrote the same value").isEqualTo(fromJs);
    assertThat(contains(fromJs, "XXX-6789")).isTrue();
    assertThat(kavroDeserialize(fromJs).get("ssn").toString()).isEqualTo("XXX-6789");
    assertThat(jsDeserialize(fromKavro).line()).isEqualTo("{\"name\":\"ann\",\"ssn\":\"XXX-6789\",\"age\":30}");

    JsPeer.Run refused = peer.run(args("serialize", "{\"name\":\"kim\",\"ssn\":\"1\",\"age\":12}"));
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
    assertThat(refused.stderr().strip())
        .isEqualTo("error: SerializationError: rule checkAge failed: Expr failed: 'message.age >= 18'");
    assertThatThrownBy(() -> kavroSerialize(person("kim", "123-45-6789", 12)))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: checkAge")
        .hasMessageContaining("Expr failed: 'message.age >= 18'");

    byte[] blockedJs = jsSerialize("{\"name\":\"mallory\",\"ssn\":\"123-45-6789\",\"age\":40}");
    byte[] blockedKavro = kavroSerialize(person("mallory", "123-45-6789", 40));
    assertThat(blockedKavro).isEqualTo(blockedJs);
    // The JS client 1.10.1 does not fail here: its CEL (@bufbuild/cel) cannot take the record avsc decoded (a
    // class instance: "Unsupported input"), and it hands back that error as the condition's value, which is not
    // false, so the condition passes. Confluent's Java client and Kavro fail the record. Pinned, to see a change.
    assertThat(jsDeserialize(blockedKavro).line()).isEqualTo("{\"name\":\"mallory\",\"ssn\":\"XXX-6789\",\"age\":40}");
    assertThatThrownBy(() -> kavroDeserialize(blockedJs))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: notBlocked")
        .hasMessageContaining("Expr failed: 'message.name != 'mallory''");
  }

  /**
   * A CEL transform of the whole message, behind a guard. Where the guard is false both sides write the record
   * untouched, the same bytes. Where it holds, Kavro writes the map the expression gives as the record; the JS
   * client 1.10.1 cannot: its CEL (@bufbuild/cel) hands back a CEL map that its Avro encoder (avsc) refuses, so
   * it fails the record. Pinned here so that a JS client that changes this shows up.
   */
  @Test
  void cel_messageTransform_guardedOff_sameBytes_guardedOn_kavroWritesTheMap() throws Exception {
    jsRegister(PERSON, null, """
        {"domainRules":[{"name":"upperName","kind":"TRANSFORM","mode":"WRITE","type":"CEL",
          "expr":"message.age >= 18 ; {'name': message.name.upperAscii(), 'ssn': message.ssn, 'age': message.age}"}]}""");

    byte[] minorJs = jsSerialize("{\"name\":\"kim\",\"ssn\":\"1\",\"age\":12}");
    byte[] minorKavro = kavroSerialize(person("kim", "1", 12));
    assertThat(minorKavro).as("guard false: untouched on both sides").isEqualTo(minorJs);
    assertThat(jsDeserialize(minorKavro).line()).isEqualTo("{\"name\":\"kim\",\"ssn\":\"1\",\"age\":12}");

    byte[] adultKavro = kavroSerialize(person("ann", "1", 30));
    assertThat(jsDeserialize(adultKavro).line()).isEqualTo("{\"name\":\"ANN\",\"ssn\":\"1\",\"age\":30}");
    JsPeer.Run js = peer.run(args("serialize", "{\"name\":\"ann\",\"ssn\":\"1\",\"age\":30}"));
    assertThat(js.exitCode()).as(js.toString()).isEqualTo(1);
    assertThat(js.stderr().strip())
        .isEqualTo("error: SerializationError: Invalid message at name, expected \"string\", got undefined");
  }

  // ---------------------------------------------------------------------------------------------- JSONata

  private static final String V1 = """
      {"type":"record","name":"Customer","namespace":"io.kavro.interop","fields":[{"name":"name","type":"string"},
       {"name":"ssn","type":"string"}]}""";
  private static final String V2 = """
      {"type":"record","name":"Customer","namespace":"io.kavro.interop","fields":[{"name":"name","type":"string"},
       {"name":"socialSecurityNumber","type":"string"}]}""";

  private static GenericRecord customer(String schema, String name, String ssnField, String ssn) {
    GenericRecord record = new GenericData.Record(new Schema.Parser().parse(schema));
    record.put("name", name);
    record.put(ssnField, ssn);
    return record;
  }

  @Test
  void jsonata_twoMajors_eachSideReadsTheOthersRecordsAsItsOwnMajor() throws Exception {
    // Texts as written, not as Avro prints them: Apicurio matches a lookup on the exact text, so Kavro finds the
    // writer's version by comparing the parsed schemas of the subject's versions.
    jsRegister(V1, "{\"properties\":{\"major_version\":\"1\"}}", null);
    HttpResponse<String> none = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(layer.url()
        + "/config/" + subject())).header("Content-Type", "application/vnd.schemaregistry.v1+json")
        .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"NONE\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(none.statusCode()).as(none.body()).isEqualTo(200);
    jsRegister(V2, "{\"properties\":{\"major_version\":\"2\"}}", """
        {"migrationRules":[
          {"name":"up","kind":"TRANSFORM","mode":"UPGRADE","type":"JSONATA",
           "expr":"$merge([$sift($, function($v, $k) {$k != 'ssn'}), {'socialSecurityNumber': $.'ssn'}])"},
          {"name":"down","kind":"TRANSFORM","mode":"DOWNGRADE","type":"JSONATA",
           "expr":"$merge([$sift($, function($v, $k) {$k != 'socialSecurityNumber'}), {'ssn': $.'socialSecurityNumber'}])"}]}""");
    String[] major1 = {"--use-latest-with-metadata", "major_version=1"};
    String[] major2 = {"--use-latest-with-metadata", "major_version=2"};

    byte[] jsV1 = jsSerialize("{\"name\":\"ann\",\"ssn\":\"111\"}", major1);
    byte[] jsV2 = jsSerialize("{\"name\":\"bob\",\"socialSecurityNumber\":\"222\"}", major2);
    byte[] kavroV1 = kavroSerialize(customer(V1, "cy", "ssn", "333"), "use.latest.with.metadata", "major_version=1");
    byte[] kavroV2 = kavroSerialize(customer(V2, "di", "socialSecurityNumber", "444"),
        "use.latest.with.metadata", "major_version=2");
    assertThat(kavroSerialize(customer(V1, "ann", "ssn", "111"), "use.latest.with.metadata", "major_version=1"))
        .as("both write a major-1 record alike").isEqualTo(jsV1);

    GenericRecord upgraded = kavroDeserialize(jsV1, "use.latest.with.metadata", "major_version=2");
    assertThat(upgraded.getSchema().getField("socialSecurityNumber")).isNotNull();
    assertThat(upgraded.get("socialSecurityNumber").toString()).isEqualTo("111");
    GenericRecord downgraded = kavroDeserialize(jsV2, "use.latest.with.metadata", "major_version=1");
    assertThat(downgraded.getSchema().getField("ssn")).isNotNull();
    assertThat(downgraded.get("ssn").toString()).isEqualTo("222");
    assertThat(jsDeserialize(kavroV2, major1).line()).isEqualTo("{\"name\":\"di\",\"ssn\":\"444\"}");
    assertThat(jsDeserialize(kavroV1, major2).line()).isEqualTo("{\"name\":\"cy\",\"socialSecurityNumber\":\"333\"}");
  }
}
