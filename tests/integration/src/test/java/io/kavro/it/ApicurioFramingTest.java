package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.apicurio.registry.serde.avro.AvroKafkaSerializer;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.EmbeddedRegistry;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Records written by Apicurio's own serde (2.6.13), in each of its framings, and by Kavro, on the real broker and
 * the stack's Apicurio Registry, read by Kavro's deserializer: ids in Apicurio's headers by name, its 4-byte content
 * id prefix ({@code as-confluent} with {@code use-id=contentId}) as Confluent's id (Apicurio's Confluent-compatible
 * ids are its content ids), and its global id prefixes (8 bytes, and 4 with {@code as-confluent} alone) and 4-byte
 * content id prefix as configured, through Apicurio's own API.
 */
@ExtendWith(KavroStackExtension.class)
class ApicurioFramingTest {
  private static final Schema PAYMENT = new Schema.Parser().parse("""
      {"type":"record","name":"Payment","namespace":"com.acme.it","fields":[
        {"name":"id","type":"string"},
        {"name":"amount","type":"double"},
        {"name":"tags","type":{"type":"array","items":"string"}},
        {"name":"note","type":["null","string"],"default":null}]}""");

  private final TestStack stack;
  private final KafkaFixture kafka;

  ApicurioFramingTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  private static GenericRecord payment(int n) {
    GenericRecord payment = new GenericData.Record(PAYMENT);
    payment.put("id", "p-" + n);
    payment.put("amount", n * 1.5);
    payment.put("tags", List.of("t" + n, "all"));
    payment.put("note", n % 2 == 0 ? null : "odd " + n);
    return payment;
  }

  /** Apicurio's own API, beside the Confluent-compatible one the stack gives. */
  private String apicurioUrl() {
    return stack.registryUrl().replaceFirst("/apis/ccompat/v[0-9]+/?$", "/apis/registry/v2");
  }

  /** Writes {@code numbers} through Apicurio's serde with these settings, keyed by {@code key} and the number. */
  private void produceWithApicurio(String topic, String key, List<Integer> numbers, Object... settings) {
    List<Object> config = new ArrayList<>(List.of("apicurio.registry.url", apicurioUrl(),
        "apicurio.registry.auto-register", true));
    config.addAll(List.of(settings));
    List<ProducerRecord<String, Object>> records = new ArrayList<>();
    numbers.forEach(n -> records.add(new ProducerRecord<>(topic, key + n, payment(n))));
    kafka.produce(kafka.producerConfig(StringSerializer.class, AvroKafkaSerializer.class, config.toArray()), records);
  }

