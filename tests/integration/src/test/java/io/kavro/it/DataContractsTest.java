package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.UnsupportedRulesException;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
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
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 23, item 4, on the real broker and registry: Apicurio holds no rule sets, so a proxy in front of it adds
 * one to every answer about the topic's schema, as Confluent's registry answers for a subject with a data contract
 * (an ENCRYPT rule on a PII field). Nothing is written in plaintext and nothing is read as if the contract were
 * not there; {@code rules.ignore=true} opts out. The executors of kavro-rules are on this module's class path
 * (for DataContractsInteropTest), so these clients turn them off ({@code rule.service.loader.enable=false}), as
 * an application without kavro-rules is.
 */
@ExtendWith(KavroStackExtension.class)
class DataContractsTest {
  private static final Schema PERSON = new Schema.Parser().parse("""
      {"type":"record","name":"Person","namespace":"io.kavro.it","fields":[{"name":"ssn","type":"string"}]}""");
  private static final String RULE_SET = ",\"ruleSet\":{\"domainRules\":[{\"name\":\"encryptSsn\","
      + "\"kind\":\"TRANSFORM\",\"type\":\"ENCRYPT\",\"mode\":\"WRITEREAD\",\"tags\":[\"PII\"]}]}";

  private static final String NO_EXECUTORS = "rule.service.loader.enable";

  private final TestStack stack;
  private final KafkaFixture kafka;

  DataContractsTest(TestStack stack) {
    this.stack = stack;
    this.kafka = new KafkaFixture(stack);
  }

  @Test
  void subjectWithEncryptRule_neitherWrittenNorRead_unlessRulesIgnored() throws Exception {
    String topic = kafka.topic("contract");
    GenericRecord person = new GenericData.Record(PERSON);
    person.put("ssn", "123-45-6789");
    try (CountingRegistryProxy registry = new CountingRegistryProxy(stack.registryUrl())) {
      // Written before the contract: the record a consumer meets later.
      kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
          "schema.registry.url", registry.url()), List.of(new ProducerRecord<>(topic, "p", person)));
      registry.rewriteAnswers((path, body) -> body.startsWith("{") && body.contains("\"schema\"")
          && body.contains("io.kavro.it") ? body.substring(0, body.lastIndexOf('}')) + RULE_SET + "}" : body);

      Map<String, Object> latest = kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class,
          "schema.registry.url", registry.url(), "auto.register.schemas", false, "use.latest.version", true,
          NO_EXECUTORS, false);
      try (KafkaProducer<String, Object> producer = new KafkaProducer<>(latest)) {
        assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "p", person)))
            .isInstanceOf(SerializationException.class).hasMessageContaining("rule 'encryptSsn' (ENCRYPT, TRANSFORM, WRITEREAD)")
            .hasMessageContaining("add io.kavro:kavro-rules to the class path")
            .hasCauseInstanceOf(UnsupportedRulesException.class)
            .hasRootCauseInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class);
      }

      Map<String, Object> reading = kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class,
          "schema.registry.url", registry.url(), NO_EXECUTORS, false);
      try (KafkaConsumer<String, Object> consumer = new KafkaConsumer<>(reading)) {
        TopicPartition partition = new TopicPartition(topic, 0);
        assertThat(consumer.endOffsets(List.of(partition))).as("the refused record was never sent")
            .containsEntry(partition, 1L);
        consumer.subscribe(List.of(topic));
        assertThatThrownBy(() -> {
          long deadline = System.nanoTime() + 30_000_000_000L;
          while (System.nanoTime() - deadline < 0) {
            consumer.poll(java.time.Duration.ofMillis(500));
          }
        }).isInstanceOf(RecordDeserializationException.class).hasMessageContaining("offset 0")
            .satisfies(e -> assertThat(io.kavro.serde.rules.Causes.find(e, UnsupportedRulesException.class))
                .isPresent())
            .hasRootCauseInstanceOf(io.kavro.serde.rules.RuleDeploymentException.class);
      }

      List<ConsumerRecord<String, Object>> ignoring = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
          KafkaAvroDeserializer.class, "schema.registry.url", registry.url(), "rules.ignore", true), topic, 1);
      assertThat(ignoring.get(0).value()).isEqualTo(person);
    }
  }
}
