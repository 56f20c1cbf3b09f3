package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kavro.test.specific.Address;
import io.kavro.test.specific.Customer;
import io.kavro.test.specific.Tier;
import io.kavro.test.specific.Zip;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.junit.jupiter.api.Test;

/**
 * The readers spun per shape of record ({@link SpunReader}): which records get one, that they read what Avro's own
 * reader reads for every leaf and every kind of field (stored, skipped, defaulted, reordered), that one class
 * serves one shape, and that bad bytes fail as they fail in the loop. The random (writer, reader) pairs of
 * {@link CodecEquivalenceProperties} go through the same readers.
 */
class SpunReaderTest {
  /** Avro's model with its logical-type conversions, as Kavro reads with {@code avro.use.logical.type.converters}. */
  private static final GenericData MODEL = new AvroDataModels(true, false).generic();

  static {
    // As the deserializer's planner does before compiling a generated class's reader (Avro's class check).
    ClassTrust.trustGenerated(Customer.class, Customer.SCHEMA$);
  }

  static final Schema EVERY_KIND = new Schema.Parser().parse("""
      {"type": "record", "name": "Every", "namespace": "t", "fields": [
        {"name": "nothing", "type": "null"},
        {"name": "flag", "type": "boolean"},
        {"name": "count", "type": "int"},
        {"name": "big", "type": "long"},
        {"name": "ratio", "type": "float"},
        {"name": "score", "type": "double"},
        {"name": "name", "type": "string"},
        {"name": "javaName", "type": {"type": "string", "avro.java.string": "String"}},
        {"name": "nick", "type": ["null", "string"]},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "uuid", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "price", "type": {"type": "bytes", "logicalType": "decimal", "precision": 9, "scale": 2}},
        {"name": "payload", "type": "bytes"},
        {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["A", "B"]}},
        {"name": "hash", "type": {"type": "fixed", "name": "Hash", "size": 4}},
        {"name": "tags", "type": {"type": "array", "items": "long"}},
        {"name": "attributes", "type": {"type": "map", "values": "string"}},
        {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
          {"name": "city", "type": "string"}, {"name": "zip", "type": ["null", "int"]}]}},
        {"name": "small", "type": "int"}
      ]}""");

  /** EVERY_KIND read reordered, with fields skipped, promoted and defaulted. */
  private static final Schema EVOLVED = new Schema.Parser().parse("""
      {"type": "record", "name": "Every", "namespace": "t", "fields": [
        {"name": "small", "type": "long"},
        {"name": "region", "type": "string", "default": "eu"},
        {"name": "name", "type": "string"},
        {"name": "tags", "type": {"type": "array", "items": "long"}},
        {"name": "count", "type": "double"},
        {"name": "address", "type": {"type": "record", "name": "Address", "fields": [
          {"name": "zip", "type": ["null", "int"]}, {"name": "city", "type": "string"},
          {"name": "lines", "type": {"type": "array", "items": "string"}, "default": ["a", "b"]}]}},
        {"name": "version", "type": "int", "default": 3},
        {"name": "flag", "type": "boolean"}
      ]}""");

  @Test
  void everyKindOfField_readAsAvroReadsIt_byASpunClass() throws IOException {
    GenericData.Record record = everyKind(7);
    byte[] bytes = write(EVERY_KIND, record);

    CompiledDecoder decoder = DecoderCompiler.compile(EVERY_KIND, EVERY_KIND, MODEL);

    assertThat(isSpun(decoder)).as("spun: " + decoder.getClass()).isTrue();
    assertReadsAsAvro(decoder, EVERY_KIND, EVERY_KIND, bytes);
    assertThat(read(decoder, bytes)).isEqualTo(record);
  }

