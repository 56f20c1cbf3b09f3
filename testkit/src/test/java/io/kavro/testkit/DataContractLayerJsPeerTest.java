package io.kavro.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * DataContractLayer in front of the real Apicurio of the test stack, driven by Confluent's JavaScript client
 * (tests/js-peer): its rule set, its field encryption with the local KMS and its DEK registry calls work
 * against the layer as against Confluent's registry.
 */
@ExtendWith(KavroStackExtension.class)
class DataContractLayerJsPeerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TestStack stack;

  DataContractLayerJsPeerTest(TestStack stack) {
    this.stack = stack;
  }

  private static String registration(String kek) {
    return """
        {"schema":"{\\"type\\":\\"record\\",\\"name\\":\\"User\\",\\"namespace\\":\\"io.kavro.peer\\",\\"fields\\":[\
        {\\"name\\":\\"name\\",\\"type\\":\\"string\\"},\
        {\\"name\\":\\"ssn\\",\\"type\\":\\"string\\",\\"confluent:tags\\":[\\"PII\\"]},\
        {\\"name\\":\\"age\\",\\"type\\":\\"int\\"}]}",
         "ruleSet":{"domainRules":[
          {"name":"checkAge","kind":"CONDITION","mode":"WRITE","type":"CEL","expr":"message.age >= 18"},
          {"name":"encryptPII","kind":"TRANSFORM","mode":"WRITEREAD","type":"ENCRYPT","tags":["PII"],
           "params":{"encrypt.kek.name":"%s","encrypt.kms.type":"local-kms","encrypt.kms.key.id":"mykey"},
           "onFailure":"ERROR,NONE"}]}}""".formatted(kek);
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as("GET " + url + ": " + response.body()).isEqualTo(200);
    return response.body();
  }

  @Test
  void jsClient_encryptsWithTheLayersContractAndKeys_andReadsItBack() throws Exception {
    JsPeer peer = JsPeer.require();
    String suffix = Long.toString(System.nanoTime(), 36);
    String topic = "peer-" + suffix;
    String kek = "kek-" + suffix;
    try (DataContractLayer layer = DataContractLayer.start(stack.registryUrl())) {
      int id = Integer.parseInt(peer.run("register", layer.url(), topic + "-value", registration(kek)).line());

      String written = peer.run("serialize", layer.url(), topic,
          "{\"name\":\"alice\",\"ssn\":\"123-45-6789\",\"age\":30}", "--secret", "mysecret").line();
      byte[] bytes = Base64.getDecoder().decode(written);
      assertThat(bytes[0]).as("magic byte").isZero();
      assertThat(ByteBuffer.wrap(bytes, 1, 4).getInt()).as("schema id").isEqualTo(id);
      String body = new String(bytes, StandardCharsets.ISO_8859_1);
      assertThat(body).contains("alice").doesNotContain("123-45-6789");

      assertThat(peer.run("deserialize", layer.url(), topic, written, "--secret", "mysecret").line())
          .isEqualTo("{\"name\":\"alice\",\"ssn\":\"123-45-6789\",\"age\":30}");
      String withoutKey = peer.run("deserialize", layer.url(), topic, written).line();
      assertThat(withoutKey).as("no secret: the ciphertext passes through (onFailure NONE on read)")
          .startsWith("{\"name\":\"alice\",\"ssn\":\"").doesNotContain("123-45-6789").endsWith("\",\"age\":30}");

      ObjectNode storedKek = (ObjectNode) JSON.readTree(get(layer.url() + "/dek-registry/v1/keks/" + kek));
      assertThat(storedKek.remove("ts").isIntegralNumber()).isTrue();
      assertThat(JSON.writeValueAsString(storedKek)).isEqualTo("{\"name\":\"" + kek + "\",\"kmsType\":\"local-kms\","
          + "\"kmsKeyId\":\"mykey\",\"kmsProps\":{},\"shared\":false,\"deleted\":false}");
      ObjectNode dek = (ObjectNode) JSON.readTree(get(layer.url() + "/dek-registry/v1/keks/" + kek + "/deks/"
          + topic + "-value/versions/latest?algorithm=AES256_GCM"));
      assertThat(dek.remove("ts").isIntegralNumber()).isTrue();
      byte[] material = Base64.getDecoder().decode(dek.remove("encryptedKeyMaterial").asText());
      assertThat(material).as("iv 12 + AesGcmKey proto (1A 20 + 32 key bytes) + tag 16").hasSize(62);
      assertThat(JSON.writeValueAsString(dek)).isEqualTo("{\"kekName\":\"" + kek + "\",\"subject\":\"" + topic
          + "-value\",\"version\":1,\"algorithm\":\"AES256_GCM\",\"deleted\":false}");
      assertThat(get(layer.url() + "/dek-registry/v1/keks/" + kek + "/deks/" + topic + "-value/versions"))
          .isEqualTo("[1]");
    }
  }

  @Test
  void jsClient_refusesARecordFailingTheContractsCondition_namingTheRule() throws Exception {
    JsPeer peer = JsPeer.require();
    String suffix = Long.toString(System.nanoTime(), 36);
    String topic = "peer-" + suffix;
    try (DataContractLayer layer = DataContractLayer.start(stack.registryUrl())) {
      peer.run("register", layer.url(), topic + "-value", registration("kek-" + suffix)).line();

      JsPeer.Run refused = peer.run("serialize", layer.url(), topic,
          "{\"name\":\"bob\",\"ssn\":\"987-65-4321\",\"age\":12}", "--secret", "mysecret");

      assertThat(refused.exitCode()).isEqualTo(1);
      assertThat(refused.stdout()).isEmpty();
      assertThat(refused.stderr().strip())
          .isEqualTo("error: SerializationError: rule checkAge failed: Expr failed: 'message.age >= 18'");
    }
  }
}
