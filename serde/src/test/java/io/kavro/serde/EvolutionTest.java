package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** v1 written, read with a v2 reader: added field with default, removed field, int to long, alias. */
class EvolutionTest {
  static final Schema V1 = new Schema.Parser().parse("""
      {"type":"record","name":"Event","namespace":"io.kavro.test","fields":[
        {"name":"id","type":"int"},
        {"name":"title","type":"string"},
        {"name":"obsolete","type":"string"}]}""");

  /** Drops 'obsolete', widens 'id', renames 'title' to 'name' (alias), adds 'source' with a default. */
  static final Schema V2 = new Schema.Parser().parse("""
      {"type":"record","name":"Event","namespace":"io.kavro.test","fields":[
        {"name":"id","type":"long"},
        {"name":"name","type":"string","aliases":["title"]},
        {"name":"source","type":"string","default":"unknown"}]}""");

  private final Serdes serdes = new Serdes();

  @TempDir
  Path dir;

  @AfterEach
  void close() {
    serdes.close();
  }

  private byte[] writeV1() {
    GenericRecord record = new GenericData.Record(V1);
    record.put("id", 7);
    record.put("title", "launch");
    record.put("obsolete", "x");
    return serdes.serializer().serialize("events", record);
  }

  private static void assertV2(GenericRecord read) {
    assertThat(read.getSchema()).isEqualTo(V2);
    assertThat(read.get("id")).isEqualTo(7L);
    assertThat(read.get("name")).isEqualTo(new Utf8("launch"));
    assertThat(read.get("source")).isEqualTo(new Utf8("unknown"));
    assertThat(read.getSchema().getField("obsolete")).isNull();
  }

  @Test
  void readerSchema_inline() {
    byte[] bytes = writeV1();

    assertV2((GenericRecord) serdes.deserializer("value.reader.schema", V2.toString()).deserialize("events", bytes));
  }

  @Test
  void readerSchema_fromFile() throws Exception {
    Path file = dir.resolve("v2.avsc");
    Files.writeString(file, V2.toString());
    byte[] bytes = writeV1();

    assertV2((GenericRecord) serdes.deserializer("value.reader.schema", "file:" + file).deserialize("events", bytes));
  }

  @Test
  void readerSchema_fromClasspath() {
    byte[] bytes = writeV1();

    assertV2((GenericRecord) serdes.deserializer("value.reader.schema", "classpath:event-v2.avsc")
        .deserialize("events", bytes));
  }

  @Test
  void useLatestVersion_projectsOntoLatest() {
    byte[] bytes = writeV1();
    serdes.registry().setCompatibility("events-value", io.kavro.registry.CompatibilityLevel.NONE);
    serdes.registry().register("events-value", V2);

    assertV2((GenericRecord) serdes.deserializer("use.latest.version", true).deserialize("events", bytes));
  }

  @Test
  void unresolvable_clearResolutionError() {
    Schema incompatible = new Schema.Parser().parse("""
        {"type":"record","name":"Event","namespace":"io.kavro.test","fields":[
          {"name":"id","type":"int"},{"name":"mandatory","type":"string"}]}""");
    byte[] bytes = writeV1();

    assertThatThrownBy(() -> serdes.deserializer("value.reader.schema", incompatible.toString())
        .deserialize("events", bytes))
        .isInstanceOf(SchemaResolutionException.class)
        .hasMessageContaining("value of topic 'events' (schema id 1")
        .hasMessageContaining("mandatory");
  }

  @Test
  void readerEnumLackingAWriterSymbol_saysWhichSymbolAndWhere() {
    Schema writer = new Schema.Parser().parse("""
        {"type":"record","name":"Payment","namespace":"io.kavro.test","fields":[
          {"name":"currency","type":{"type":"enum","name":"Currency","symbols":["EUR","USD","GBP"]}}]}""");
    Schema reader = new Schema.Parser().parse("""
        {"type":"record","name":"Payment","namespace":"io.kavro.test","fields":[
          {"name":"currency","type":{"type":"enum","name":"Currency","symbols":["EUR","USD"]}}]}""");
    GenericRecord payment = new GenericData.Record(writer);
    payment.put("currency", new GenericData.EnumSymbol(writer.getField("currency").schema(), "GBP"));
    byte[] bytes = serdes.serializer().serialize("payments", payment);

    assertThatThrownBy(() -> serdes.deserializer("value.reader.schema", reader.toString())
        .deserialize("payments", bytes))
        .isInstanceOf(SchemaResolutionException.class)
        .hasMessageContaining("enum Currency lacks GBP, at Payment.currency")
        .hasMessageNotContaining("will or may fail");
  }

