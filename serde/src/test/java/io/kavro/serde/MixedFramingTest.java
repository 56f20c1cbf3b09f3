package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.registry.ApicurioId;
import io.kavro.registry.SchemaNotFoundException;
import io.kavro.registry.SchemaRegistryClient;
import io.kavro.serde.framing.FramingResolver;
import io.kavro.serde.framing.SchemaIdPrefix;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Records whose id header and payload prefix could both be their framing: a header left over from the record a
 * Streams app read (Kafka Streams forwards headers; Confluent's and Apicurio's prefix serializers keep them), or a
 * header-framed body that starts with {@code 0x00}. Ids collide on purpose: Apicurio's global id 1 and Confluent's
 * schema id 1 name different schemas. Whatever {@code avro.fail.on.trailing.data} says, no record is decoded under
 * a schema its producer did not use.
 */
class MixedFramingTest {
  /** Kavro's record, id 1 in the Confluent-compatible API. */
  private static final Schema ORDER = new Schema.Parser().parse("""
      {"type":"record","name":"Order","namespace":"com.acme","fields":[
        {"name":"id","type":"long"},{"name":"item","type":"string"}]}""");
  /** The schema of Apicurio's global id 1: reads the first bytes of {@code 00 00 00 00 01 ...} as a datum. */
  private static final Schema NOTE = new Schema.Parser().parse("""
      {"type":"record","name":"Note","fields":[{"name":"id","type":"int"},{"name":"note","type":"string"}]}""");
  /** Reads any run of six one-byte varints, a prefix included. */
  private static final Schema SIX_INTS = new Schema.Parser().parse("""
      {"type":"record","name":"Six","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"},
        {"name":"c","type":"int"},{"name":"d","type":"int"},{"name":"e","type":"int"},{"name":"f","type":"int"}]}""");

  /** Reads any run of seven one-byte varints. */
  private static final Schema SEVEN_INTS = new Schema.Parser().parse("""
      {"type":"record","name":"Seven","fields":[{"name":"a","type":"int"},{"name":"b","type":"int"},
        {"name":"c","type":"int"},{"name":"d","type":"int"},{"name":"e","type":"int"},{"name":"f","type":"int"},
        {"name":"g","type":"int"}]}""");

  private final Serdes serdes = new Serdes();
  private final Map<ApicurioId, Schema> apicurio = new ConcurrentHashMap<>();

  @AfterEach
  void close() {
    serdes.close();
  }

  private SchemaRegistryClient client() {
    SchemaRegistryClient registry = serdes.registry();
    return (SchemaRegistryClient) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {SchemaRegistryClient.class}, (proxy, method, args) -> {
          if (method.getName().equals("schemaByApicurioId")) {
            Schema schema = apicurio.get((ApicurioId) args[0]);
            if (schema == null) {
              throw new SchemaNotFoundException("no " + args[0], 404, 40403, "test", null);
            }
            return schema;
          }
          try {
            return method.invoke(registry, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private KafkaAvroDeserializer deserializer(Object... keyValues) {
    return new KafkaAvroDeserializer(client(), serdes.config(keyValues), false);
  }

  private static GenericRecord order(long id, String item) {
    GenericRecord record = new GenericData.Record(ORDER);
    record.put("id", id);
    record.put("item", item);
    return record;
  }

  private static Headers globalIdHeader(long id) {
    return new RecordHeaders().add("apicurio.value.globalId", ByteBuffer.allocate(8).putLong(id).array());
  }

  /** Kavro's record {@code 00 00 00 00 01} + body, with the schema registered as id 1. */
  private byte[] confluentFramed(GenericRecord order) {
    byte[] framed = serdes.serializer().serialize("orders", order);
    assertThat(framed).startsWith(0, 0, 0, 0, 1);
    return framed;
  }

  /** The record: a stale Apicurio header on a Confluent-framed record reads as its producer wrote it. */
  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void staleApicurioHeader_onAPrefixedRecord_readsThePrefix(boolean failOnTrailingData) {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 1), NOTE);
    byte[] framed = confluentFramed(order(21, "tea"));

    Object read = deserializer("avro.fail.on.trailing.data", failOnTrailingData)
        .deserialize("orders", globalIdHeader(1), framed);

    assertThat(read).isEqualTo(order(21, "tea"));
  }

  @Test
  void staleConfluentHeader_onAPrefixedRecord_readsThePrefix() {
    byte[] framed = confluentFramed(order(21, "tea"));
    int noteId = serdes.registry().register("notes-value", NOTE);
    Headers stale = new RecordHeaders().add("__value_schema_id", WireFormat.idPrefix(noteId));

    Object read = deserializer("avro.fail.on.trailing.data", false).deserialize("orders", stale, framed);

    assertThat(read).isEqualTo(order(21, "tea"));
  }

  /** A header-framed body that starts with {@code 0x00}, whose "prefix" names no schema: the header's framing. */
  @Test
  void headerFramedBody_startingWithZero_readsTheHeader_askingTheRegistryOnce() {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 1), SIX_INTS);
    KafkaAvroDeserializer deserializer = deserializer();
    byte[] body = {0, 0, 0, 0, 9, 4}; // a=0 ... e=-5, f=2; as a prefix: schema id 9, unknown
    long before = serdes.registryRequests();

    GenericRecord first = (GenericRecord) deserializer.deserialize("orders", globalIdHeader(1), body);
    GenericRecord second = (GenericRecord) deserializer.deserialize("orders", globalIdHeader(1), body);

    assertThat(first.get("e")).isEqualTo(-5);
    assertThat(second.get("f")).isEqualTo(2);
    // Schema id 9 once, and once the topic's association, whose subject's context the id is read in.
    assertThat(serdes.registryRequests() - before).as("schema id 9 asked once").isEqualTo(2);
  }

