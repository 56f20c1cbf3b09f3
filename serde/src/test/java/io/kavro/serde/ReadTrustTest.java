package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.Exploding;
import com.example.Tagged;
import io.kavro.registry.SchemaRegistryClient;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The read-side reports of issue 13 (items 4, 13 and 14): a payload that nests deeper than the stack, or
 * claims more zero-width items than memory holds, is a typed error for that record; building a reader never
 * runs a class's static initializer nor escapes untyped; reflection reads nulls in collections.
 */
class ReadTrustTest {
  static final Schema NODE = new Schema.Parser().parse("""
      {"type":"record","name":"Node","namespace":"com.acme","fields":[
        {"name":"v","type":"int"},{"name":"next","type":["null","Node"]}]}""");
  static final Schema NULLS = new Schema.Parser().parse("""
      {"type":"record","name":"Nulls","namespace":"com.acme","fields":[
        {"name":"items","type":{"type":"array","items":"null"}}]}""");

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  /** A framed Node list {@code depth} levels deep: each level is v=0 then union branch 1, the last branch 0. */
  static byte[] nested(int id, int depth) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(5 + 2 * depth + 1);
    out.writeBytes(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
    for (int i = 0; i < depth; i++) {
      out.write(0); // v = 0
      out.write(2); // branch 1: another Node
    }
    out.write(0); // v = 0 of the innermost
    out.write(0); // branch 0: null
    return out.toByteArray();
  }