  @Test
  void evolvedReader_reordersSkipsPromotesAndDefaults_asAvro() throws IOException {
    Schema reader = EVOLVED;
    byte[] bytes = write(EVERY_KIND, everyKind(11));

    CompiledDecoder decoder = DecoderCompiler.compile(EVERY_KIND, reader, MODEL);

    assertThat(isSpun(decoder)).isTrue();
    GenericRecord read = (GenericRecord) assertReadsAsAvro(decoder, EVERY_KIND, reader, bytes);
    assertThat(read.get("small")).isEqualTo(11L + 1);
    assertThat(read.get("region")).hasToString("eu");
    assertThat(read.get("version")).isEqualTo(3);
    assertThat(read.get("count")).isEqualTo(11.0);
    assertThat(((GenericRecord) read.get("address")).get("lines")).asList().hasSize(2);
  }

  @Test
  void defaultsAreCopiedPerRecord_notShared() throws IOException {
    Schema writer = SchemaBuilder.record("R").fields().requiredInt("a").endRecord();
    Schema reader = new Schema.Parser().parse("""
        {"type": "record", "name": "R", "fields": [{"name": "a", "type": "int"},
          {"name": "list", "type": {"type": "array", "items": "int"}, "default": [1, 2]}]}""");
    GenericData.Record datum = new GenericData.Record(writer);
    datum.put("a", 5);
    byte[] bytes = write(writer, datum);
    CompiledDecoder decoder = DecoderCompiler.compile(writer, reader, MODEL);

    GenericRecord first = read(decoder, bytes);
    GenericRecord second = read(decoder, bytes);

    assertThat(first.get("list")).isEqualTo(second.get("list")).isNotSameAs(second.get("list"));
    assertThat(first.get("a")).isEqualTo(5);
  }

  @Test
  void sameShape_oneClass_otherShape_another() {
    Schema one = SchemaBuilder.record("One").namespace("a").fields().requiredInt("x").requiredString("y")
        .endRecord();
    Schema two = SchemaBuilder.record("Two").namespace("b").fields().requiredInt("p").requiredString("q")
        .endRecord();
    Schema swapped = SchemaBuilder.record("Three").fields().requiredString("y").requiredInt("x").endRecord();

    Class<?> first = DecoderCompiler.compile(one, one, MODEL).getClass();

    assertThat(first.getName()).startsWith(SPUN);
    assertThat(DecoderCompiler.compile(two, two, MODEL).getClass()).isSameAs(first);
    assertThat(DecoderCompiler.compile(swapped, swapped, MODEL).getClass()).isNotSameAs(first);
  }

  @Test
  void defaultsArePartOfTheShape() throws IOException {
    Schema writer = SchemaBuilder.record("W").fields().requiredInt("a").endRecord();
    Schema noDefault = SchemaBuilder.record("W").fields().requiredInt("a").endRecord();
    Schema defaultAfter = SchemaBuilder.record("W").fields().requiredInt("a").name("b").type().intType().intDefault(7)
        .endRecord();
    Schema defaultBefore = SchemaBuilder.record("W").fields().name("b").type().intType().intDefault(9)
        .requiredInt("a").endRecord();
    GenericData.Record datum = new GenericData.Record(writer);
    datum.put("a", 5);
    byte[] bytes = write(writer, datum);

    CompiledDecoder none = DecoderCompiler.compile(writer, noDefault, MODEL);
    CompiledDecoder after = DecoderCompiler.compile(writer, defaultAfter, MODEL);
    CompiledDecoder before = DecoderCompiler.compile(writer, defaultBefore, MODEL);

    assertThat(List.of(none.getClass(), after.getClass(), before.getClass())).doesNotHaveDuplicates();
    assertThat(read(none, bytes)).hasToString("{\"a\": 5}");
    assertThat(read(after, bytes)).hasToString("{\"a\": 5, \"b\": 7}");
    assertThat(read(before, bytes)).hasToString("{\"b\": 9, \"a\": 5}");
  }