  @Test
  void badReaderSchemaConfig_configErrorNamesKey() {
    assertThatThrownBy(() -> serdes.deserializer("value.reader.schema", "{not json"))
        .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
        .hasMessageContaining("value.reader.schema");
    assertThatThrownBy(() -> serdes.deserializer("value.reader.schema", "classpath:nope.avsc"))
        .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
        .hasMessageContaining("no such resource");
    // Avro 1.12 reports a name defined nowhere with an AvroTypeException, not a SchemaParseException.
    assertThatThrownBy(() -> serdes.deserializer("value.reader.schema", "[\"com.acme.Nowhere\"]"))
        .isInstanceOf(org.apache.kafka.common.config.ConfigException.class)
        .hasMessageContaining("value.reader.schema").hasMessageContaining("com.acme.Nowhere");
  }

  /**
   * Found by the differential harness (issue 22, item 13): a reader enum with the writer's symbols in another
   * order. The compiled decoder indexed Avro's resolved values by the reader's position instead of the
   * writer's, and read D as A; Avro resolves symbols by name.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void readerEnumInAnotherOrder_symbolsByName(boolean fastCodec) {
    Schema writer = new Schema.Parser().parse("""
        {"type":"record","name":"Shift","fields":[{"name":"day","type":{"type":"enum","name":"Day",
          "symbols":["A","B","C","D"]}}]}""");
    String reader = """
        {"type":"record","name":"Shift","fields":[{"name":"day","type":{"type":"enum","name":"Day",
          "symbols":["D","C","A","B"],"default":"D"}}]}""";
    KafkaAvroDeserializer deserializer = serdes.deserializer("value.reader.schema", reader,
        "avro.fast.codec", fastCodec);
    for (String symbol : java.util.List.of("A", "B", "C", "D")) {
      GenericRecord shift = new GenericData.Record(writer);
      shift.put("day", new GenericData.EnumSymbol(writer.getField("day").schema(), symbol));
      byte[] bytes = serdes.serializer().serialize("shifts", shift);

      assertThat(((GenericRecord) deserializer.deserialize("shifts", bytes)).get("day")).hasToString(symbol);
    }
  }

  /** Data written before the record had {@code ratio}: {@code Measure} with its {@code id} only. */
  private byte[] writeMeasureWithoutRatio() {
    Schema old = new Schema.Parser().parse("""
        {"type":"record","name":"Measure","namespace":"io.kavro.test.specific","fields":[
          {"name":"id","type":"long"}]}""");
    GenericRecord record = new GenericData.Record(old);
    record.put("id", 9L);
    return serdes.serializer().serialize("measures", record);
  }

  /** Issue 33, item 11: a missing field whose default is a double gets it, on the compiled decoder and Avro's. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void missingDoubleFieldWithDefault_generic_readsTheDefault(boolean fastCodec) {
    byte[] bytes = writeMeasureWithoutRatio();
    String reader = """
        {"type":"record","name":"Measure","namespace":"io.kavro.test.specific","fields":[
          {"name":"id","type":"long"},{"name":"ratio","type":"double","default":1.5}]}""";

    GenericRecord read = (GenericRecord) serdes.deserializer("value.reader.schema", reader,
        "avro.fast.codec", fastCodec).deserialize("measures", bytes);

    assertThat(read.get("id")).isEqualTo(9L);
    assertThat(read.get("ratio")).isEqualTo(1.5);
  }

  /** Issue 33, item 11: the same into a generated class that gained the field. */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
  void missingDoubleFieldWithDefault_specific_readsTheDefault(boolean fastCodec) {
    byte[] bytes = writeMeasureWithoutRatio();

    io.kavro.test.specific.Measure read = (io.kavro.test.specific.Measure) serdes.deserializer(
        "specific.avro.reader", true, "avro.fast.codec", fastCodec).deserialize("measures", bytes);

    assertThat(read.getId()).isEqualTo(9L);
    assertThat(read.getRatio()).isEqualTo(1.5);
  }
}
