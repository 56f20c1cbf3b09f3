package io.kavro.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.SubjectVersion;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.testkit.EmbeddedSchemaRepo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 49, items 8, 9 and 12, against the real schema-repo 0.1.2 server: a topic whose subject holds {@code ;} writes
 * into that subject, never into the one before the {@code ;}; a schema registered through schema-repo's own REST API
 * as its pretty-printed .avsc is found, and not registered again; ids of 10 and more are read as schema-repo writes
 * them.
 */
class SchemaRepoSubjectsTest {
  private static final Schema VICTIM = SchemaBuilder.record("Victim").namespace("io.kavro.it").fields()
      .requiredString("name").endRecord();
  private static final Schema INTRUDER = SchemaBuilder.record("Intruder").namespace("io.kavro.it").fields()
      .requiredLong("id").endRecord();
  /** An .avsc as a person writes it, and as {@code curl --data-binary @order.avsc} sends it. */
  private static final String ORDER_AVSC = """
      {
        "type": "record",
        "name": "Order",
        "namespace": "io.kavro.it",
        "doc": "An order, as its .avsc file says",
        "fields": [
          {"name": "id",   "type": "long"},
          {"name": "note", "type": ["null", "string"], "default": null}
        ]
      }
      """;

  private static EmbeddedSchemaRepo repository;
  private SchemaRegistryClient client;
  private String prefix;

  @BeforeAll
  static void start() {
    repository = SharedSchemaRepo.repository();
  }

  @BeforeEach
  void connect() {
    client = SchemaRegistryClients.create(config());
    prefix = "subjects-" + UUID.randomUUID().toString().substring(0, 8) + "-";
  }

  @AfterEach
  void close() {
    client.close();
  }

  private static Map<String, Object> config(Object... extra) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", repository.url(),
        "schema.registry.api", "schema-repo", "schema.repo.validators", EmbeddedSchemaRepo.FULL_VALIDATOR));
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    return config;
  }

  private static byte[] serialize(String topic, GenericRecord value, Object... extra) {
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config(extra), false);
      return serializer.serialize(topic, value);
    }
  }

  private static int idOf(byte[] framed) {
    return ByteBuffer.wrap(framed, 1, 4).getInt();
  }

  /** The topic {@code victim;x} has the subject {@code victim;x-value}: the subject {@code victim-value}... */
  @Test
  void aTopicWithASemicolon_writesIntoItsOwnSubject_neverIntoTheOneBeforeIt() {
    String victimTopic = prefix + "victim";
    GenericRecord victim = new GenericData.Record(VICTIM);
    victim.put("name", "ada");
    GenericRecord intruder = new GenericData.Record(INTRUDER);
    intruder.put("id", 7L);
    serialize(victimTopic, victim);

    // ... and the topic "victim-value;x", whose subject 'victim-value;x-value' was cut to 'victim-value'.
    byte[] written = serialize(victimTopic + "-value;x", intruder);

    assertThat(idOf(written)).isZero();
    assertThat(client.versions(victimTopic + "-value")).containsExactly(1);
    assertThat(client.latestVersion(victimTopic + "-value").schema()).isEqualTo(VICTIM);
    assertThat(client.latestVersion(victimTopic + "-value;x-value").schema()).isEqualTo(INTRUDER);
    assertThat(client.subjects()).filteredOn(s -> s.startsWith(prefix))
        .containsExactlyInAnyOrder(victimTopic + "-value", victimTopic + "-value;x-value");
  }

  /** {@code semi;colon} created {@code semi}: now it creates {@code semi;colon}, and nothing else. */
  @Test
  void aSubjectWithASemicolon_createsThatSubject_andNoOther() {
    client.register(prefix + "semi;colon", VICTIM);

    assertThat(client.subjects()).filteredOn(s -> s.startsWith(prefix)).containsExactly(prefix + "semi;colon");
    assertThat(client.forSubject(prefix + "semi;colon").schemaById(0)).isEqualTo(VICTIM);
  }

  /**
   * Item 9: the .avsc registered with schema-repo's own REST API, pretty-printed, is the schema a writer holds: a
   * lookup-only writer finds its id, and an auto-registering one gets that id, not a second.
   */
  @Test
  void aSchemaRegisteredAsItsAvscText_isFound_andNotRegisteredAgain() throws Exception {
    String topic = prefix + "orders";
    String subject = topic + "-value";
    HttpClient http = HttpClient.newHttpClient();
    HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(repository.url() + "/" + subject))
        .PUT(HttpRequest.BodyPublishers.ofString("repo.validators=full"))
        .header("Content-Type", "application/x-www-form-urlencoded").build(), HttpResponse.BodyHandlers.ofString());
    assertThat(created.statusCode()).as(created.body()).isEqualTo(200);
    HttpResponse<String> registered = http.send(HttpRequest.newBuilder(URI.create(repository.url() + "/" + subject
        + "/register")).PUT(HttpRequest.BodyPublishers.ofString(ORDER_AVSC)).header("Content-Type", "text/plain")
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(registered.body().strip()).isEqualTo("0");
    Schema order = new Schema.Parser().parse(ORDER_AVSC);
    GenericRecord record = new GenericData.Record(order);
    record.put("id", 1L);

    assertThat(client.lookup(subject, order).id()).isZero();
    assertThat(idOf(serialize(topic, record, "auto.register.schemas", false))).isZero();
    assertThat(idOf(serialize(topic, record))).isZero();
    assertThat(client.versions(subject)).as("no second id").containsExactly(1);
  }

  /**
   * Item 12: schema-repo's ids are decimal, and only an id of 10 or more tells another radix: twelve versions of one
   * subject, ids 0 to 11, each read back as the repository numbered it.
   */
  @Test
  void twelveVersions_idsTenAndElevenRead_asTheRepositoryNumbersThem() {
    String subject = prefix + "many-value";
    List<Schema> versions = new ArrayList<>();
    SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record("Many").namespace("io.kavro.it").fields()
        .requiredLong("id");
    for (int i = 0; i < 12; i++) {
      Schema schema = fields.endRecord();
      versions.add(schema);
      assertThat(client.register(subject, schema)).as("version %d", i + 1).isEqualTo(i);
      fields = SchemaBuilder.record("Many").namespace("io.kavro.it").fields().requiredLong("id");
      for (int f = 0; f <= i; f++) {
        fields = fields.optionalString("f" + f);
      }
    }

    try (SchemaRegistryClient fresh = SchemaRegistryClients.create(config())) {
      SubjectVersion latest = fresh.latestVersion(subject);
      assertThat(latest.id()).isEqualTo(11);
      assertThat(latest.version()).isEqualTo(12);
      assertThat(latest.schema()).isEqualTo(versions.get(11));
      assertThat(fresh.lookup(subject, versions.get(10)).id()).isEqualTo(10);
      assertThat(fresh.forSubject(subject).schemaById(10)).isEqualTo(versions.get(10));
      assertThat(fresh.version(subject, 11).schema()).isEqualTo(versions.get(10));
      assertThat(fresh.versions(subject)).hasSize(12).endsWith(11, 12);
    }
  }
}