  @Test
  void sameShape_readsEachSchemasOwnRecords() throws IOException {
    Schema one = SchemaBuilder.record("One").namespace("a").fields().requiredInt("x").requiredString("y")
        .endRecord();
    Schema two = SchemaBuilder.record("Two").namespace("b").fields().requiredInt("p").requiredString("q")
        .endRecord();
    GenericData.Record datum = new GenericData.Record(one);
    datum.put("x", 1);
    datum.put("y", "why");
    byte[] bytes = write(one, datum);

    GenericRecord asOne = read(DecoderCompiler.compile(one, one, MODEL), bytes);
    GenericRecord asTwo = read(DecoderCompiler.compile(two, two, MODEL), bytes);

    assertThat(asOne.getSchema()).isSameAs(one);
    assertThat(asTwo.getSchema()).isSameAs(two);
    assertThat(asTwo.get("q")).hasToString("why");
  }

  @Test
  void recordTooLongForOneCompiledMethod_isReadByTheLoop() throws IOException {
    // 20 bytes of code around the fields, 13 a stored leaf field: the most fields one compiled method reads.
    int most = (ClassFileWriter.MAX_CODE_BYTES - 20) / 13;
    assertThat(isSpun(DecoderCompiler.compile(ints("Widest", most), ints("Widest", most), MODEL))).isTrue();
    Schema wide = ints("Wide", most + 1);
    GenericData.Record datum = new GenericData.Record(wide);
    for (int i = 0; i <= most; i++) {
      datum.put(i, i * 3);
    }

    CompiledDecoder decoder = DecoderCompiler.compile(wide, wide, MODEL);

    assertThat(isSpun(decoder)).isFalse();
    assertThat(read(decoder, write(wide, datum))).isEqualTo(datum);
  }

  private static Schema ints(String name, int count) {
    SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(name).fields();
    for (int i = 0; i < count; i++) {
      fields = fields.requiredInt("f" + i);
    }
    return fields.endRecord();
  }

  @Test
  void aNullField_andAFieldReadByItsDecoder_areNotOneShape() throws IOException {
    // The null field's class pushes a null and reads nothing: were it shared, the array's bytes would go unread.
    Schema nothing = SchemaBuilder.record("Nothing").fields().name("a").type().nullType().noDefault().endRecord();
    Schema list = new Schema.Parser().parse("""
        {"type": "record", "name": "List", "fields": [{"name": "b", "type": {"type": "array", "items": "int"}},
          {"name": "c", "type": "int"}]}""");
    Schema listOnly = new Schema.Parser().parse("""
        {"type": "record", "name": "ListOnly", "fields": [{"name": "b", "type": {"type": "array", "items": "int"}}]}
        """);
    CompiledDecoder nullRead = DecoderCompiler.compile(nothing, nothing, MODEL);
    CompiledDecoder listRead = DecoderCompiler.compile(listOnly, listOnly, MODEL);
    assertThat(isSpun(nullRead)).isTrue();
    assertThat(isSpun(listRead)).isTrue();
    assertThat(listRead.getClass()).isNotSameAs(nullRead.getClass()); // whichever shape another test spun first
    GenericData.Record datum = new GenericData.Record(list);
    datum.put("b", List.of(4, 5, 6));
    datum.put("c", 7);
    GenericData.Record only = new GenericData.Record(listOnly);
    only.put("b", List.of(8));

    assertReadsAsAvro(DecoderCompiler.compile(list, list, MODEL), list, list, write(list, datum));
    assertReadsAsAvro(listRead, listOnly, listOnly, write(listOnly, only));
  }