  /** A framed Nulls record whose one array block claims {@code count} items, with no bytes for them. */
  static byte[] zeroWidth(int id, long count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(new byte[] {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id});
    long n = (count << 1) ^ (count >> 63);
    while ((n & ~0x7fL) != 0) {
      out.write((int) ((n & 0x7f) | 0x80));
      n >>>= 7;
    }
    out.write((int) n);
    out.write(0); // end of array
    return out.toByteArray();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void halfAMillionLevels_typedErrorAndTheNextRecordReads(boolean fastCodec) {
    SchemaRegistryClient registry = serdes.registry();
    int id = registry.register("deep-value", NODE);
    KafkaAvroDeserializer deserializer = serdes.deserializer("avro.fast.codec", fastCodec);

    byte[] deep = nested(id, 500_000);
    assertThat(deep.length).isGreaterThan(1_000_000);
    assertThatThrownBy(() -> deserializer.deserialize("deep", deep))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("nests deeper");

    GenericRecord shallow = (GenericRecord) deserializer.deserialize("deep", nested(id, 1_000));
    int depth = 0;
    for (GenericRecord node = shallow; node != null; node = (GenericRecord) node.get("next")) {
      depth++;
    }
    assertThat(depth).isEqualTo(1_001);
  }

  /**
   * Issue 22, item 1: a registry-sized fixed and the six bytes {@code 00 <id> 01}: the compiled decoder checks
   * the bytes left before allocating, and Avro's reader, which allocates first, is never given such a schema.
   * Top level, nested, and as a decimal. With 2,000,000,000 bytes it was an OutOfMemoryError, which nothing
   * caught; here 16,000,000 (this build caps Avro's bytes at 16 MiB), and the thread's allocation is measured.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void registrySizedFixed_typedErrorNoAllocation(boolean fastCodec) {
    Schema huge = new Schema.Parser().parse("""
        {"type":"fixed","name":"F","namespace":"com.acme","size":16000000}""");
    Schema nested = new Schema.Parser().parse("""
        {"type":"record","name":"Holder","namespace":"com.acme","fields":[{"name":"n","type":"int"},
          {"name":"amount","type":{"type":"fixed","name":"Money","size":16000000,"logicalType":"decimal",
           "precision":9,"scale":2}}]}""");
    KafkaAvroDeserializer deserializer = serdes.deserializer("avro.fast.codec", fastCodec,
        "avro.use.logical.type.converters", true);
    for (Schema schema : List.of(huge, nested)) {
      int id = serdes.registry().register(schema.getName() + "-value", schema);
      byte[] payload = {0, (byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id, 1};

      long before = Allocations.ofThisThread();
      assertThatThrownBy(() -> deserializer.deserialize(schema.getName(), payload))
          .isInstanceOf(SerializationException.class)
          .hasMessageContaining(fastCodec ? "truncated" : "fixed type of more than 65536 bytes");
      assertThat(Allocations.ofThisThread() - before).as("bytes allocated for a 6-byte payload")
          .isLessThan(4_000_000);
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void zeroWidthItems_aBillionClaimed_typedError(boolean fastCodec) {
    int id = serdes.registry().register("nulls-value", NULLS);
    KafkaAvroDeserializer deserializer = serdes.deserializer("avro.fast.codec", fastCodec);

    assertThatThrownBy(() -> deserializer.deserialize("nulls", zeroWidth(id, 1_000_000_000L)))
        .isInstanceOf(MalformedPayloadException.class).hasMessageContaining("1000000000 item(s)");
    GenericRecord three = (GenericRecord) deserializer.deserialize("nulls", zeroWidth(id, 3));
    assertThat((List<?>) three.get("items")).containsExactly(null, null, null);
  }

  /** A record written with a schema named com.example.Exploding, a class whose static initializer fails. */
  private byte[] explodingRecord() {
    Schema exploding = Schema.createRecord("Exploding", null, "com.example", false,
        List.of(new Schema.Field("v", Schema.create(Schema.Type.INT))));
    GenericRecord record = new GenericData.Record(exploding);
    record.put("v", 1);
    return serdes.serializer().serialize("boom", record);
  }

  @Test
  void specificReader_schemaNamingAClassWithAStaticInitializer_neverRunsIt() {
    byte[] bytes = explodingRecord();
    int runs = Exploding.Runs.count;

    assertThatThrownBy(() -> serdes.deserializer("specific.avro.reader", true).deserialize("boom", bytes))
        .isInstanceOf(SchemaResolutionException.class).hasMessageContaining("com.example.Exploding");
    assertThat(Exploding.Runs.count).isEqualTo(runs);
  }

  /**
   * Issue 22, item 10: a registry schema that names a class the application never used (here one whose static
   * initializer fails) is read as a GenericRecord: the class is neither built nor initialized.
   */
  @Test
  void reflection_schemaNamingAClassWhoseInitializerFails_readGeneric_initializerNeverRuns() {
    byte[] bytes = explodingRecord();
    int runs = Exploding.Runs.count;

    Object read = serdes.deserializer("schema.reflection", true).deserialize("boom", bytes);

    assertThat(read).isInstanceOf(GenericRecord.class);
    assertThat(((GenericRecord) read).get("v")).isEqualTo(1);
    assertThat(Exploding.Runs.count).isEqualTo(runs);
  }

  /**
   * Issue 22, item 10: a registry schema can name any Java record of the class path (here one of Kavro's own);
   * it is read as a GenericRecord, never built through its constructor.
   */
  @Test
  void reflection_schemaNamingARecordTheApplicationNeverUsed_readGeneric() {
    Schema stats = Schema.createRecord("RegistryStats", null, "io.kavro.registry", false,
        List.of(new Schema.Field("v", Schema.create(Schema.Type.INT))));
    GenericRecord record = new GenericData.Record(stats);
    record.put("v", 1);
    byte[] bytes = serdes.serializer().serialize("stats", record);

    Object read = serdes.deserializer("schema.reflection", true).deserialize("stats", bytes);

    assertThat(read).isInstanceOf(GenericRecord.class).isNotInstanceOf(io.kavro.registry.RegistryStats.class);
  }

  /** A registry schema that names a class which is not generated: the specific reader refuses to build it. */
  @Test
  void specificReader_schemaNamingAClassThatIsNotGenerated_typedErrorSaysWhatToSet() {
    Schema page = Schema.createRecord("Page", null, "com.example", false,
        List.of(new Schema.Field("title", Schema.create(Schema.Type.STRING))));
    GenericRecord record = new GenericData.Record(page);
    record.put("title", "t");
    byte[] bytes = serdes.serializer().serialize("pages", record);

    assertThatThrownBy(() -> serdes.deserializer("specific.avro.reader", true).deserialize("pages", bytes))
        .isInstanceOf(SchemaResolutionException.class)
        .hasMessageContaining("com.example.Page, which is not a generated SpecificRecord")
        .hasMessageContaining("specific.avro.value.type");
  }

  /**
   * Item 14: null items in a list and a set of a Java record. Reflection writes items as non-null, so another
   * producer writes them, with nullable items.
   */
  @Test
  void reflection_nullItemsInCollections_read() {
    Schema nullableStrings = Schema.createArray(Schema.createUnion(
        Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING)));
    Schema tagged = Schema.createRecord("Tagged", null, "com.example", false, List.of(
        new Schema.Field("name", Schema.create(Schema.Type.STRING)),
        new Schema.Field("tags", nullableStrings),
        new Schema.Field("labels", nullableStrings)));
    GenericRecord record = new GenericData.Record(tagged);
    record.put("name", "t");
    record.put("tags", Arrays.asList("a", null));
    record.put("labels", Arrays.asList(null, "b"));
    byte[] bytes = serdes.serializer().serialize("tagged", record);
    // The application's own class: it writes Tagged itself, so Kavro trusts it (Avro 1.12.2 refuses others).
    serdes.serializer("schema.reflection", true).serialize("own-tagged", new Tagged("own", List.of(), Set.of()));

    Tagged read = (Tagged) serdes.deserializer("schema.reflection", true).deserialize("tagged", bytes);

    assertThat(read.tags()).containsExactly("a", null);
    assertThat(read.labels()).containsExactlyInAnyOrder(null, "b");
  }
}
