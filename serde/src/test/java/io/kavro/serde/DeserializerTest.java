package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.test.specific.Address;
import io.kavro.test.specific.Customer;
import io.kavro.test.specific.Tier;
import io.kavro.test.specific.Zip;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeserializerTest {
  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  static Customer customer() {
    return Customer.newBuilder()
        .setId(42L)
        .setName("Ada")
        .setEmail("ada@example.com")
        .setTier(Tier.GOLD)
        .setBalance(new BigDecimal("1234.50"))
        .setSince(LocalDate.of(2020, 2, 29))
        .setUpdated(Instant.ofEpochMilli(1_700_000_000_123L))
        .setTags(List.of("a", "b"))
        .setAddress(new Address("Main St 1", new Zip(new byte[] {1, 2, 3, 4, 5})))
        .build();
  }

  /**
   * A null topic (Kafka's clients never pass one; tools and tests may) is read and written as Confluent's serde does,
   * its subject {@code null-value}: never a NullPointerException from the per-topic tables, whether routes are shared
   * by id or kept per topic ({@code use.latest.version}).
   */
  @Test
  void aNullTopic_roundTrips_asConfluentsSerdeDoes() {
    byte[] bytes = serdes.serializer().serialize(null, customer());

    assertThat(serdes.deserializer("specific.avro.reader", true).deserialize(null, bytes)).isEqualTo(customer());
    assertThat(serdes.deserializer("specific.avro.reader", true, "use.latest.version", true)
        .deserialize(null, bytes)).isEqualTo(customer());
    assertThat(serdes.registry().subjects()).contains("null-value");
  }

  @Test
  void specificRecord_roundTripsAsSpecific() {
    byte[] bytes = serdes.serializer().serialize("customers", customer());

    Object read = serdes.deserializer("specific.avro.reader", true).deserialize("customers", bytes);

    assertThat(read).isInstanceOf(Customer.class).isEqualTo(customer());
  }

  @Test
  void specificRecord_readAsGeneric_withLogicalTypes() {
    byte[] bytes = serdes.serializer().serialize("customers", customer());

    GenericRecord read = (GenericRecord) serdes.deserializer("avro.use.logical.type.converters", true)
        .deserialize("customers", bytes);

    assertThat(read.get("name")).hasToString("Ada");
    assertThat(read.get("balance")).isEqualTo(new BigDecimal("1234.50"));
    assertThat(read.get("since")).isEqualTo(LocalDate.of(2020, 2, 29));
    assertThat(read.get("updated")).isEqualTo(Instant.ofEpochMilli(1_700_000_000_123L));
  }

  @Test
  void logicalTypeConvertersOffByDefault_rawValues_likeConfluentAndAvro() {
    byte[] bytes = serdes.serializer().serialize("customers", customer());

    // Confluent's and Avro's default: a consumer migrated with (Long) record.get("updated") keeps working.
    GenericRecord read = (GenericRecord) serdes.deserializer().deserialize("customers", bytes);

    assertThat(read.get("since")).isEqualTo((int) LocalDate.of(2020, 2, 29).toEpochDay());
    assertThat(read.get("updated")).isEqualTo(1_700_000_000_123L);
    assertThat(read.get("balance")).isInstanceOf(ByteBuffer.class);
  }

  @Test
  void uuidLogicalType_readAsUuid() {
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"U","fields":[{"name":"id","type":{"type":"string","logicalType":"uuid"}}]}""");
    GenericRecord record = new GenericData.Record(schema);
    UUID id = UUID.randomUUID();
    record.put("id", id);

    GenericRecord read = (GenericRecord) serdes.deserializer("avro.use.logical.type.converters", true)
        .deserialize("t", serdes.serializer("avro.use.logical.type.converters", true).serialize("t", record));

    assertThat(read.get("id")).isEqualTo(id);
  }

  @Test
  void specificReader_classNotOnClasspath_clearError() {
    Schema schema = new Schema.Parser().parse("""
        {"type":"record","name":"Missing","namespace":"no.such","fields":[{"name":"a","type":"int"}]}""");
    GenericRecord record = new GenericData.Record(schema);
    record.put("a", 1);
    byte[] bytes = serdes.serializer().serialize("t", record);

    assertThatThrownBy(() -> serdes.deserializer("specific.avro.reader", true).deserialize("t", bytes))
        .isInstanceOf(SchemaResolutionException.class)
        .hasMessageContaining("no.such.Missing")
        .hasMessageContaining("specific.avro.value.type");
  }

  /**
   * A generated class that fails to link or initialize is a deployment fault that fails every record alike: not a
   * corrupt record (which applications skip), on the first record and on those after it.
   */
  @Test
  void aGeneratedClassThatFailsToLink_isNoCorruptRecord() {
    GenericRecord record = new GenericData.Record(UnlinkedRecord.SCHEMA$);
    record.put("count", 7);
    byte[] bytes = serdes.serializer().serialize("t", record);
    KafkaAvroDeserializer deserializer = serdes.deserializer("specific.avro.reader", true);

    // The first failure alone carries the initializer's reason: its message names it.
    assertThatThrownBy(() -> deserializer.deserialize("t", bytes)).isInstanceOf(SchemaResolutionException.class)
        .hasMessageContaining("ExceptionInInitializerError").hasMessageContaining("a library missing at run time");
    assertThatThrownBy(() -> deserializer.deserialize("t", bytes)).isInstanceOf(SchemaResolutionException.class)
        .hasMessageContaining("NoClassDefFoundError");
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> deserializer.deserialize("t", bytes))
          .isInstanceOf(SchemaResolutionException.class).hasMessageContaining("io.kavro.serde.UnlinkedRecord")
          .hasMessageContaining("failed to link or initialize").hasMessageNotContaining("corrupt Avro body");
    }
  }

  @Test
  void specificType_configured_usedWhateverTheWriterName() {
    byte[] bytes = serdes.serializer().serialize("customers", customer());

    Object read = serdes.deserializer("specific.avro.reader", true,
        "specific.avro.value.type", Customer.class.getName()).deserialize("customers", bytes);

    assertThat(read).isEqualTo(customer());
  }

  @Test
  void primitives_roundTrip() {
    KafkaAvroSerializer serializer = serdes.serializer();
    KafkaAvroDeserializer deserializer = serdes.deserializer();
    for (Object value : List.of("text", 7, 7L, 1.5f, 2.5d, true)) {
      String topic = "p-" + value.getClass().getSimpleName();
      Object read = deserializer.deserialize(topic, serializer.serialize(topic, value));
      assertThat(read.toString()).isEqualTo(value.toString());
      assertThat(read).isInstanceOfAny(value.getClass(), Utf8.class);
    }
    assertThat((ByteBuffer) deserializer.deserialize("p", serializer.serialize("p", new byte[] {1, 2})))
        .isEqualTo(ByteBuffer.wrap(new byte[] {1, 2}));
  }

  @Test
  void nullPayload_null() {
    assertThat(serdes.deserializer().deserialize("t", (byte[]) null)).isNull();
    assertThat(serdes.deserializer().deserialize("t", null, (ByteBuffer) null)).isNull();
  }

  @Test
  void byteBuffer_heapWindowAndDirect_readInPlaceWithoutMovingPosition() {
    byte[] bytes = serdes.serializer().serialize("t", "hello");
    byte[] padded = new byte[bytes.length + 6];
    System.arraycopy(bytes, 0, padded, 3, bytes.length);
    ByteBuffer window = ByteBuffer.wrap(padded, 3, bytes.length).slice();
    ByteBuffer offsetWindow = ByteBuffer.wrap(padded, 3, bytes.length);
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    KafkaAvroDeserializer deserializer = serdes.deserializer();

    assertThat(deserializer.deserialize("t", null, window).toString()).isEqualTo("hello");
    assertThat(deserializer.deserialize("t", null, offsetWindow).toString()).isEqualTo("hello");
    assertThat(deserializer.deserialize("t", null, direct).toString()).isEqualTo("hello");
    assertThat(offsetWindow.position()).isEqualTo(3);
    assertThat(direct.position()).isZero();
  }

  @Test
  void emptyPayload_malformedNamingTopicSideAndLength() {
    assertThatThrownBy(() -> serdes.deserializer().deserialize("orders", new byte[0]))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("value of topic 'orders'")
        .hasMessageContaining("0 bytes")
        .hasMessageContaining("shorter than the 5-byte header");
  }

  @Test
  void shortPayload_malformed() {
    assertThatThrownBy(() -> serdes.deserializer().deserialize("orders", new byte[] {0, 0, 1}))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("3 bytes");
  }

  @Test
  void unknownMagicByte_malformed() {
    // 0x01 is Confluent 8's GUID prefix (SchemaIdHeadersTest); 0x02 is no magic byte of anyone's.
    assertThatThrownBy(() -> serdes.deserializer().deserialize("orders", new byte[] {2, 0, 0, 0, 1, 2}))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("unknown magic byte 0x02");
  }

  @Test
  void unknownSchemaId_typedErrorNamingId() {
    assertThatThrownBy(() -> serdes.deserializer().deserialize("orders", new byte[] {0, 0, 0, 0x30, 0x39, 2}))
        .isInstanceOf(UnknownSchemaIdException.class)
        .hasMessageContaining("value of topic 'orders' (schema id 12345, 6 bytes)");
  }

  @Test
  void unknownSchemaId_withMissingIdTtl_sameTypedErrorWithoutAskingAgain() {
    KafkaAvroDeserializer deserializer = serdes.deserializer("missing.id.cache.ttl.sec", 60);
    byte[] unknown = {0, 0, 0, 0x30, 0x39, 2};

    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(() -> deserializer.deserialize("orders", unknown))
          .isInstanceOf(UnknownSchemaIdException.class)
          .hasMessageContaining("schema id 12345");
    }
    // The id, once; and once the topic's association (the default strategy names the subject, whose context the id
    // is read in, as Confluent's deserializer does).
    assertThat(serdes.registryRequests()).isEqualTo(2);
  }

  @Test
  void trailingBytes_malformed() {
    byte[] bytes = serdes.serializer().serialize("t", "x");
    byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 2);

    assertThatThrownBy(() -> serdes.deserializer().deserialize("t", longer))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("2 trailing byte(s)")
        .hasMessageContaining("schema id 1");
  }

  @Test
  void trailingBytes_ignoredWithConfluentsDefault_avroFailOnTrailingDataFalse() {
    byte[] bytes = serdes.serializer().serialize("t", "x");
    byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 2);

    assertThat(serdes.deserializer("avro.fail.on.trailing.data", false).deserialize("t", longer)).hasToString("x");
  }

  @Test
  void truncatedBody_malformed() {
    byte[] bytes = serdes.serializer().serialize("customers", customer());
    byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 3);

    assertThatThrownBy(() -> serdes.deserializer().deserialize("customers", truncated))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("truncated or corrupt")
        .hasMessageContaining((bytes.length - 3) + " bytes");
  }

  @Test
  void hugeLengthPrefix_failsWithoutAllocating() {
    byte[] header = serdes.serializer().serialize("t", "x");
    // A string length of 2^31 - 1 bytes in a 10-byte payload.
    byte[] corrupt = {header[0], header[1], header[2], header[3], header[4], (byte) 0xfe, (byte) 0xff,
        (byte) 0xff, (byte) 0xff, 0x0f};

    assertThatThrownBy(() -> serdes.deserializer().deserialize("t", corrupt))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("exceeds");
  }

  @Test
  void notConfigured_clearError() {
    assertThatThrownBy(() -> new KafkaAvroDeserializer().deserialize("t", new byte[5]))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("configure");
  }

  @Test
  void close_idempotent() {
    KafkaAvroDeserializer deserializer = serdes.deserializer();
    deserializer.close();
    deserializer.close();
  }

  /** Framed: the datum as Avro's specific writer writes it with {@code schema}, registered under the subject. */
  private byte[] framed(String subject, Schema schema, Object datum) throws java.io.IOException {
    int id = serdes.registry().register(subject, schema);
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    out.write(ByteBuffer.allocate(5).put((byte) 0).putInt(id).array());
    org.apache.avro.io.BinaryEncoder encoder = org.apache.avro.io.EncoderFactory.get().binaryEncoder(out, null);
    new org.apache.avro.specific.SpecificDatumWriter<>(schema).write(datum, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  /**
   * Issue 23, item 2: a multi-event topic, its schema a union of records, and arrays and maps of records, read
   * with specific.avro.reader=true into the generated classes (they were GenericRecords), logical types
   * converted as the classes have them.
   */
  @Test
  void unionArrayAndMapOfRecords_readAsTheGeneratedClasses() throws Exception {
    Schema events = Schema.createUnion(Customer.getClassSchema(), Address.getClassSchema());
    Address address = new Address("Main St", new Zip(new byte[] {1, 2, 3, 4, 5}));
    KafkaAvroDeserializer specific = serdes.deserializer("specific.avro.reader", true);

    assertThat(specific.deserialize("events", framed("events-value", events, customer())))
        .isInstanceOf(Customer.class).isEqualTo(customer());
    assertThat(specific.deserialize("events", framed("events-value", events, address)))
        .isInstanceOf(Address.class).isEqualTo(address);
    assertThat(specific.deserialize("batches", framed("batches-value",
        Schema.createArray(Customer.getClassSchema()), List.of(customer(), customer()))))
        .asList().containsExactly(customer(), customer());
    assertThat(specific.deserialize("by-id", framed("by-id-value",
        Schema.createMap(Address.getClassSchema()), java.util.Map.of("a", address))))
        .isEqualTo(java.util.Map.of(new Utf8("a"), address));
  }

  /**
   * A union member with no generated class reads as a GenericRecord, as with Confluent's deserializer, and the
   * others still as their classes; a member whose name is a class that is not generated is refused.
   */
  @Test
  void unionMemberWithoutAGeneratedClass_readGeneric_aClassThatIsNotGenerated_refused() throws Exception {
    Schema other = new Schema.Parser().parse("""
        {"type":"record","name":"Unknown","namespace":"com.acme","fields":[{"name":"x","type":"int"}]}""");
    Schema events = Schema.createUnion(Customer.getClassSchema(), other);
    GenericRecord unknown = new GenericData.Record(other);
    unknown.put("x", 7);
    KafkaAvroDeserializer specific = serdes.deserializer("specific.avro.reader", true);

    assertThat(specific.deserialize("mixed", framed("mixed-value", events, customer()))).isEqualTo(customer());
    assertThat(specific.deserialize("mixed", framed("mixed-value", events, unknown)))
        .isInstanceOf(GenericRecord.class).hasToString("{\"x\": 7}");

    Schema notGenerated = new Schema.Parser().parse("""
        {"type":"record","name":"Page","namespace":"com.example","fields":[{"name":"title","type":"string"}]}""");
    GenericRecord page = new GenericData.Record(notGenerated);
    page.put("title", "t");
    byte[] bytes = framed("pages-value", Schema.createUnion(Customer.getClassSchema(), notGenerated), page);
    assertThatThrownBy(() -> specific.deserialize("pages", bytes))
        .isInstanceOf(SchemaResolutionException.class).hasMessageContaining("com.example.Page is not a generated");
  }

  /**
   * Issue 23, item 3, in part: the multi-event recipe without references. A topic's latest schema is a union of
   * event records; producers with auto.register.schemas=false and use.latest.version=true write any member (the
   * serializer finds its branch, as Confluent's does), a record in no branch is refused, and a consumer reads each
   * as its generated class.
   */
  @Test
  void unionTopic_latestVersion_writesAnyMember_readsEachAsItsClass() {
    Schema events = Schema.createUnion(Customer.getClassSchema(), Address.getClassSchema());
    int id = serdes.registry().register("events-value", events);
    KafkaAvroSerializer producer = serdes.serializer("auto.register.schemas", false, "use.latest.version", true);
    Address address = new Address("Main St", new Zip(new byte[] {1, 2, 3, 4, 5}));
    KafkaAvroDeserializer consumer = serdes.deserializer("specific.avro.reader", true);

    byte[] customerBytes = producer.serialize("events", customer());
    byte[] addressBytes = producer.serialize("events", address);

    assertThat(ByteBuffer.wrap(customerBytes, 1, 4).getInt()).isEqualTo(id);
    assertThat(customerBytes[5]).as("union branch 0").isEqualTo((byte) 0);
    assertThat(addressBytes[5]).as("union branch 1").isEqualTo((byte) 2);
    assertThat(consumer.deserialize("events", customerBytes)).isEqualTo(customer());
    assertThat(consumer.deserialize("events", addressBytes)).isEqualTo(address);
    GenericRecord stranger = new GenericData.Record(new Schema.Parser().parse("""
        {"type":"record","name":"Stranger","fields":[{"name":"x","type":"int"}]}"""));
    stranger.put("x", 1);
    assertThatThrownBy(() -> producer.serialize("events", stranger))
        .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
        .hasMessageContaining("Stranger does not fit the latest schema of subject 'events-value'");
  }
}
