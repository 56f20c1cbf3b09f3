package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.RetriableSerdeException;
import io.kavro.testkit.DataContractLayer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordDeserializationException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Data contracts on the real broker: Kafka's own producers and consumers with Kavro's serde and kavro-rules, the
 * stack's Apicurio behind {@link DataContractLayer} (Confluent's contract and DEK APIs). Encrypted fields never
 * reach the topic in clear; the DLQ action; a reader without the key; and the DEK registry's faults, which are
 * retried and never turned into ciphertext.
 */
@ExtendWith(KavroStackExtension.class)
class DataContractsOnBrokerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SECRET_KEY = "rule.executors._default_.param.secret";
  private static final String SECRET = "broker-secret-91c";
  private static final String PERSON = "{\"type\":\"record\",\"name\":\"Person\",\"namespace\":\"io.kavro.it\","
      + "\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
      + "{\"name\":\"ssn\",\"type\":\"string\",\"confluent:tags\":[\"PII\"]},"
      + "{\"name\":\"photo\",\"type\":\"bytes\",\"confluent:tags\":[\"PII\"]},{\"name\":\"age\",\"type\":\"int\"}]}";
  private static final Schema PERSON_SCHEMA = new Schema.Parser().parse(PERSON);
  private static final String KMS = "\"params\":{\"encrypt.kek.name\":\"broker-kek\",\"encrypt.kms.type\":"
      + "\"local-kms\",\"encrypt.kms.key.id\":\"k1\"}";

  private final TestStack stack;
  private final KafkaFixture kafka;
  private DataContractLayer layer;

  DataContractsOnBrokerTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @BeforeEach
  void start() throws Exception {
    layer = DataContractLayer.start(stack.registryUrl());
  }

  @AfterEach
  void stop() {
    layer.close();
  }

  private static String encryptRule(String onFailure) {
    return "{\"name\":\"encryptPii\",\"kind\":\"TRANSFORM\",\"mode\":\"WRITEREAD\",\"type\":\"ENCRYPT\","
        + "\"tags\":[\"PII\"]," + KMS + (onFailure == null ? "" : ",\"onFailure\":\"" + onFailure + "\"") + "}";
  }

  /**
   * Registers the person schema under the topic's subject, with these domain rules; returns the id. The layer
   * keeps one contract per id, so each test's schema is its own ({@code doc}), unless it asks to share one.
   */
  private int register(String topic, String... domainRules) throws Exception {
    return registerSharing(topic, topic, domainRules);
  }

  private int registerSharing(String topic, String doc, String... domainRules) throws Exception {
    String schema = PERSON.replace("\"namespace\"", "\"doc\":\"" + doc + "\",\"namespace\"");
    ObjectNode body = JSON.createObjectNode().put("schema", schema);
    body.set("ruleSet", JSON.readTree("{\"domainRules\":[" + String.join(",", domainRules) + "]}"));
    HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(layer.url()
            + "/subjects/" + topic + "-value/versions")).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body()).path("id").asInt();
  }

  private static GenericRecord person(String name, String ssn, int age) {
    GenericRecord person = new GenericData.Record(PERSON_SCHEMA);
    person.put("name", name);
    person.put("ssn", ssn);
    person.put("photo", ByteBuffer.wrap("FACE-PIXELS".getBytes(StandardCharsets.US_ASCII)));
    person.put("age", age);
    return person;
  }

  private Map<String, Object> producerConfig(String registryUrl, Object... extra) {
    Map<String, Object> config = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
        "schema.registry.url", registryUrl, "auto.register.schemas", false, "use.latest.version", true,
        SECRET_KEY, SECRET);
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    return config;
  }

  private Map<String, Object> consumerConfig(String registryUrl, String secret, Object... extra) {
    Map<String, Object> config = kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class,
        "schema.registry.url", registryUrl, SECRET_KEY, secret, "max.retries", 0);
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    return config;
  }

  private static boolean contains(byte[] haystack, String needle) {
    return new String(haystack, StandardCharsets.ISO_8859_1).contains(needle);
  }

  private static String text(Header header) {
    return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  /** Polls until the consumer throws, and returns what it threw (fails when it reads a record instead). */
  private static Throwable pollFailure(KafkaConsumer<String, Object> consumer) {
    long deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        List<ConsumerRecord<String, Object>> read = new java.util.ArrayList<>();
        consumer.poll(Duration.ofMillis(200)).forEach(read::add);
        assertThat(read).as("no record may be handed over").isEmpty();
      } catch (RuntimeException e) {
        return e;
      }
    }
    throw new AssertionError("the consumer neither failed nor read within " + KafkaFixture.TIMEOUT);
  }

  @Test
  void encryptedFields_roundTripOnTheBroker_theTopicHoldsNoPlaintext() throws Exception {
    String topic = kafka.topic("contract-encrypt");
    register(topic, encryptRule(null));

    kafka.produce(producerConfig(layer.url()), List.of(new ProducerRecord<>(topic, "p1",
        person("ann", "123-45-6789", 30))));

    List<ConsumerRecord<byte[], byte[]>> raw = kafka.consume(kafka.consumerConfig(ByteArrayDeserializer.class,
        ByteArrayDeserializer.class), topic, 1);
    byte[] stored = raw.get(0).value();
    assertThat(contains(stored, "ann")).as("an untagged field stays plain").isTrue();
    assertThat(contains(stored, "123-45-6789")).as("ssn in clear").isFalse();
    assertThat(contains(stored, "FACE-PIXELS")).as("photo in clear").isFalse();

    List<ConsumerRecord<String, GenericRecord>> read = kafka.consume(consumerConfig(layer.url(), SECRET), topic, 1);
    GenericRecord person = read.get(0).value();
    assertThat(person.get("ssn").toString()).isEqualTo("123-45-6789");
    assertThat(StandardCharsets.US_ASCII.decode((ByteBuffer) person.get("photo")).toString())
        .isEqualTo("FACE-PIXELS");
    assertThat(person.get("age")).isEqualTo(30);
  }

  @Test
  void dlqAction_theSendFails_andTheDeadLetterTopicHoldsTheRecordRedacted() throws Exception {
    String topic = kafka.topic("contract-dlq");
    String dlq = kafka.topic("contract-dlq-dead");
    register(topic, encryptRule(null), "{\"name\":\"checkAge\",\"kind\":\"CONDITION\",\"mode\":\"WRITE\","
        + "\"type\":\"CEL\",\"expr\":\"message.age >= 18\",\"onFailure\":\"DLQ\"}");

    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(producerConfig(layer.url(),
        "dlq.topic", dlq, "dlq.auto.flush", true))) {
      RecordHeaders headers = new RecordHeaders();
      headers.add("trace", "t-42".getBytes(StandardCharsets.UTF_8));
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, null, "k1", person("kim", "987-65-4321",
          12), headers))).isInstanceOf(SerializationException.class).hasMessageContaining("Rule failed: checkAge");
      producer.send(new ProducerRecord<>(topic, "k2", person("ann", "123-45-6789", 30))).get();
    }

    ConsumerRecord<byte[], byte[]> dead = kafka.<byte[], byte[]>consume(kafka.consumerConfig(
        ByteArrayDeserializer.class, ByteArrayDeserializer.class), dlq, 1).get(0);
    assertThat(new String(dead.value(), StandardCharsets.UTF_8))
        .isEqualTo("{\"name\":\"kim\",\"ssn\":\"<REDACTED>\",\"photo\":\"<REDACTED>\",\"age\":12}");
    assertThat(text(dead.headers().lastHeader("trace"))).isEqualTo("t-42");
    assertThat(text(dead.headers().lastHeader("__rule.name"))).isEqualTo("checkAge");
    assertThat(text(dead.headers().lastHeader("__rule.mode"))).isEqualTo("WRITE");
    assertThat(text(dead.headers().lastHeader("__rule.subject"))).isEqualTo(topic + "-value");
    assertThat(text(dead.headers().lastHeader("__rule.topic"))).isEqualTo(topic);
    assertThat(text(dead.headers().lastHeader("__rule.exception"))).isEqualTo("Expr failed: 'message.age >= 18'");

    List<ConsumerRecord<String, GenericRecord>> kept = kafka.consume(consumerConfig(layer.url(), SECRET), topic, 1);
    assertThat(kept.get(0).key()).as("only the passing record reached the topic").isEqualTo("k2");
    try (KafkaConsumer<byte[], byte[]> check = new KafkaConsumer<>(kafka.consumerConfig(ByteArrayDeserializer.class,
        ByteArrayDeserializer.class))) {
      TopicPartition partition = new TopicPartition(topic, 0);
      assertThat(check.endOffsets(List.of(partition))).containsEntry(partition, 1L);
    }
  }

  @Test
  void wrongSecret_failsNamingTheRule_orWithErrorNoneReadsCiphertext() throws Exception {
    String strict = kafka.topic("contract-strict");
    String lenient = kafka.topic("contract-lenient");
    register(strict, encryptRule("ERROR"));
    register(lenient, encryptRule("ERROR,NONE"));
    kafka.produce(producerConfig(layer.url()), List.of(new ProducerRecord<>(strict, "p", person("ann",
        "123-45-6789", 30)), new ProducerRecord<>(lenient, "p", person("ann", "123-45-6789", 30))));

    try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(consumerConfig(layer.url(), "not-the-secret"))) {
      consumer.subscribe(List.of(strict));
      assertThat(pollFailure(consumer)).isInstanceOf(RecordDeserializationException.class)
          .hasMessageContaining("offset 0").cause().isInstanceOf(SerializationException.class)
          .isNotInstanceOf(RetriableException.class)
          .hasMessageContaining("Rule failed: encryptPii").hasMessageNotContaining("not-the-secret");
    }

    GenericRecord passed = kafka.<String, GenericRecord>consume(consumerConfig(layer.url(), "not-the-secret"),
        lenient, 1).get(0).value();
    assertThat(passed.get("name").toString()).isEqualTo("ann");
    byte[] ssn = Base64.getDecoder().decode(passed.get("ssn").toString());
    assertThat(ssn).as("the ciphertext: nonce 12 + 11 + tag 16").hasSize(39);
    assertThat(((ByteBuffer) passed.get("photo")).remaining()).as("nonce 12 + 11 + tag 16").isEqualTo(39);
  }

  @Test
  void dekRegistryFaults_aColdReaderFailsRetriably_neverReadsCiphertext() throws Exception {
    String topic = kafka.topic("contract-dek-faults");
    register(topic, encryptRule("ERROR,NONE"));
    kafka.produce(producerConfig(layer.url()), List.of(new ProducerRecord<>(topic, "p", person("ann",
        "123-45-6789", 30))));

    try (CountingRegistryProxy proxy = new CountingRegistryProxy(layer.url())) {
      for (int status : new int[] {503, 500, 0}) {
        proxy.failPaths("/dek-registry/", status);
        try (KafkaConsumer<String, Object> cold = new KafkaConsumer<>(consumerConfig(proxy.url(), SECRET))) {
          cold.subscribe(List.of(topic));
          Throwable failure = pollFailure(cold);
          assertThat(failure).as("DEK registry answering " + (status == 0 ? "nothing" : status))
              .isInstanceOf(RecordDeserializationException.class)
              .cause().isInstanceOf(RetriableSerdeException.class).isInstanceOf(RetriableException.class)
              .hasMessageContaining("dek-registry");
        }
      }
      proxy.failPaths(null, 0);
      List<ConsumerRecord<String, GenericRecord>> read = kafka.consume(consumerConfig(proxy.url(), SECRET), topic, 1);
      assertThat(read.get(0).value().get("ssn").toString()).as("once the DEK registry answers").isEqualTo(
          "123-45-6789");
    }
  }

  @Test
  void layerStoppedMidStream_theNextSubjectsKeyIsRetried_neverCiphertext() throws Exception {
    String first = kafka.topic("contract-stream-a");
    String second = kafka.topic("contract-stream-b");
    int id = registerSharing(first, "shared", encryptRule("ERROR,NONE"));
    assertThat(registerSharing(second, "shared", encryptRule("ERROR,NONE"))).as("one schema, one id for both subjects")
        .isEqualTo(id);
    kafka.produce(producerConfig(layer.url()), List.of(new ProducerRecord<>(first, "a", person("ann", "111-11-1111",
        30)), new ProducerRecord<>(second, "b", person("bob", "222-22-2222", 40))));

    try (FaultyProxy proxy = FaultyProxy.in(layer.url());
        KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(consumerConfig(proxy.via(layer.url()),
            SECRET))) {
      consumer.subscribe(List.of(first));
      List<ConsumerRecord<String, Object>> warm = new java.util.ArrayList<>();
      long deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
      while (warm.isEmpty() && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(warm::add);
      }
      assertThat(((GenericRecord) warm.get(0).value()).get("ssn").toString()).isEqualTo("111-11-1111");

      proxy.mode(FaultyProxy.Mode.REFUSE);
      consumer.subscribe(List.of(second)); // the schema is known; the second subject's DEK is not
      assertThat(pollFailure(consumer)).isInstanceOf(RecordDeserializationException.class)
          .cause().isInstanceOf(RetriableSerdeException.class);

      proxy.mode(FaultyProxy.Mode.PASS);
      consumer.seek(new TopicPartition(second, 0), 0);
      List<ConsumerRecord<String, Object>> after = new java.util.ArrayList<>();
      deadline = System.nanoTime() + KafkaFixture.TIMEOUT.toNanos();
      while (after.isEmpty() && System.nanoTime() < deadline) {
        consumer.poll(Duration.ofMillis(200)).forEach(after::add);
      }
      assertThat(((GenericRecord) after.get(0).value()).get("ssn").toString()).isEqualTo("222-22-2222");
    }
  }
}
