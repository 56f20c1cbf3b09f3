package io.kavro.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.SchemaRegistryClient;
import io.kavro.registry.factory.SchemaRegistryClients;
import io.kavro.registry.mock.MockRegistries;
import io.kavro.serde.KafkaAvroDeserializer;
import io.kavro.serde.KafkaAvroSerializer;
import io.kavro.serde.WireFormat;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The schema id translation on records as MirrorMaker 2 hands them to a transform (bytes, headers as bytes), between
 * two in-memory registries whose ids for the same schema differ: what the target registry alone reads back.
 */
class SchemaIdTranslationTest {
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[{"name":"id","type":"long"},
       {"name":"note","type":"string"}]}""");
  private static final Schema FILLER = new Schema.Parser().parse("""
      {"type":"record","name":"Filler","fields":[{"name":"x","type":"int"}]}""");

  private final String source = "mock://translate-source-" + UUID.randomUUID();
  private final String target = "mock://translate-target-" + UUID.randomUUID();

  @AfterEach
  void drop() {
    MockRegistries.drop(source.substring("mock://".length()));
    MockRegistries.drop(target.substring("mock://".length()));
  }

  private static GenericRecord order(long id) {
    GenericRecord order = new GenericData.Record(ORDER);
    order.put("id", id);
    order.put("note", "n" + id);
    return order;
  }

  private SchemaIdTranslation<SourceRecord> transform(Object... extra) {
    Map<String, Object> config = new HashMap<>(Map.of("source.schema.registry.url", source,
        "target.schema.registry.url", target));
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    SchemaIdTranslation<SourceRecord> transform = new SchemaIdTranslation.Value<>();
    transform.configure(config);
    return transform;
  }

  /** The target registry gives the same schema another id: one schema registered there before. */
  private void shiftTargetIds() {
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url", target))) {
      registry.register("other-value", FILLER);
    }
  }

  private byte[] serialize(String registry, GenericRecord record, RecordHeaders headers, Object... extra) {
    Map<String, Object> config = new HashMap<>(Map.of("schema.registry.url", registry));
    for (int i = 0; i < extra.length; i += 2) {
      config.put((String) extra[i], extra[i + 1]);
    }
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(config, false);
      return serializer.serialize("orders", headers, record);
    }
  }

  private Object readOnTarget(SourceRecord record) {
    RecordHeaders headers = new RecordHeaders();
    record.headers().forEach(header -> headers.add(header.key(), (byte[]) header.value()));
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(Map.of("schema.registry.url", target), false);
      return deserializer.deserialize(record.topic(), headers, (byte[]) record.value());
    }
  }

  private static SourceRecord mirrored(byte[] value, ConnectHeaders headers) {
    org.apache.kafka.connect.data.Schema bytes = org.apache.kafka.connect.data.Schema.OPTIONAL_BYTES_SCHEMA;
    return new SourceRecord(Map.of(), Map.of(), "src.orders", 0, bytes, "k".getBytes(), bytes, value, 1L, headers);
  }

  @Test
  void prefix_getsTheTargetsId_underTheMirroredTopicsSubject_bodyUntouched() {
    shiftTargetIds();
    byte[] written = serialize(source, order(1), new RecordHeaders());
    SchemaIdTranslation<SourceRecord> transform = transform();

    SourceRecord translated = transform.apply(mirrored(written, new ConnectHeaders()));

    byte[] bytes = (byte[]) translated.value();
    int targetId = WireFormat.schemaId(ByteBuffer.wrap(bytes));
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url", target))) {
      assertThat(registry.lookup("src.orders-value", ORDER).id()).isEqualTo(targetId);
    }
    assertThat(targetId).isNotEqualTo(WireFormat.schemaId(ByteBuffer.wrap(written)));
    assertThat(java.util.Arrays.copyOfRange(bytes, 5, bytes.length))
        .isEqualTo(java.util.Arrays.copyOfRange(written, 5, written.length));
    assertThat(readOnTarget(translated)).isEqualTo(order(1));
    assertThat(translated.key()).isEqualTo("k".getBytes());
    transform.close();
  }

  /** A value as a ByteBuffer (a converter other than ByteArrayConverter may give one) is read from its position. */
  @Test
  void byteBufferValue_translatedToBytes() {
    shiftTargetIds();
    byte[] written = serialize(source, order(6), new RecordHeaders());
    ByteBuffer buffer = ByteBuffer.allocate(written.length + 3);
    buffer.put(new byte[] {9, 9, 9}).put(written).flip().position(3);
    org.apache.kafka.connect.data.Schema bytes = org.apache.kafka.connect.data.Schema.OPTIONAL_BYTES_SCHEMA;

    SourceRecord translated = transform().apply(new SourceRecord(Map.of(), Map.of(), "src.orders", 0, bytes, null,
        bytes, buffer, 1L, new ConnectHeaders()));

    assertThat(readOnTarget(translated)).isEqualTo(order(6));
    assertThat(buffer.position()).as("the record's buffer is left as it was").isEqualTo(3);
  }

  @Test
  void eachSourceId_askedOnce() {
    shiftTargetIds();
    SchemaIdTranslation<SourceRecord> transform = transform();
    java.util.List<byte[]> written = new java.util.ArrayList<>();
    for (int i = 0; i < 50; i++) {
      written.add(serialize(source, order(i), new RecordHeaders()));
    }
    transform.apply(mirrored(written.get(0), new ConnectHeaders()));
    long sourceRequests = MockRegistries.scope(source.substring(7)).stats().requests();
    long targetRequests = MockRegistries.scope(target.substring(7)).stats().requests();

    java.util.List<SourceRecord> translated = new java.util.ArrayList<>();
    for (int i = 1; i < 50; i++) {
      translated.add(transform.apply(mirrored(written.get(i), new ConnectHeaders())));
    }

    assertThat(MockRegistries.scope(source.substring(7)).stats().requests()).isEqualTo(sourceRequests);
    assertThat(MockRegistries.scope(target.substring(7)).stats().requests()).isEqualTo(targetRequests);
    for (int i = 1; i < 50; i++) {
      assertThat(readOnTarget(translated.get(i - 1))).isEqualTo(order(i));
    }
    transform.close();
  }

  @Test
  void guidHeader_staysAHeader_withTheTargetsGuid() {
    shiftTargetIds();
    RecordHeaders kafkaHeaders = new RecordHeaders();
    byte[] body = serialize(source, order(2), kafkaHeaders, "value.schema.id.serializer", "HeaderSchemaIdSerializer");
    ConnectHeaders headers = new ConnectHeaders();
    headers.addBytes("__value_schema_id", kafkaHeaders.lastHeader("__value_schema_id").value());
    headers.addBytes("trace", new byte[] {1, 2});

    SourceRecord translated = transform().apply(mirrored(body, headers));

    assertThat((byte[]) translated.value()).isEqualTo(body);
    byte[] header = (byte[]) translated.headers().lastWithName("__value_schema_id").value();
    assertThat(header[0]).isEqualTo(WireFormat.MAGIC_BYTE_GUID);
    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url", target))) {
      UUID targetGuid = registry.guidOf(registry.lookup("src.orders-value", ORDER).id());
      assertThat(header).isEqualTo(WireFormat.guidPrefix(targetGuid));
    }
    assertThat(translated.headers().size()).isEqualTo(2);
    assertThat(readOnTarget(translated)).isEqualTo(order(2));
  }

  /** A schema id header with a null value is absent, as the deserializer reads it: the prefix is translated. */
  @Test
  void nullIdHeader_isAbsent_thePrefixIsTranslated() {
    shiftTargetIds();
    byte[] written = serialize(source, order(7), new RecordHeaders());
    ConnectHeaders headers = new ConnectHeaders();
    headers.addBytes("__value_schema_id", null);

    SourceRecord translated = transform().apply(mirrored(written, headers));

    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url", target))) {
      assertThat(WireFormat.schemaId(ByteBuffer.wrap((byte[]) translated.value())))
          .isEqualTo(registry.lookup("src.orders-value", ORDER).id());
    }
    assertThat(translated.headers().lastWithName("__value_schema_id").value()).isNull();
    assertThat(readOnTarget(translated)).isEqualTo(order(7));
  }

  @Test
  void nullKeyIdHeader_isAbsent_theKeysPrefixIsTranslated() {
    shiftTargetIds();
    byte[] writtenKey;
    try (KafkaAvroSerializer serializer = new KafkaAvroSerializer()) {
      serializer.configure(Map.of("schema.registry.url", source), true);
      writtenKey = serializer.serialize("orders", order(8));
    }
    SchemaIdTranslation<SourceRecord> transform = new SchemaIdTranslation.Key<>();
    transform.configure(Map.of("source.schema.registry.url", source, "target.schema.registry.url", target));
    ConnectHeaders headers = new ConnectHeaders();
    headers.addBytes("__key_schema_id", null);
    org.apache.kafka.connect.data.Schema bytes = org.apache.kafka.connect.data.Schema.OPTIONAL_BYTES_SCHEMA;

    SourceRecord translated = transform.apply(new SourceRecord(Map.of(), Map.of(), "src.orders", 0, bytes,
        writtenKey, bytes, null, 1L, headers));

    try (SchemaRegistryClient registry = SchemaRegistryClients.create(Map.of("schema.registry.url", target))) {
      assertThat(WireFormat.schemaId(ByteBuffer.wrap((byte[]) translated.key())))
          .isEqualTo(registry.lookup("src.orders-key", ORDER).id());
    }
    try (KafkaAvroDeserializer deserializer = new KafkaAvroDeserializer()) {
      deserializer.configure(Map.of("schema.registry.url", target), true);
      assertThat(deserializer.deserialize("src.orders", (byte[]) translated.key())).isEqualTo(order(8));
    }
    transform.close();
  }

  /** 0x00 and more than an id (6 bytes), or a GUID's length (17) after 0x00: refused, naming the header's length. */
  @Test
  void idHeaderOfTheWrongLength_dataException_namingTheHeaderAndItsLength() {
    shiftTargetIds();
    byte[] body = serialize(source, order(9), new RecordHeaders());
    SchemaIdTranslation<SourceRecord> transform = transform();
    for (int length : new int[] {6, 17}) {
      byte[] value = new byte[length];
      value[4] = 1;
      ConnectHeaders headers = new ConnectHeaders();
      headers.addBytes("__value_schema_id", value);

      assertThatThrownBy(() -> transform.apply(mirrored(body, headers))).isInstanceOf(DataException.class)
          .hasMessageContaining("its __value_schema_id header holds " + length + " byte(s) starting 0x00")
          .hasMessageContaining("not a schema id (0x00 and 4 bytes) or GUID (0x01 and 16 bytes)");
    }
    transform.close();
  }

  @Test
  void tombstone_passes() {
    SourceRecord tombstone = mirrored(null, new ConnectHeaders());
    assertThat(transform().apply(tombstone)).isSameAs(tombstone);
  }

  @Test
  void cannotTranslate_dataException_forTheWorkersErrorHandling() {
    SchemaIdTranslation<SourceRecord> transform = transform();
    byte[] unknownId = ByteBuffer.allocate(6).put((byte) 0).putInt(4242).put((byte) 2).array();
    ConnectHeaders apicurio = new ConnectHeaders();
    apicurio.addBytes("apicurio.value.globalId", new byte[8]);

    assertThatThrownBy(() -> transform.apply(mirrored(unknownId, new ConnectHeaders())))
        .isInstanceOf(DataException.class).hasMessageContaining("schema id 4242");
    assertThatThrownBy(() -> transform.apply(mirrored(new byte[] {7, 1, 2}, new ConnectHeaders())))
        .isInstanceOf(DataException.class).hasMessageContaining("starts with 0x07");
    assertThatThrownBy(() -> transform.apply(mirrored(new byte[] {0, 0, 0, 0, 1}, apicurio)))
        .isInstanceOf(DataException.class).hasMessageContaining("apicurio.value.globalId");
    SourceRecord notBytes = new SourceRecord(Map.of(), Map.of(), "src.orders", 0, null, null, null, "text");
    assertThatThrownBy(() -> transform.apply(notBytes)).isInstanceOf(DataException.class)
        .hasMessageContaining("ByteArrayConverter");
  }

  @Test
  void lookUpOnly_subjectMissingInTheTarget_dataException() {
    byte[] written = serialize(source, order(3), new RecordHeaders());

    assertThatThrownBy(() -> transform("target.auto.register.schemas", false).apply(mirrored(written,
        new ConnectHeaders()))).isInstanceOf(DataException.class).hasMessageContaining("src.orders-value")
        .hasMessageContaining("auto.register.schemas");
  }

  @Test
  void registryDown_retriable() {
    byte[] written = serialize(source, order(4), new RecordHeaders());
    SchemaIdTranslation<SourceRecord> transform = transform("target.schema.registry.url", "http://127.0.0.1:1",
        "target.max.retries", 0);

    assertThatThrownBy(() -> transform.apply(mirrored(written, new ConnectHeaders())))
        .isInstanceOf(RetriableException.class).hasMessageContaining("unavailable");
  }

  @Test
  void configuration_needsBothRegistries() {
    SchemaIdTranslation<SourceRecord> transform = new SchemaIdTranslation.Value<>();
    assertThatThrownBy(() -> transform.configure(Map.of("source.schema.registry.url", source)))
        .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
        .hasMessageContaining("target.schema.registry.url");
  }

  /**
   * Connect logs a connector's settings at INFO through its transformations' definitions (AbstractConfig's values):
   * the registry URLs may hold {@code user:password@}, so they are typed as passwords, shown as {@code [hidden]}.
   */
  @Test
  void registryUrls_hiddenWhereConnectLogsTheSettings() {
    SchemaIdTranslation<SourceRecord> transform = new SchemaIdTranslation.Value<>();
    Map<String, String> props = Map.of("source.schema.registry.url", "https://mirror:s3cret@src.example:8081",
        "target.schema.registry.url", "https://mirror:s3cret@dst.example:8081");

    String logged = new org.apache.kafka.common.config.AbstractConfig(transform.config(), props, false).values()
        .toString();

    assertThat(logged).doesNotContain("s3cret").doesNotContain("example").contains("[hidden]");
  }
}
