package io.kavro.it;

import static io.kavro.it.EndToEndTest.ORDER_LIKE;
import static io.kavro.it.EndToEndTest.USER_V1;
import static io.kavro.it.EndToEndTest.USER_V2;
import static io.kavro.it.EndToEndTest.USER_V3_INCOMPATIBLE;
import static io.kavro.it.EndToEndTest.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.connect.AvroConverter;
import io.kavro.registry.IncompatibleSchemaException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.EmbeddedSchemaRepo;
import io.kavro.testkit.KavroStackExtension;
import io.kavro.testkit.TestStack;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 39: Kavro on schema-repo 0.1.2 (AVRO-1124), the real server in a child JVM, with the shared broker. Its ids
 * count per subject (both of two subjects start at 0); Kavro reads a record's id with the subject of its topic.
 * Subjects that Kavro creates check new schemas with the full-compatibility validator ({@code repo.validators=full}).
 */
@ExtendWith(KavroStackExtension.class)
class SchemaRepoEndToEndTest {
  private static EmbeddedSchemaRepo repository;

  private final KafkaFixture kafka;

  SchemaRepoEndToEndTest(TestStack stack) {
    this.kafka = new KafkaFixture(stack);
  }

  @BeforeAll
  static void startRepository() {
    repository = SharedSchemaRepo.repository();
  }

  private static Object[] schemaRepo(EmbeddedSchemaRepo repo, Object... extra) {
    List<Object> all = new ArrayList<>(List.of("schema.registry.url", repo.url(), "schema.registry.api",
        "schema-repo", "schema.repo.validators", EmbeddedSchemaRepo.FULL_VALIDATOR));
    all.addAll(List.of(extra));
    return all.toArray();
  }

  private void produce(String topic, Object[] settings, GenericRecord... values) {
    List<ProducerRecord<String, Object>> records = new ArrayList<>();
    for (GenericRecord value : values) {
      records.add(new ProducerRecord<>(topic, value.get("name").toString(), value));
    }
    kafka.produce(kafka.producerConfig(StringSerializer.class, KafkaAvroSerializer.class, settings), records);
  }

  private List<ConsumerRecord<String, Object>> consume(String topic, int count, Object[] settings) {
    return kafka.consume(kafka.consumerConfig(StringDeserializer.class, KafkaAvroDeserializer.class, settings),
        topic, count);
  }

