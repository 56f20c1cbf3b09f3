package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The bytes on the topic, checked with tools Kavro did not write; and the registry traffic per record. */
@ExtendWith(KavroStackExtension.class)
class WireFormatAndTrafficTest {
  private final TestStack stack;
  private final KafkaFixture kafka;

  WireFormatAndTrafficTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void bytesOnTopic_verifiedWithJdkHttpAndPlainAvro() throws Exception {
    String topic = kafka.topic("wire");
    GenericRecord user = EndToEndTest.user(EndToEndTest.USER_V2, "Ada");
    Map<String, Object> producer = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class);
    kafka.produce(producer, List.of(new ProducerRecord<>(topic, "k", user)));

    byte[] bytes = kafka.<String, byte[]>consume(
        kafka.consumerConfig(StringDeserializer.class, ByteArrayDeserializer.class), topic, 1).get(0).value();

    // Magic byte 0, then a big-endian id that the registry knows.
    assertThat(bytes[0]).isZero();
    int id = ByteBuffer.wrap(bytes, 1, 4).getInt();
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(stack.registryUrl() + "/schemas/ids/" + id)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    Schema writer = new Schema.Parser().parse(new ObjectMapper().readTree(response.body()).get("schema").asText());
    assertThat(writer).isEqualTo(EndToEndTest.USER_V2);

    // The body decodes with plain Apache Avro and that schema, with nothing left over.
    var decoder = DecoderFactory.get().binaryDecoder(bytes, 5, bytes.length - 5, null);
    GenericRecord decoded = new GenericDatumReader<GenericRecord>(writer).read(null, decoder);
    assertThat(decoder.isEnd()).isTrue();
    assertThat(decoded.get("name")).hasToString("Ada");
    assertThat(decoded.get("country")).hasToString("NL");

    // The same datum gives the same bytes again.
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(producer, false);
      assertThat(serializer.serialize(topic, user)).isEqualTo(bytes);
    }
  }

  @Test
  void tenThousandRecords_registryRequestsDoNotGrowWithRecords() throws IOException {
    String topic = kafka.topic("traffic", 3);
    try (CountingRegistryProxy proxy = new CountingRegistryProxy(stack.registryUrl())) {
      List<ProducerRecord<String, Object>> records = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        records.add(new ProducerRecord<>(topic, "k" + (i % 50),
            EndToEndTest.user(i % 2 == 0 ? EndToEndTest.USER_V1 : EndToEndTest.ORDER_LIKE, "u" + i)));
      }
      kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
          "schema.registry.url", proxy.url(), "value.subject.name.strategy", "TopicRecordNameStrategy"), records);
      long afterProduce = proxy.requests();

      List<ConsumerRecord<String, GenericRecord>> read = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
          KafkaAvroDeserializer.class, "schema.registry.url", proxy.url()), topic, 10_000);

      assertThat(read).hasSize(10_000);
      // Two schemas: one registration each by the producer, one lookup by id each by the consumer, and the
      // consumer's one association lookup for the topic (its default strategy's, as Confluent's deserializer's).
      assertThat(afterProduce).isEqualTo(2);
      assertThat(proxy.requests()).isEqualTo(5);
    }
  }
}