  @Test
  void recordsInArraysMapsAndUnions_andARecordOfDefaultsAlone_readAsAvro() throws IOException {
    Schema item = SchemaBuilder.record("Item").fields().requiredString("name").optionalLong("count").endRecord();
    Schema writer = SchemaBuilder.record("Box").fields()
        .name("items").type().array().items(item).noDefault()
        .name("byName").type().map().values(item).noDefault()
        .name("maybe").type().unionOf().nullType().and().type(item).endUnion().noDefault()
        .endRecord();
    Schema reader = new Schema.Parser().parse(writer.toString().replace("\"fields\":[{\"name\":\"items\"",
        "\"fields\":[{\"name\":\"nested\",\"type\":{\"type\":\"record\",\"name\":\"Defaults\","
            + "\"fields\":[{\"name\":\"x\",\"type\":\"int\",\"default\":1}]},\"default\":{}},"
            + "{\"name\":\"items\""));
    GenericData.Record one = new GenericData.Record(item);
    one.put("name", "one");
    one.put("count", 1L);
    GenericData.Record two = new GenericData.Record(item);
    two.put("name", "two");
    GenericData.Record box = new GenericData.Record(writer);
    box.put("items", List.of(one, two));
    box.put("byName", Map.of("one", one, "two", two));
    box.put("maybe", two);
    byte[] bytes = write(writer, box);

    assertReadsAsAvro(DecoderCompiler.compile(writer, writer, MODEL), writer, writer, bytes);
    GenericRecord read = (GenericRecord) assertReadsAsAvro(DecoderCompiler.compile(writer, reader, MODEL), writer,
        reader, bytes);
    assertThat(read.get("nested")).hasToString("{\"x\": 1}");
  }