  @Test
  void produceAndConsume_withTheRepositorysPerSubjectIdInThePrefix() {
    String topic = kafka.topic("sr-roundtrip");

    produce(topic, schemaRepo(repository), user(USER_V1, "ada"), user(USER_V1, "bob"));

    List<ConsumerRecord<String, Object>> read = consume(topic, 2, schemaRepo(repository));
    assertThat(read).extracting(r -> ((GenericRecord) r.value()).get("name").toString()).containsExactly("ada",
        "bob");
    List<ConsumerRecord<String, byte[]>> raw = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        ByteArrayDeserializer.class), topic, 1);
    // 0x00, then id 0: the first schema of the topic's subject.
    assertThat(java.util.Arrays.copyOf(raw.get(0).value(), 5)).containsExactly(0, 0, 0, 0, 0);
    try (SchemaRegistryClient client = SchemaRegistryClients.create(configs(repository))) {
      assertThat(client.latestVersion(topic + "-value").id()).isZero();
      assertThat(client.subjects()).contains(topic + "-value");
    }
  }

  /** Both subjects' first schema has id 0: one deserializer reads each topic's records with its own schema. */
  @Test
  void twoSubjectsWhoseIdsCollide_eachReadWithItsOwnSchema() {
    String users = kafka.topic("sr-users");
    String customers = kafka.topic("sr-customers");
    GenericRecord customer = new org.apache.avro.generic.GenericData.Record(ORDER_LIKE);
    customer.put("name", "acme");
    customer.put("vip", true);

    produce(users, schemaRepo(repository), user(USER_V1, "ada"));
    produce(customers, schemaRepo(repository), customer);

    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(configs(repository), false);
      byte[] userBytes = rawValue(users);
      byte[] customerBytes = rawValue(customers);
      assertThat(java.util.Arrays.copyOf(userBytes, 5)).isEqualTo(java.util.Arrays.copyOf(customerBytes, 5));
      GenericRecord readUser = (GenericRecord) deserializer.deserialize(users, userBytes);
      GenericRecord readCustomer = (GenericRecord) deserializer.deserialize(customers, customerBytes);
      // Read again in the other order: a route cached for id 0 of one topic must not serve the other.
      GenericRecord againCustomer = (GenericRecord) deserializer.deserialize(customers, customerBytes);
      GenericRecord againUser = (GenericRecord) deserializer.deserialize(users, userBytes);
      assertThat(readUser.getSchema()).isEqualTo(USER_V1);
      assertThat(readCustomer.getSchema()).isEqualTo(ORDER_LIKE);
      assertThat(againCustomer.get("vip")).isEqualTo(true);
      assertThat(againUser.getSchema().getName()).isEqualTo("User");
    }
  }

  /**
   * Evolution under the full-compatibility validator: a compatible v2 gets id 1; an incompatible v3 is refused
   * before anything is written, and the failure names the field (Avro's reason: the repository gives none).
   */
  @Test
  void evolution_theValidatorRefusesAnIncompatibleSchema_andTheFailureNamesTheField() {
    String topic = kafka.topic("sr-evolution");
    produce(topic, schemaRepo(repository), user(USER_V1, "ada"));
    produce(topic, schemaRepo(repository), user(USER_V2, "bob"));

    try (KafkaProducer<String, Object> producer = new KafkaProducer<>(kafka.producerConfig(StringSerializer.class,
        KafkaAvroSerializer.class, schemaRepo(repository)))) {
      GenericRecord v3 = user(USER_V3_INCOMPATIBLE, "eve");
      v3.put("age", 30);
      assertThatThrownBy(() -> producer.send(new ProducerRecord<>(topic, "eve", v3)))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining(topic + "-value")
          .hasMessageContaining("age")
          .hasRootCauseInstanceOf(IncompatibleSchemaException.class);
    }
    // A v2 consumer reads both; lookup-only and use-latest writers find id 1.
    List<ConsumerRecord<String, Object>> read = consume(topic, 2, schemaRepo(repository));
    assertThat(read).extracting(r -> ((GenericRecord) r.value()).getSchema()).containsExactly(USER_V1, USER_V2);
    produce(topic, schemaRepo(repository, "auto.register.schemas", false), user(USER_V2, "cy"));
    produce(topic, schemaRepo(repository, "auto.register.schemas", false, "use.latest.version", true),
        user(USER_V1, "dee"));
    List<ConsumerRecord<String, byte[]>> raw = kafka.consume(kafka.consumerConfig(StringDeserializer.class,
        ByteArrayDeserializer.class), topic, 4);
    assertThat(raw).extracting(r -> (int) r.value()[4]).containsExactly(0, 1, 1, 1);
    try (SchemaRegistryClient client = SchemaRegistryClients.create(configs(repository))) {
      assertThat(client.versions(topic + "-value")).containsExactly(1, 2);
    }
  }

  /**
   * A consumer restarted while the repository is down reads the ids it saw before from its disk cache, each under
   * its subject; once the repository is back (empty, as schema-repo's in-memory store restarts), nothing breaks.
   */
  @Test
  void restartDuringAnOutage_servedFromTheDiskCache(@TempDir Path cache) {
    EmbeddedSchemaRepo own = EmbeddedSchemaRepo.start(0);
    String users = kafka.topic("sr-outage-users");
    String customers = kafka.topic("sr-outage-customers");
    GenericRecord customer = new org.apache.avro.generic.GenericData.Record(ORDER_LIKE);
    customer.put("name", "acme");
    customer.put("vip", false);
    byte[] userBytes;
    byte[] customerBytes;
    try {
      produce(users, schemaRepo(own), user(USER_V1, "ada"));
      produce(customers, schemaRepo(own), customer);
      userBytes = rawValue(users);
      customerBytes = rawValue(customers);
      try (KafkaAvroDeserializer before = deserializer(own, cache)) {
        before.deserialize(users, userBytes);
        before.deserialize(customers, customerBytes);
      }
    } finally {
      own.close();
    }
    try (KafkaAvroDeserializer restarted = deserializer(own, cache)) {
      assertThat(((GenericRecord) restarted.deserialize(customers, customerBytes)).getSchema()).isEqualTo(ORDER_LIKE);
      assertThat(((GenericRecord) restarted.deserialize(users, userBytes)).getSchema()).isEqualTo(USER_V1);
    }
  }

  /** The Connect converter on schema-repo: a struct in, the repository's id in the prefix, the struct out. */
  @Test
  void connectConverter_roundTrip() {
    String topic = "sr-connect-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    AvroConverter converter = new AvroConverter();
    try {
      converter.configure(configs(repository), false);
      org.apache.kafka.connect.data.Schema schema = org.apache.kafka.connect.data.SchemaBuilder.struct()
          .name("io.kavro.it.Row").field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA).build();
      byte[] bytes = converter.fromConnectData(topic, schema, new Struct(schema).put("id", 7L));
      assertThat(java.util.Arrays.copyOf(bytes, 5)).containsExactly(0, 0, 0, 0, 0);
      SchemaAndValue back = converter.toConnectData(topic, bytes);
      assertThat(((Struct) back.value()).getInt64("id")).isEqualTo(7L);
      assertThat(back.schema().version()).isEqualTo(1);
    } finally {
      converter.close();
    }
  }

  /**
   * The repository down while a Connect worker reads a record whose id it has not seen: a RetriableException, which
   * Connect retries (errors.retry.timeout) rather than skipping the record under errors.tolerance=all.
   */
  @Test
  void connectConverter_repositoryDown_isRetriable_notASkippedRecord() {
    EmbeddedSchemaRepo own = EmbeddedSchemaRepo.start(0);
    String topic = "sr-connect-down-" + java.util.UUID.randomUUID().toString().substring(0, 8);
    org.apache.kafka.connect.data.Schema schema = org.apache.kafka.connect.data.SchemaBuilder.struct()
        .name("io.kavro.it.Row").field("id", org.apache.kafka.connect.data.Schema.INT64_SCHEMA).build();
    byte[] bytes;
    AvroConverter writer = new AvroConverter();
    try {
      writer.configure(configs(own), false);
      bytes = writer.fromConnectData(topic, schema, new Struct(schema).put("id", 7L));
    } finally {
      writer.close();
      own.close();
    }
    Map<String, Object> config = configs(own);
    config.put("max.retries", 0);
    config.put("http.connect.timeout.ms", 500);
    AvroConverter reader = new AvroConverter();
    try {
      reader.configure(config, false);
      assertThatThrownBy(() -> reader.toConnectData(topic, bytes))
          .isInstanceOf(org.apache.kafka.connect.errors.RetriableException.class)
          .hasMessageContaining(topic);
    } finally {
      reader.close();
    }
  }

  @Test
  void aStrategyOtherThanTheTopics_isRefusedAtConfigure() {
    Map<String, Object> config = configs(repository);
    config.put("value.subject.name.strategy", "io.kavro.serde.subject.RecordNameStrategy");
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      assertThatThrownBy(() -> serializer.configure(config, false))
          .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
          .hasMessageContaining("TopicNameStrategy");
    }
  }

  private static KafkaAvroDeserializer deserializer(EmbeddedSchemaRepo repo, Path cache) {
    Map<String, Object> config = configs(repo);
    config.put("schema.cache.dir", cache.toString());
    config.put("max.retries", 0);
    config.put("http.connect.timeout.ms", 500);
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer();
    deserializer.configure(config, false);
    return deserializer;
  }

  private byte[] rawValue(String topic) {
    return kafka.<String, byte[]>consume(kafka.consumerConfig(StringDeserializer.class,
        ByteArrayDeserializer.class), topic, 1).get(0).value();
  }

  private static Map<String, Object> configs(EmbeddedSchemaRepo repo) {
    Object[] settings = schemaRepo(repo);
    Map<String, Object> config = new HashMap<>();
    for (int i = 0; i < settings.length; i += 2) {
      config.put((String) settings[i], settings[i + 1]);
    }
    return config;
  }
}
