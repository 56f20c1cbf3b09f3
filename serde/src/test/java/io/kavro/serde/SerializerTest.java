package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.CompatibilityLevel;
import io.kavro.registry.RegistryUnavailableException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.test.specific.Customer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SerializerTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"}]}""");
  private static final Schema ORDER_V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
        {"name":"note","type":"string","default":""}]}""");

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord order(long id) {
    GenericRecord record = new GenericData.Record(ORDER);
    record.put("id", id);
    return record;
  }

  @Test
  void topicNameStrategy_default_valueAndKeySubjects() {
    serdes.serializer().serialize("orders", order(1));
    serdes.keySerializer().serialize("orders", "k");

    assertThat(serdes.registry().subjects()).containsExactlyInAnyOrder("orders-value", "orders-key");
  }

  @Test
  void recordNameStrategy_subjectIsFullName() {
    serdes.serializer("value.subject.name.strategy", "io.kavro.serde.subject.RecordNameStrategy")
        .serialize("orders", order(1));

    assertThat(serdes.registry().subjects()).containsExactly("com.acme.Order");
  }

  @Test
  void topicRecordNameStrategy_confluentAlias() {
    serdes.serializer("value.subject.name.strategy", "io.confluent.kafka.serializers.subject.TopicRecordNameStrategy")
        .serialize("orders", order(1));

    assertThat(serdes.registry().subjects()).containsExactly("orders-com.acme.Order");
  }

  @Test
  void strategy_unknownClass_configError() {
    assertThatThrownBy(() -> serdes.serializer("value.subject.name.strategy", "com.nope.Strategy"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("value.subject.name.strategy")
        .hasMessageContaining("class not found");
    assertThatThrownBy(() -> serdes.serializer("value.subject.name.strategy", "java.lang.String"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("does not implement");
  }

  @Test
  void autoRegisterOff_registeredSchema_usesItsId() {
    int id = serdes.registry().register("orders-value", ORDER);

    byte[] bytes = serdes.serializer("auto.register.schemas", false).serialize("orders", order(1));

    assertThat(WireFormat.schemaId(java.nio.ByteBuffer.wrap(bytes))).isEqualTo(id);
  }

  @Test
  void autoRegisterOff_absentSchema_clearError() {
    assertThatThrownBy(() -> serdes.serializer("auto.register.schemas", false).serialize("orders", order(1)))
        .isInstanceOf(SchemaRegistrationException.class)
        .hasMessageContaining("subject 'orders-value'")
        .hasMessageContaining("auto.register.schemas=false");
    assertThat(serdes.registry().subjects()).isEmpty();
  }

  @Test
  void incompatibleSchema_registrationError() {
    SchemaRegistryClient registry = serdes.registry();
    registry.setCompatibility("orders-value", CompatibilityLevel.BACKWARD);
    registry.register("orders-value", ORDER);
    Schema breaking = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"string"}]}""");
    GenericRecord record = new GenericData.Record(breaking);
    record.put("id", "x");

    assertThatThrownBy(() -> serdes.serializer().serialize("orders", record))
        .isInstanceOf(SchemaRegistrationException.class)
        .hasMessageContaining("incompatible");
  }

  @Test
  void useLatestVersion_sameSchema_writesLatestId() {
    SchemaRegistryClient registry = serdes.registry();
    registry.register("orders-value", ORDER);
    int latest = registry.register("orders-value", ORDER_V2);
    GenericRecord v2 = new GenericData.Record(ORDER_V2);
    v2.put("id", 3L);
    v2.put("note", "n");

    byte[] bytes = serdes.serializer("use.latest.version", true, "auto.register.schemas", false)
        .serialize("orders", v2);

    assertThat(WireFormat.schemaId(java.nio.ByteBuffer.wrap(bytes))).isEqualTo(latest);
  }

  @Test
  void useLatestVersion_olderDatum_projectedOntoLatest() {
    SchemaRegistryClient registry = serdes.registry();
    int latest = registry.register("orders-value", ORDER_V2);

    byte[] bytes = serdes.serializer("use.latest.version", true, "auto.register.schemas", false)
        .serialize("orders", order(9));

    assertThat(WireFormat.schemaId(java.nio.ByteBuffer.wrap(bytes))).isEqualTo(latest);
    GenericRecord read = (GenericRecord) serdes.deserializer().deserialize("orders", bytes);
    assertThat(read.getSchema()).isEqualTo(ORDER_V2);
    assertThat(read.get("id")).isEqualTo(9L);
    assertThat(read.get("note").toString()).isEmpty();
  }

  @Test
  void useLatestVersion_datumDoesNotFit_clearError() {
    Schema other = new Schema.Parser().parse("""
        {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"sku","type":"string"}]}""");
    serdes.registry().register("orders-value", other);

    assertThatThrownBy(() -> serdes.serializer("use.latest.version", true, "auto.register.schemas", false)
        .serialize("orders", order(1)))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("does not fit the latest schema of subject 'orders-value'");
  }

  @Test
  void unsupportedType_namesClass() {
    assertThatThrownBy(() -> serdes.serializer().serialize("t", new java.util.Date()))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("java.util.Date")
        .hasMessageContaining("schema.reflection=true");
  }

  @Test
  void datumNotMatchingItsSchema_namesTopicAndClass() {
    GenericRecord broken = new GenericData.Record(ORDER);
    broken.put("id", "not a long");

    assertThatThrownBy(() -> serdes.serializer().serialize("orders", broken))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("value of topic 'orders'")
        .hasMessageContaining("GenericData$Record does not match its schema com.acme.Order");
  }

  @Test
  void registryDown_retriableException() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    KafkaAvroSerializer serializer = new KafkaAvroSerializer();
    serializer.configure(Map.of("schema.registry.url", "http://127.0.0.1:" + closedPort, "max.retries", 0), false);

    assertThatThrownBy(() -> serializer.serialize("orders", order(1)))
        .isInstanceOf(RetriableException.class)
        .isInstanceOf(RetriableSerdeException.class)
        .hasCauseInstanceOf(RegistryUnavailableException.class)
        .hasMessageContaining("value of topic 'orders'")
        .hasMessageContaining("schema registry unavailable");
  }

  @Test
  void steadyState_zeroRegistryRequestsPerRecord() {
    KafkaAvroSerializer serializer = serdes.serializer();
    KafkaAvroDeserializer deserializer = serdes.deserializer("specific.avro.reader", true);
    Customer customer = DeserializerTest.customer();
    byte[] bytes = serializer.serialize("customers", customer);
    deserializer.deserialize("customers", bytes);
    long warm = serdes.registryRequests();

    for (int i = 0; i < 10_000; i++) {
      deserializer.deserialize("customers", serializer.serialize("customers", customer));
    }

    assertThat(serdes.registryRequests()).isEqualTo(warm);
  }

  /**
   * Issue 51, item 5: Confluent's inline validation rules run with kavro-rules, which this module's tests lack: asking
   * for them fails the configure naming the artifact; a validator class that is not one is refused by name.
   */
  @Test
  void validationRulesExecution_withoutKavroRules_configErrorNamingIt_disabledAccepted() {
    for (String when : new String[] {"BEFORE_DOMAIN_RULES", "after_domain_rules"}) {
      assertThatThrownBy(() -> serdes.serializer("validation.rules.execution", when))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("validation.rules.execution").hasMessageContaining("io.kavro:kavro-rules");
    }
    assertThatThrownBy(() -> serdes.serializer("validation.rules.execution", "AFTER_DOMAIN_RULES",
        "validation.rules.executor.class", "java.lang.String"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("validation.rules.executor.class").hasMessageContaining("java.lang.String");
    assertThatThrownBy(() -> serdes.serializer("validation.rules.execution", "SOMETIMES"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("validation.rules.execution");
    serdes.serializer("validation.rules.execution", "disabled", "validation.rules.fail.fast", "true")
        .serialize("orders", order(1));
  }

  @Test
  void notConfigured_clearError() {
    assertThatThrownBy(() -> new KafkaAvroSerializer().serialize("t", "x"))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("configure");
  }

  @Test
  void missingRegistryUrl_configError() {
    assertThatThrownBy(() -> new KafkaAvroSerializer().configure(Map.of(), false))
        .isInstanceOf(ConfigException.class).hasMessageContaining("schema.registry.url");
  }

  @Test
  void providedClient_noUrlNeeded() {
    SchemaRegistryClient client = serdes.registry();
    KafkaAvroSerializer serializer = new KafkaAvroSerializer(client, Map.of(), false);
    KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer(client, Map.of(), false);

    assertThat(deserializer.deserialize("t", serializer.serialize("t", order(5)))).isEqualTo(order(5));
  }
}