  private void produceWithKavro(String topic, List<Integer> numbers) {
    List<ProducerRecord<String, Object>> records = new ArrayList<>();
    numbers.forEach(n -> records.add(new ProducerRecord<>(topic, "kavro-" + n, payment(n))));
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class), records);
  }

  private static void assertReadsAll(List<ConsumerRecord<String, Object>> read, int count) {
    assertThat(read).hasSize(count);
    for (ConsumerRecord<String, Object> record : read) {
      int n = Integer.parseInt(record.key().replaceAll("[^0-9]", ""));
      assertThat(record.value()).as(record.key()).hasToString(payment(n).toString());
    }
  }

  /** Apicurio 2's default (ids in headers, global ids), its content id header, its Confluent-like prefix, and Kavro. */
  @Test
  void oneTopic_apicurioHeadersAndPrefix_andKavro_defaultConsumer() {
    String topic = kafka.topic("apicurio-mixed");
    produceWithApicurio(topic, "global-header-", List.of(1, 2));
    produceWithApicurio(topic, "content-header-", List.of(3, 4), "apicurio.registry.use-id", "contentId");
    produceWithApicurio(topic, "content-prefix-", List.of(5, 6), "apicurio.registry.headers.enabled", false,
        "apicurio.registry.as-confluent", true, "apicurio.registry.use-id", "contentId");
    produceWithKavro(topic, List.of(7, 8));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class), topic, 8);

    assertReadsAll(read, 8);
    assertThat(headerNames(read.get(0))).contains("apicurio.value.globalId");
    assertThat(headerNames(read.get(2))).contains("apicurio.value.contentId");
    assertThat(headerNames(read.get(4))).doesNotContain("apicurio.value.globalId", "apicurio.value.contentId");
  }

  /**
   * Apicurio 2's {@code as-confluent=true} alone writes 4-byte <em>global</em> ids (2.x's {@code use-id} defaults to
   * the global id), read with {@code apicurio-global-id-4}; with {@code use-id=contentId} it writes content ids,
   * Apicurio's Confluent-compatible ids, read with the defaults. Global ids are first made to run ahead of content
   * ids (one schema text under two subjects), so that a content id read as a global id, or the reverse, finds the
   * wrong schema or none, and fails here.
   */
  @Test
  void asConfluent_globalIdsByDefault_contentIdsWithUseId() {
    String global4 = kafka.topic("apicurio-as-confluent");
    String content4 = kafka.topic("apicurio-as-confluent-content");
    Schema filler = new Schema.Parser().parse("""
        {"type":"record","name":"Filler","namespace":"com.acme.it","fields":[{"name":"x","type":"int"}]}""");
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url",
        stack.registryUrl()))) {
      registry.register(global4 + "-filler-a", filler);
      registry.register(global4 + "-filler-b", filler);
    }
    produceWithApicurio(global4, "as-confluent-global-", List.of(1, 2), "apicurio.registry.headers.enabled", false,
        "apicurio.registry.as-confluent", true);
    produceWithApicurio(content4, "as-confluent-content-", List.of(3, 4), "apicurio.registry.headers.enabled", false,
        "apicurio.registry.as-confluent", true, "apicurio.registry.use-id", "contentId");
    int globalId = rawId(global4);
    int contentId = rawId(content4);

    List<ConsumerRecord<String, Object>> globals = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "value.schema.id.prefix", "apicurio-global-id-4"), global4, 2);
    List<ConsumerRecord<String, Object>> contents = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class), content4, 2);

    assertThat(globalId).as("one schema, two artifacts: the global id is not the content id")
        .isNotEqualTo(contentId);
    assertReadsAll(globals, 2);
    assertReadsAll(contents, 2);
  }

  /** The 4-byte id after the {@code 0x00} of the topic's first record. */
  private int rawId(String topic) {
    byte[] value = kafka.<String, byte[]>consume(kafka.consumerConfig(StringDeserializer.class,
        org.apache.kafka.common.serialization.ByteArrayDeserializer.class), topic, 1).get(0).value();
    assertThat(value).hasSizeGreaterThan(5).startsWith(0);
    return java.nio.ByteBuffer.wrap(value, 1, 4).getInt();
  }

  /** Apicurio 2's 8-byte global id prefix, configured, beside its header records. */
  @Test
  void globalIdPrefix_configured_besideHeaderRecords() {
    String topic = kafka.topic("apicurio-global8");
    produceWithApicurio(topic, "global-prefix-", List.of(1, 2, 3), "apicurio.registry.headers.enabled", false,
        "apicurio.registry.id-handler", "io.apicurio.registry.serde.DefaultIdHandler");
    produceWithApicurio(topic, "global-header-", List.of(4));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "value.schema.id.prefix", "apicurio-global-id-8"), topic, 4);

    assertReadsAll(read, 4);
    assertThat(read.get(0).headers().toArray()).isEmpty();
    assertThat(kafka.<String, byte[]>consume(kafka.consumerConfig(StringDeserializer.class,
        org.apache.kafka.common.serialization.ByteArrayDeserializer.class), topic, 1).get(0).value())
        .as("0x00 and an 8-byte id").startsWith(0, 0, 0, 0, 0);
  }

  /** The 4-byte content id prefix through Apicurio's own content ids; Kavro's ids are content ids there too. */
  @Test
  void contentIdPrefix_throughApicuriosApi_readsKavrosToo() {
    String topic = kafka.topic("apicurio-content4");
    produceWithApicurio(topic, "content-prefix-", List.of(1, 2), "apicurio.registry.headers.enabled", false,
        "apicurio.registry.id-handler", "io.apicurio.registry.serde.Legacy4ByteIdHandler",
        "apicurio.registry.use-id", "contentId");
    produceWithKavro(topic, List.of(3));

    List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        KafkaAvroDeserializer.class, "value.schema.id.prefix", "apicurio-content-id-4"), topic, 3);

    assertReadsAll(read, 3);
  }

  /**
   * Apicurio 3's serde (3.1.7) against Apicurio Registry 3.3.3: its default (a 4-byte content id prefix), its
   * 8-byte global id prefix, its headers, and Kavro, all through Apicurio's v3 API or its Confluent-compatible one.
   */
  @Test
  void apicurio3_eachFraming_andKavro() throws Exception {
    String topic = kafka.topic("apicurio3");
    String global8 = kafka.topic("apicurio3-global8");
    EmbeddedRegistry registry3 = SharedApicurio3.registry();
    try (Apicurio3Serde serde3 = new Apicurio3Serde()) {
      String v3 = "http://127.0.0.1:" + registry3.port() + "/apis/registry/v3";
      produceBytes(topic, "content-prefix-", List.of(1, 2), serde3.serializer(Map.of("apicurio.registry.url", v3,
          "apicurio.registry.auto-register", true)));
      produceBytes(topic, "content-header-", List.of(3), serde3.serializer(Map.of("apicurio.registry.url", v3,
          "apicurio.registry.auto-register", true, "apicurio.registry.headers.enabled", true)));
      produceBytes(topic, "global-header-", List.of(4), serde3.serializer(Map.of("apicurio.registry.url", v3,
          "apicurio.registry.auto-register", true, "apicurio.registry.headers.enabled", true,
          "apicurio.registry.use-id", "globalId")));
      List<ProducerRecord<String, Object>> kavros = List.of(new ProducerRecord<>(topic, "kavro-5", payment(5)));
      kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
          "schema.registry.url", registry3.url()), kavros);
      produceBytes(global8, "global-prefix-", List.of(6, 7), serde3.serializer(Map.of("apicurio.registry.url", v3,
          "apicurio.registry.auto-register", true, "apicurio.registry.use-id", "globalId",
          "apicurio.registry.id-handler", "io.apicurio.registry.serde.Legacy8ByteIdHandler")));

      List<ConsumerRecord<String, Object>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
          KafkaAvroDeserializer.class, "schema.registry.url", registry3.url()), topic, 5);
      List<ConsumerRecord<String, Object>> read8 = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
          KafkaAvroDeserializer.class, "schema.registry.url", registry3.url(),
          "value.schema.id.prefix", "apicurio-global-id-8"), global8, 2);

      assertReadsAll(read, 5);
      assertThat(headerNames(read.get(2))).contains("apicurio.value.contentId");
      assertThat(headerNames(read.get(3))).contains("apicurio.value.globalId");
      assertReadsAll(read8, 2);
    }
  }

  /** Serializes with {@code serializer} (headers included) and produces the bytes as they are. */
  private void produceBytes(String topic, String key, List<Integer> numbers, Serializer<Object> serializer) {
    List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
    for (int n : numbers) {
      RecordHeaders headers = new RecordHeaders();
      byte[] value = serializer.serialize(topic, headers, payment(n));
      records.add(new ProducerRecord<>(topic, null, key + n, value, headers));
    }
    serializer.close();
    kafka.produce(kafka.producerConfig(StringSerializer.class, ByteArraySerializer.class), records);
  }

  private static List<String> headerNames(ConsumerRecord<?, ?> record) {
    List<String> names = new ArrayList<>();
    for (Header header : record.headers()) {
      names.add(header.key());
    }
    return names;
  }
}