  /** The "prefix" names a known schema, but the body does not read under it: the header's framing. */
  @Test
  void headerFramedBody_whosePrefixNamesAKnownSchemaItDoesNotFit_readsTheHeader() {
    confluentFramed(order(1, "x")); // registers id 1
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 1), SIX_INTS);
    byte[] body = {0, 0, 0, 0, 1, 0x7f}; // under Order: id -64, then a string of 0 bytes... and no end: corrupt

    GenericRecord read = (GenericRecord) deserializer().deserialize("orders", globalIdHeader(1), body);

    assertThat(read.get("e")).isEqualTo(-1);
    assertThat(read.get("f")).isEqualTo(-64);
  }

  @Test
  void readsWholeUnderBoth_refusedNamingBothIds() {
    confluentFramed(order(1, "x"));
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 1), SEVEN_INTS);
    byte[] ambiguous = {0, 0, 0, 0, 1, 2, 0}; // under Order: id 1, item ""; under Seven: seven ints

    assertThatThrownBy(() -> deserializer("avro.fail.on.trailing.data", false)
        .deserialize("orders", globalIdHeader(1), ambiguous))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("apicurio.value.globalId header names Apicurio global id 1")
        .hasMessageContaining("prefix that names schema id 1")
        .hasMessageContaining("value.schema.id.deserializer");
  }

  @Test
  void readsUnderNeither_refusedNamingBoth() {
    confluentFramed(order(1, "x"));
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 1), NOTE);
    byte[] neither = {0, 0, 0, 0, 1, 2, 8, 'a'}; // Order: item of 4 bytes, 1 there; Note: note of 0, 6 left over

    assertThatThrownBy(() -> deserializer().deserialize("orders", globalIdHeader(1), neither))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("reads neither under its apicurio.value.globalId header's Apicurio global id 1")
        .hasMessageContaining("nor under its prefix's schema id 1");
  }

  /** The header's id is unknown (left over from another registry): the prefix's framing, read to the end. */
  @Test
  void staleHeaderOfAnotherRegistry_unknownHere_readsThePrefix() {
    byte[] framed = confluentFramed(order(5, "jam"));

    assertThat(deserializer().deserialize("orders", globalIdHeader(77), framed)).isEqualTo(order(5, "jam"));
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 6, 16, 18})
  void idHeaderOfTheWrongLength_refused(int length) {
    byte[] value = new byte[length];
    value[0] = (byte) (length < 10 ? 0 : 1);
    value[length - 1] = 1;
    Headers headers = new RecordHeaders().add("__value_schema_id", value);

    assertThatThrownBy(() -> deserializer().deserialize("orders", headers, new byte[] {2, 0}))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("__value_schema_id header holds " + length + " byte(s)");
  }

  @Test
  void avroValue_namesTheIdTheRecordHolds() {
    apicurio.put(new ApicurioId(ApicurioId.Kind.CONTENT_ID, 3), NOTE);
    Headers content = new RecordHeaders().add("apicurio.value.contentId", ByteBuffer.allocate(8).putLong(3).array());
    byte[] framed = confluentFramed(order(1, "x"));

    AvroValue apicurioRead = deserializer().deserializeWithSchema("orders", content, ByteBuffer.wrap(new byte[] {6, 0}));
    AvroValue confluentRead = deserializer().deserializeWithSchema("orders", new RecordHeaders(), ByteBuffer.wrap(framed));

    assertThat(apicurioRead.schemaKey()).isEqualTo(new ApicurioId(ApicurioId.Kind.CONTENT_ID, 3));
    assertThat(apicurioRead.describeSchemaKey()).isEqualTo("Apicurio content id 3");
    assertThat(apicurioRead.schemaId()).isEqualTo(-1);
    assertThat(confluentRead.schemaKey()).isEqualTo(1);
    assertThat(confluentRead.schemaId()).isEqualTo(1);
  }

  @Test
  void failureOfAKeyedRecord_namesItsId() {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 4), ORDER);

    assertThatThrownBy(() -> deserializer().deserialize("orders", globalIdHeader(4), new byte[] {2, 9}))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("value of topic 'orders' (Apicurio global id 4, 2 bytes)");
  }

  /**
   * Each prefix form resolves its id as the kind Apicurio's serde wrote: the same number names another schema
   * under the other kind, so a form mapped to the wrong kind reads the wrong record and fails here.
   */
  @ParameterizedTest
  @CsvSource({"apicurio-global-id-8, 9, GLOBAL_ID", "apicurio-content-id-4, 5, CONTENT_ID",
      "apicurio-global-id-4, 5, GLOBAL_ID", "apicurio-content-id-8, 9, CONTENT_ID"})
  void apicurioPrefix_resolvesTheKindItsSerdeWrote(String form, int size, ApicurioId.Kind kind) {
    apicurio.put(new ApicurioId(ApicurioId.Kind.GLOBAL_ID, 42), kind == ApicurioId.Kind.GLOBAL_ID ? ORDER : NOTE);
    apicurio.put(new ApicurioId(ApicurioId.Kind.CONTENT_ID, 42), kind == ApicurioId.Kind.CONTENT_ID ? ORDER : NOTE);
    ByteBuffer payload = ByteBuffer.allocate(size + 5).put((byte) 0);
    if (size == 9) {
      payload.putLong(42);
    } else {
      payload.putInt(42);
    }
    payload.put(new byte[] {2, 6, 't', 'e', 'a'});

    assertThat(deserializer("value.schema.id.prefix", form).deserialize("orders", payload.array()))
        .isEqualTo(order(1, "tea"));
  }

  @Test
  void keySerializer_dropsStaleApicurioKeyHeaders() {
    Headers copied = new RecordHeaders().add("apicurio.key.globalId", ByteBuffer.allocate(8).putLong(7).array())
        .add("apicurio.key.contentId", ByteBuffer.allocate(8).putLong(7).array())
        .add("__key_schema_id", WireFormat.idPrefix(999)).add("apicurio.value.globalId", new byte[8]);

    serdes.keySerializer().serialize("orders", copied, order(1, "x"));

    assertThat(copied.toArray()).extracting(Header::key).containsExactly("apicurio.value.globalId");
  }

  /** Resolvers that fail in each way a plug-in can. */
  public static final class ThrowingResolver implements FramingResolver {
    private String mode;

    @Override
    public void configure(Map<String, ?> configs, boolean isKey) {
      mode = (String) configs.get("test.mode");
    }

    @Override
    public Framed locate(String topic, Headers headers, byte[] payload, int offset, int length) {
      return switch (mode) {
        case "npe" -> throw new NullPointerException("boom");
        case "index" -> new Framed(payload[offset + length + 3], 1);
        case "overflow" -> throw new StackOverflowError();
        case "hash" -> new Framed(new Object() {
          @Override
          public int hashCode() {
            throw new IllegalStateException("no hash");
          }
        }, 1);
        default -> new Framed(UUID.nameUUIDFromBytes(new byte[] {1}), 1);
      };
    }

    @Override
    public Schema writerSchema(Object key) {
      throw new NullPointerException("no schema");
    }
  }

  @ParameterizedTest
  @CsvSource({"npe, locate threw", "index, locate threw", "overflow, locate threw",
      "hash, hashCode or equals threw", "schema, writerSchema"})
  void failingResolver_malformedNamingIt_andTheNextRecordReads(String mode, String what) {
    KafkaAvroDeserializer deserializer = deserializer("value.framing.resolver", ThrowingResolver.class,
        "test.mode", mode);
    byte[] framed = confluentFramed(order(2, "ok"));

    assertThatThrownBy(() -> deserializer.deserialize("orders", new byte[] {7, 2, 0}))
        .isInstanceOf(MalformedPayloadException.class)
        .hasMessageContaining("framing resolver " + ThrowingResolver.class.getName() + " failed")
        .hasMessageContaining(what);
    assertThat(deserializer.deserialize("orders", framed)).isEqualTo(order(2, "ok"));
  }
}