  @Test
  void aGeneratedClass_spunAndReadAsAvrosSpecificReader() throws IOException {
    SpecificData model = new Customer().getSpecificData();
    Customer customer = Customer.newBuilder().setId(12).setName("name").setEmail(null).setTier(Tier.values()[1])
        .setBalance(new BigDecimal("12.34")).setSince(LocalDate.ofEpochDay(19_000))
        .setUpdated(Instant.ofEpochMilli(1_700_000_000_000L)).setTags(List.of("a", "b"))
        .setAddress(new Address("street", new Zip(new byte[] {1, 2, 3, 4, 5}))).build();
    byte[] bytes = AvroBytes.written(new SpecificDatumWriter<>(Customer.SCHEMA$, model), customer);

    CompiledDecoder decoder = DecoderCompiler.compile(Customer.SCHEMA$, Customer.SCHEMA$, model);

    assertThat(isSpun(decoder)).isTrue();
    Object read = decoder.decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length));
    assertThat(read).isInstanceOf(Customer.class).isEqualTo(customer)
        .isEqualTo(new SpecificDatumReader<>(Customer.SCHEMA$, Customer.SCHEMA$, model).read(null,
            DecoderFactory.get().binaryDecoder(bytes, null)));
  }

  @Test
  void truncatedOrCorruptBody_failsAsTheLoopFails() throws IOException {
    byte[] bytes = write(EVERY_KIND, everyKind(3));
    for (Schema reader : new Schema[] {EVERY_KIND, EVOLVED}) { // in order; skipped, reordered and defaulted
      CompiledDecoder spun = DecoderCompiler.compile(EVERY_KIND, reader, MODEL);
      CompiledDecoder loop = DecoderCompiler.compileLoops(EVERY_KIND, reader, MODEL);
      assertThat(isSpun(spun)).isTrue();
      assertThat(isSpun(loop)).isFalse();

      for (int length = 0; length < bytes.length; length++) {
        assertSameFailure(spun, loop, bytes, length);
      }
      for (int i = 0; i < bytes.length; i++) {
        byte[] corrupt = bytes.clone();
        corrupt[i] = (byte) 0xFF; // a varint that never ends, a negative length, a union index past the branches...
        assertSameFailure(spun, loop, corrupt, corrupt.length);
      }
    }
  }

  private static void assertSameFailure(CompiledDecoder spun, CompiledDecoder loop, byte[] bytes, int length) {
    Throwable expected = failure(loop, bytes, length);
    Throwable actual = failure(spun, bytes, length);
    if (expected == null) {
      assertThat(actual).as("%d of %d bytes", length, bytes.length).isNull();
      return;
    }
    assertThat(actual).as("%d of %d bytes", length, bytes.length).isNotNull()
        .hasSameClassAs(expected).hasMessage(expected.getMessage());
  }

  private static Throwable failure(CompiledDecoder decoder, byte[] bytes, int length) {
    try {
      decoder.decode(new BoundedBinaryDecoder().reset(bytes, 0, length));
      return null;
    } catch (Exception e) {
      return e;
    }
  }

  @Test
  void enumIndexOutOfRange_namesTheEnum() throws IOException {
    Schema writer = SchemaBuilder.record("E").fields().name("s").type().enumeration("Status").symbols("A", "B")
        .noDefault().endRecord();
    byte[] bytes = {8}; // zig-zag 4: no symbol at index 4

    CompiledDecoder decoder = DecoderCompiler.compile(writer, writer, MODEL);

    assertThat(isSpun(decoder)).isTrue();
    assertThatThrownBy(() -> decoder.decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length)))
        .isInstanceOf(AvroTypeException.class).hasMessageContaining("Status").hasMessageContaining("4");
  }

  /** The binary name of every spun reader's class, before the suffix of a hidden class. */
  private static final String SPUN = SpunReaderClassFile.NAME.replace('/', '.') + "/";

  /** Whether {@code decoder} is a spun reader (a lambda of the loop is a hidden class too). */
  private static boolean isSpun(CompiledDecoder decoder) {
    return decoder.getClass().getName().startsWith(SPUN);
  }

  static GenericData.Record everyKind(int n) {
    Schema address = EVERY_KIND.getField("address").schema();
    GenericData.Record addressRecord = new GenericData.Record(address);
    addressRecord.put("city", "city" + n);
    addressRecord.put("zip", n % 2 == 0 ? null : 1000 + n);
    GenericData.Record record = new GenericData.Record(EVERY_KIND);
    record.put("nothing", null);
    record.put("flag", n % 2 == 1);
    record.put("count", n);
    record.put("big", 1L << 40 | n);
    record.put("ratio", n / 4f);
    record.put("score", n / 8d);
    record.put("name", new org.apache.avro.util.Utf8("name" + n));
    record.put("javaName", "java" + n);
    record.put("nick", n % 3 == 0 ? null : new org.apache.avro.util.Utf8("nick" + n));
    record.put("day", LocalDate.ofEpochDay(19_000 + n));
    record.put("at", Instant.ofEpochMilli(1_700_000_000_000L + n));
    record.put("uuid", new UUID(n, n * 31L));
    record.put("price", BigDecimal.valueOf(1_234 + n, 2));
    record.put("payload", ByteBuffer.wrap(new byte[] {1, 2, (byte) n}));
    record.put("status", new GenericData.EnumSymbol(EVERY_KIND.getField("status").schema(), "B"));
    record.put("hash", new GenericData.Fixed(EVERY_KIND.getField("hash").schema(), new byte[] {9, 8, 7, (byte) n}));
    record.put("tags", new GenericData.Array<>(EVERY_KIND.getField("tags").schema(), List.of(1L, 2L, (long) n)));
    record.put("attributes", Map.of(new org.apache.avro.util.Utf8("k"), new org.apache.avro.util.Utf8("v" + n)));
    record.put("address", addressRecord);
    record.put("small", n + 1);
    return record;
  }

  private static Object assertReadsAsAvro(CompiledDecoder decoder, Schema writer, Schema reader, byte[] bytes)
      throws IOException {
    Object expected = new GenericDatumReader<>(writer, reader, MODEL)
        .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    BoundedBinaryDecoder in = new BoundedBinaryDecoder().reset(bytes, 0, bytes.length);
    Object actual = decoder.decode(in);
    assertThat(in.isEnd()).as("every byte read").isTrue();
    assertThat(write(reader, actual)).isEqualTo(write(reader, expected));
    assertThat(String.valueOf(actual)).isEqualTo(String.valueOf(expected));
    CodecEquivalenceProperties.assertSameClasses(actual, expected, "$");
    return actual;
  }

  private static GenericRecord read(CompiledDecoder decoder, byte[] bytes) throws IOException {
    return (GenericRecord) decoder.decode(new BoundedBinaryDecoder().reset(bytes, 0, bytes.length));
  }

  private static byte[] write(Schema schema, Object datum) throws IOException {
    return CodecEquivalenceProperties.avroBytes(schema, datum);
  }
}
