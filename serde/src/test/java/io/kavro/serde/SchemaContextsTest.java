package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.subject.ContextNameStrategy;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * Issue 51, item 2: {@code context.name.strategy}, as Confluent's serde applies it (read from its
 * {@code AbstractKafkaSchemaSerDe.getContextName} and {@code AbstractKafkaAvroDeserializer}): the serializer
 * registers under the subject qualified with the topic's context, and the deserializer reads a record's id within
 * that context. Ids count per context, so the same id on two topics of two contexts is two schemas.
 */
class SchemaContextsTest {
  private static final Schema USER = new Schema.Parser().parse("""
      {"type":"record","name":"User","namespace":"com.acme","fields":[{"name":"name","type":"string"}]}""");
  private static final Schema PAGE = new Schema.Parser().parse("""
      {"type":"record","name":"Page","namespace":"com.acme","fields":[{"name":"title","type":"string"}]}""");

  /** Topics {@code a.*} in context {@code .a}, {@code b.*} in {@code :.b:}, the others in the default context. */
  public static final class ByPrefix implements ContextNameStrategy {
    @Override
    public String contextName(String topic) {
      return topic.startsWith("a.") ? "a" : topic.startsWith("b.") ? ":.b:" : null;
    }
  }

  /**
   * A custom subject strategy (no {@code context.name.strategy}) that names context-qualified subjects itself, as an
   * association may: {@code a.*} in {@code .a}, {@code b.*} in {@code .b}, the others as the topic name strategy.
   */
  public static final class QualifiedSubjects implements io.kavro.serde.subject.SubjectNameStrategy {
    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      String subject = topic + (isKey ? "-key" : "-value");
      return topic.startsWith("a.") ? ":.a:" + subject : topic.startsWith("b.") ? ":.b:" + subject : subject;
    }
  }

  /**
   * {@link QualifiedSubjects}, except that while {@link #UNDECIDED} is set it names no one subject (as
   * {@code AssociatedNameStrategy} does for a topic with two associations, or none under fallback {@code NONE}).
   */
  public static final class UndecidedSubjects implements io.kavro.serde.subject.SubjectNameStrategy {
    static volatile boolean UNDECIDED;

    @Override
    public String subjectName(String topic, boolean isKey, Schema schema) {
      if (UNDECIDED) {
        throw new org.apache.kafka.common.errors.SerializationException("two subjects for " + topic);
      }
      return new QualifiedSubjects().subjectName(topic, isKey, schema);
    }
  }

  /** Gives a name that is no context. */
  public static final class WithColon implements ContextNameStrategy {
    @Override
    public String contextName(String topic) {
      return "x:y";
    }
  }

  final MockWebServer server = new MockWebServer();

  @org.junit.jupiter.api.BeforeEach
  void start() throws Exception {
    server.start();
  }

  @org.junit.jupiter.api.AfterEach
  void stop() {
    server.close();
  }

  private static GenericRecord user(String name) {
    GenericRecord record = new GenericData.Record(USER);
    record.put("name", name);
    return record;
  }

  private static GenericRecord page(String title) {
    GenericRecord record = new GenericData.Record(PAGE);
    record.put("title", title);
    return record;
  }

  private static int id(byte[] payload) {
    return ByteBuffer.wrap(payload, 1, 4).getInt();
  }

  /**
   * The misread this guards against: both records carry id 1, which is USER in context {@code .a} and PAGE in
   * context {@code .b}. One deserializer reads both topics; neither may be decoded with the other's schema.
   */
  @Test
  void twoContexts_sameIdNumber_eachReadWithItsOwnSchema() {
    try (Serdes serdes = new Serdes("context.name.strategy", ByPrefix.class.getName());
        KafkaAvroSerializer serializer = serdes.serializer();
        KafkaAvroDeserializer deserializer = serdes.deserializer();
        SchemaRegistryClient registry = serdes.registry()) {
      byte[] inA = serializer.serialize("a.events", user("ada"));
      byte[] inB = serializer.serialize("b.events", page("home"));
      assertThat(id(inA)).isEqualTo(1);
      assertThat(id(inB)).as("context .b numbers its schemas apart").isEqualTo(1);
      assertThat(registry.subjects()).contains(":.a:a.events-value", ":.b:b.events-value")
          .doesNotContain("a.events-value", "b.events-value");

      for (int round = 0; round < 2; round++) {
        Object readA = deserializer.deserialize("a.events", inA);
        Object readB = deserializer.deserialize("b.events", inB);
        assertThat(((GenericRecord) readA).getSchema()).isEqualTo(USER);
        assertThat(readA).hasToString("{\"name\": \"ada\"}");
        assertThat(((GenericRecord) readB).getSchema()).as("id 1 of context .b").isEqualTo(PAGE);
        assertThat(readB).hasToString("{\"title\": \"home\"}");
      }
      // A topic in the default context: its own id 1, the third schema of that number.
      byte[] plain = serializer.serialize("events", page("plain"));
      assertThat(id(plain)).isEqualTo(1);
      assertThat(registry.subjects()).contains("events-value");
      assertThat(deserializer.deserialize("events", plain)).hasToString("{\"title\": \"plain\"}");
      assertThat(deserializer.deserialize("a.events", inA)).hasToString("{\"name\": \"ada\"}");
    }
  }

  /**
   * Confluent's deserializer asks for an id with the subject the strategy gives ({@code ?subject=:.a:...}): a
   * strategy that names qualified subjects without {@code context.name.strategy} reads each topic's ids in the
   * subject's context. Ids 1 of contexts {@code .a}, {@code .b} and the default one are three schemas.
   */
  @Test
  void qualifiedSubjectsOfACustomStrategy_eachIdReadInTheSubjectsContext() {
    try (Serdes serdes = new Serdes("value.subject.name.strategy", QualifiedSubjects.class.getName());
        KafkaAvroSerializer serializer = serdes.serializer();
        KafkaAvroDeserializer deserializer = serdes.deserializer();
        SchemaRegistryClient registry = serdes.registry()) {
      byte[] plain = serializer.serialize("events", page("plain"));
      byte[] inA = serializer.serialize("a.events", user("ada"));
      byte[] inB = serializer.serialize("b.events", page("home"));
      assertThat(id(plain)).isEqualTo(1);
      assertThat(id(inA)).as("context .a numbers its schemas apart").isEqualTo(1);
      assertThat(id(inB)).isEqualTo(1);
      assertThat(registry.subjects()).contains("events-value", ":.a:a.events-value", ":.b:b.events-value");
      for (int round = 0; round < 2; round++) {
        Object readA = deserializer.deserialize("a.events", inA);
        assertThat(((GenericRecord) readA).getSchema()).as("id 1 of context .a").isEqualTo(USER);
        assertThat(readA).hasToString("{\"name\": \"ada\"}");
        assertThat(deserializer.deserialize("events", plain)).hasToString("{\"title\": \"plain\"}");
        assertThat(deserializer.deserialize("b.events", inB)).hasToString("{\"title\": \"home\"}");
      }
    }
  }

  /**
   * Review of issue 51: a strategy that names no one subject for a topic must fail the record and keep nothing; a
   * default context kept for the topic would read id 1 of context {@code .a} as the default context's id 1.
   */
  @Test
  void strategyNamingNoOneSubject_failsTheRecord_keepsNoContext() {
    UndecidedSubjects.UNDECIDED = false;
    try (Serdes serdes = new Serdes("value.subject.name.strategy", UndecidedSubjects.class.getName());
        KafkaAvroSerializer serializer = serdes.serializer();
        KafkaAvroDeserializer deserializer = serdes.deserializer()) {
      byte[] plain = serializer.serialize("events", page("plain"));
      byte[] inA = serializer.serialize("a.events", user("ada"));
      assertThat(id(plain)).isEqualTo(id(inA));

      UndecidedSubjects.UNDECIDED = true;
      assertThatThrownBy(() -> deserializer.deserialize("a.events", inA))
          .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
          .hasMessageContaining("two subjects for a.events");
      UndecidedSubjects.UNDECIDED = false;
      Object read = deserializer.deserialize("a.events", inA);
      assertThat(((GenericRecord) read).getSchema()).as("id 1 of context .a, not the default one's").isEqualTo(USER);
    } finally {
      UndecidedSubjects.UNDECIDED = false;
    }
  }

  /**
   * Mirroring: the source's id 1 of topic {@code a.events} is USER in context {@code .a}, while the source's default
   * context has PAGE under id 1. The translation must read the id within the topic's context.
   */
  @Test
  void idTranslation_readsTheSourceIdWithinTheTopicsContext() {
    try (Serdes source = new Serdes("context.name.strategy", ByPrefix.class.getName());
        Serdes target = new Serdes();
        KafkaAvroSerializer serializer = source.serializer();
        KafkaAvroDeserializer reader = target.deserializer()) {
      assertThat(id(serializer.serialize("events", page("plain")))).isEqualTo(1);
      byte[] inA = serializer.serialize("a.events", user("ada"));
      assertThat(id(inA)).isEqualTo(1);
      try (SchemaIdTranslator translator = new SchemaIdTranslator(source.config(), target.config(), false)) {
        byte[] moved = translator.translatePayload("a.events", inA);
        Object read = reader.deserialize("a.events", moved);
        assertThat(((GenericRecord) read).getSchema()).isEqualTo(USER);
        assertThat(read).hasToString("{\"name\": \"ada\"}");
      }
    }
  }

  /** A context strategy whose answer a test moves: every topic in {@link #CONTEXT}. */
  public static final class Movable implements ContextNameStrategy {
    static volatile String CONTEXT = "a";

    @Override
    public String contextName(String topic) {
      return CONTEXT;
    }
  }

  /**
   * Review of ctxevict, 5: translations were kept by topic and source id, for good. A source topic whose context
   * moved (its context evicted, its strategy's answer now {@code .b}) had its id 1 translated as {@code .a}'s id 1:
   * mirrored records pointed at a schema their producer did not use. Translations are now kept per source context.
   */
  @Test
  void idTranslation_sourceTopicMovedToAnotherContext_translatedAgain() {
    Movable.CONTEXT = "a";
    Schema order = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"name","type":"string"}]}""");
    Schema withRegion = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"name","type":"string"},
          {"name":"region","type":"string","default":"eu"}]}""");
    try (Serdes source = new Serdes("context.name.strategy", Movable.class.getName());
        Serdes target = new Serdes();
        SchemaRegistryClient sourceRegistry = source.registry();
        SchemaRegistryClient targetRegistry = target.registry();
        SchemaIdTranslator translator = new SchemaIdTranslator(source.config(), target.config(), false)) {
      int inA = sourceRegistry.register(":.a:events-value", order);
      int inB = sourceRegistry.register(":.b:events-value", withRegion);
      assertThat(inB).as("the same id in .b as in .a").isEqualTo(inA);
      byte[] record = {0, 0, 0, 0, (byte) inA, 6, 'a', 'd', 'a'};
      assertThat(id(translator.translatePayload("events", record))).isEqualTo(targetRegistry.lookup("events-value",
          order).id());

      Movable.CONTEXT = "b";
      translator.sourceIds().forget("events"); // as an eviction for room: the context is asked again
      assertThat(id(translator.translatePayload("events", record))).as("id 1 of .b, where events now is")
          .isEqualTo(targetRegistry.lookup("events-value", withRegion).id());
    } finally {
      Movable.CONTEXT = "a";
    }
  }

  /**
   * Issue 51: the translator gave its registry client to the target's subject strategy only. The source's default
   * strategy (associations) had none, so it fell back to the topic's own subject: a source topic associated with a
   * subject of context {@code .a} had its ids read in the default context, and the default context's schema of the
   * same id was registered in the target.
   */
  @Test
  void idTranslation_sourceTopicAssociatedWithASubjectInAContext_readsTheIdThere() {
    Schema inDefault = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"name","type":"string"}]}""");
    Schema inA = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"name","type":"string"},
          {"name":"region","type":"string","default":"eu"}]}""");
    try (Serdes source = new Serdes();
        Serdes target = new Serdes();
        SchemaRegistryClient sourceRegistry = source.registry();
        SchemaRegistryClient targetRegistry = target.registry()) {
      int id = sourceRegistry.register("orders-value", inDefault);
      assertThat(sourceRegistry.register(":.a:orders-value", inA)).as("the same id in .a").isEqualTo(id);
      io.kavro.registry.mock.MockRegistries.scope(source.scope).associate(new io.kavro.registry.Association(
          ":.a:orders-value", "orders", "lkc-1", "topic", "value"));
      byte[] record = {0, 0, 0, 0, (byte) id, 6, 'a', 'd', 'a'};
      try (SchemaIdTranslator translator = new SchemaIdTranslator(source.config(), target.config(), false)) {
        byte[] moved = translator.translatePayload("orders", record);
        assertThat(targetRegistry.subjects()).containsExactly("orders-value");
        assertThat(targetRegistry.schemaById(id(moved))).as(".a's schema of the id, registered in the target")
            .isEqualTo(inA);
        assertThat(id(moved)).isEqualTo(targetRegistry.lookup("orders-value", inA).id());
      }
    }
  }

  /** The four spellings of Confluent's ContextNameStrategyTest name one context, before the subject. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"customContext_test", ".customContext_test",
      ":.customContext_test:", ":customContext_test:"})
  void contextSubjects_qualifyAsConfluentsGetContextName(String name) {
    io.kavro.serde.subject.ContextSubjects subjects = new io.kavro.serde.subject.ContextSubjects(topic -> name,
        new io.kavro.serde.subject.TopicNameStrategy());
    assertThat(subjects.subjectName("test", false, USER)).isEqualTo(":.customContext_test:test-value");
    assertThat(subjects.context("test")).isEqualTo(":.customContext_test:");
    assertThat(new io.kavro.serde.subject.ContextSubjects(topic -> ".", subjects.subjects())
        .subjectName("test", true, USER)).as("the default context").isEqualTo("test-key");
  }

  /**
   * The default subject strategy (associations) within a context: it is given the registry and the cluster id through
   * the context's wrapper, and its subject is then qualified, as Confluent's getSubjectName qualifies any strategy's.
   */
  @Test
  void associatedSubject_isQualifiedWithTheTopicsContext() {
    try (Serdes serdes = new Serdes("context.name.strategy", ByPrefix.class.getName());
        KafkaAvroSerializer serializer = serdes.serializer();
        KafkaAvroDeserializer deserializer = serdes.deserializer();
        SchemaRegistryClient registry = serdes.registry()) {
      io.kavro.registry.mock.MockRegistries.scope(serdes.scope).associate(new io.kavro.registry.Association(
          "events-contract", "a.events", "lkc-1", "topic", "value"));
      serializer.onUpdate(new org.apache.kafka.common.ClusterResource("lkc-1"));
      byte[] payload = serializer.serialize("a.events", user("ada"));
      assertThat(registry.subjects()).containsExactly(":.a:events-contract");
      assertThat(deserializer.deserialize("a.events", payload)).hasToString("{\"name\": \"ada\"}");
    }
  }

  @Test
  void confluentsDefault_isAccepted_andQualifiesNothing() {
    try (Serdes serdes = new Serdes("context.name.strategy",
        "io.confluent.kafka.serializers.context.NullContextNameStrategy");
        KafkaAvroSerializer serializer = serdes.serializer();
        SchemaRegistryClient registry = serdes.registry()) {
      serializer.serialize("a.events", user("ada"));
      assertThat(registry.subjects()).containsExactly("a.events-value");
    }
  }

  @Test
  void anUnknownStrategy_isRefusedAtConfigure_namingTheKey() {
    try (Serdes serdes = new Serdes()) {
      assertThatThrownBy(() -> serdes.serializer("context.name.strategy", "com.acme.NoSuchStrategy"))
          .isInstanceOf(ConfigException.class).hasMessageContaining("context.name.strategy")
          .hasMessageContaining("class not found");
      assertThatThrownBy(() -> serdes.serializer("context.name.strategy", String.class))
          .isInstanceOf(ConfigException.class).hasMessageContaining("context.name.strategy")
          .hasMessageContaining("ContextNameStrategy");
    }
  }

  @Test
  void aContextNameWithAColon_failsTheRecord_namingTopicAndName() {
    try (Serdes serdes = new Serdes("context.name.strategy", WithColon.class);
        KafkaAvroSerializer serializer = serdes.serializer()) {
      assertThatThrownBy(() -> serializer.serialize("events", user("ada")))
          .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
          .hasMessageContaining("'events'").hasMessageContaining("'x:y'");
    }
  }

  @Test
  void apicurio_hasNoContexts_refusedAtConfigure_namingTheRegistry() {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/apis/ccompat/v7").toString());
    config.put("context.name.strategy", ByPrefix.class.getName());
    config.put("value.subject.name.strategy", "TopicNameStrategy"); // no association lookup: the requests are these
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      assertThatThrownBy(() -> serializer.configure(config, false)).isInstanceOf(ConfigException.class)
          .hasMessageContaining("context.name.strategy").hasMessageContaining("Apicurio Registry has no schema "
              + "contexts");
      assertThatThrownBy(() -> deserializer.configure(config, false)).isInstanceOf(ConfigException.class)
          .hasMessageContaining("context.name.strategy");
    }
    assertThat(server.getRequestCount()).isZero();
  }

  @Test
  void schemaRepo_hasNoContexts_refusedAtConfigure() {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", "http://127.0.0.1:1/schema-repo");
    config.put("schema.registry.api", "schema-repo");
    config.put("context.name.strategy", ByPrefix.class.getName());
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      assertThatThrownBy(() -> deserializer.configure(config, false)).isInstanceOf(ConfigException.class)
          .hasMessageContaining("context.name.strategy").hasMessageContaining("no schema contexts");
    }
  }

  /**
   * Trust item 3: the id translation refuses what a serde's configure refuses ({@link TopicIds#check}), naming the
   * side: a context.name.strategy on Apicurio Registry, which has no contexts. It was accepted, and every record then
   * failed (skipped with errors.tolerance=all).
   */
  @Test
  void idTranslation_contextsOnApicurio_refusedAtConstruction_namingTheSide() {
    Map<String, Object> apicurio = new HashMap<>();
    apicurio.put("schema.registry.url", server.url("/apis/ccompat/v7").toString());
    apicurio.put("context.name.strategy", ByPrefix.class.getName());
    apicurio.put("value.subject.name.strategy", "TopicNameStrategy");
    Map<String, Object> confluent = Map.of("schema.registry.url", server.url("/").toString());

    assertThatThrownBy(() -> new SchemaIdTranslator(apicurio, confluent, false).close())
        .isInstanceOf(ConfigException.class).hasMessageContaining("the source registry's settings")
        .hasMessageContaining("context.name.strategy").hasMessageContaining("Apicurio Registry has no schema "
            + "contexts");
    assertThatThrownBy(() -> new SchemaIdTranslator(confluent, apicurio, false).close())
        .isInstanceOf(ConfigException.class).hasMessageContaining("the target registry's settings")
        .hasMessageContaining("context.name.strategy");
    assertThat(server.getRequestCount()).isZero();
  }

  /** The requests Confluent's serde makes in a context, as its client sends them (the subject decoded). */
  @Test
  void overHttp_registersTheQualifiedSubject_andReadsTheIdWithinTheContext() throws Exception {
    Map<String, Object> config = new HashMap<>();
    config.put("schema.registry.url", server.url("/").toString());
    config.put("max.retries", 0);
    config.put("context.name.strategy", ByPrefix.class.getName());
    config.put("value.subject.name.strategy", "TopicNameStrategy"); // no association lookup: the requests are these
    String userJson = com.fasterxml.jackson.databind.node.TextNode.valueOf(USER.toString()).toString();
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer();
        KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      serializer.configure(config, false);
      deserializer.configure(config, false);
      server.enqueue(json("{\"id\":5}"));
      byte[] payload = serializer.serialize("a.events", user("ada"));
      RecordedRequest register = server.takeRequest(5, TimeUnit.SECONDS);
      assertThat(register.getMethod()).isEqualTo("POST");
      assertThat(register.getUrl().pathSegments()).containsExactly("subjects", ":.a:a.events-value", "versions");

      server.enqueue(json("{\"schema\":" + userJson + "}"));
      assertThat(deserializer.deserialize("a.events", payload)).hasToString("{\"name\": \"ada\"}");
      RecordedRequest byId = server.takeRequest(5, TimeUnit.SECONDS);
      assertThat(byId.getUrl().encodedPath()).isEqualTo("/schemas/ids/5");
      assertThat(byId.getUrl().queryParameter("subject")).isEqualTo(":.a:");
    }
  }

  private static MockResponse json(String body) {
    return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body(body).build();
  }
}
