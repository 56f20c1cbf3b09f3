package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.example.Readings;
import com.example.TopLevel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.UnresolvedUnionException;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The write-side reports of issue 13 (items 1 to 5), each as the user met it: a refused datum leaves no
 * trace, the compiled writer refuses what Avro's writer refuses, and reflection works in the user's packages.
 */
class WriteTrustTest {
  private static final Schema THREE_STRINGS = new Schema.Parser().parse("""
      {"type":"record","name":"Three","namespace":"com.acme","fields":[
        {"name":"a","type":"string"},{"name":"b","type":"string"},{"name":"c","type":"string"}]}""");
  private static final Schema OPTIONALS = new Schema.Parser().parse("""
      {"type":"record","name":"Optionals","namespace":"com.acme","fields":[
        {"name":"n","type":["null","int"]},{"name":"s","type":["null","string"]}]}""");
  private static final Schema LETTERS = new Schema.Parser().parse("""
      {"type":"record","name":"Letters","namespace":"com.acme","fields":[
        {"name":"letter","type":{"type":"enum","name":"Letter","symbols":["B","A"]}}]}""");

  /** A Java enum whose ordinals differ from the Avro enum's: A is 0 here, 1 there. */
  enum Letter { A, B }

  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  private static GenericRecord three(String a, String b, String c) {
    GenericRecord record = new GenericData.Record(THREE_STRINGS);
    record.put("a", a);
    record.put("b", b);
    record.put("c", c);
    return record;
  }

  /** Item 1: the third field's null fails the write after two fields were buffered. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void failedWrite_leavesNoTraceInTheNextRecord(boolean fastCodec) {
    KafkaAvroSerializer used = serdes.serializer("avro.fast.codec", fastCodec);
    KafkaAvroSerializer fresh = serdes.serializer("avro.fast.codec", fastCodec);

    assertThatThrownBy(() -> used.serialize("t", three("first", "second", null)))
        .isInstanceOf(SerializationException.class);
    byte[] next = used.serialize("t", three("x", "y", "z"));

    assertThat(next).isEqualTo(fresh.serialize("t", three("x", "y", "z")));
  }

  /** Item 2: a Long in ["null","int"] and an Integer in ["null","string"] are refused, as Avro refuses them. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void wrongTypeInNullableUnion_refusedAsAvroRefuses(boolean fastCodec) {
    KafkaAvroSerializer serializer = serdes.serializer("avro.fast.codec", fastCodec);
    GenericRecord longInInt = new GenericData.Record(OPTIONALS);
    longInInt.put("n", 1L << 40);
    GenericRecord intInString = new GenericData.Record(OPTIONALS);
    intInString.put("s", 42);

    assertThatThrownBy(() -> avroBytes(longInInt)).isInstanceOf(UnresolvedUnionException.class);
    assertThatThrownBy(() -> avroBytes(intInString)).isInstanceOf(UnresolvedUnionException.class);
    assertThatThrownBy(() -> serializer.serialize("t", longInInt))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Optionals");
    assertThatThrownBy(() -> serializer.serialize("t", intInString))
        .isInstanceOf(SerializationException.class).hasMessageContaining("Optionals");
  }

  /**
   * Item 3: a Java enum in a generic record is never written by its ordinal. Avro's generic writer takes only
   * Avro enum symbols, so both codecs refuse it; an Avro symbol is written by its name.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void javaEnumInGenericRecord_neverWrittenByOrdinal(boolean fastCodec) {
    KafkaAvroSerializer serializer = serdes.serializer("avro.fast.codec", fastCodec);
    GenericRecord javaEnum = new GenericData.Record(LETTERS);
    javaEnum.put("letter", Letter.A);
    GenericRecord symbol = new GenericData.Record(LETTERS);
    symbol.put("letter", new GenericData.EnumSymbol(LETTERS.getField("letter").schema(), "A"));

    assertThatThrownBy(() -> avroBytes(javaEnum)).isInstanceOf(org.apache.avro.AvroTypeException.class);
    assertThatThrownBy(() -> serializer.serialize("t", javaEnum)).isInstanceOf(SerializationException.class);
    byte[] written = serializer.serialize("t", symbol);
    Object read = serdes.deserializer().deserialize("t", written);
    assertThat(((GenericRecord) read).get("letter")).hasToString("A");
  }

  /** Item 5: a top-level record of the application's own package, written and read by reflection. */
  @Test
  void reflection_recordInTheUsersOwnPackage_roundTrips() {
    TopLevel reading = new TopLevel("s-1", 21.5);

    byte[] bytes = serdes.serializer("schema.reflection", true).serialize("readings", reading);
    Object read = serdes.deserializer("schema.reflection", true).deserialize("readings", bytes);

    assertThat(read).isEqualTo(reading);
  }

  /** Item 5: records nested in a class of another package, a list of them included. */
  @Test
  void reflection_nestedRecordsOfAnotherPackage_roundTrip() {
    Readings.Batch batch = new Readings.Batch("north",
        List.of(new Readings.Reading(1L, 2.5), new Readings.Reading(2L, -1.0)));

    byte[] bytes = serdes.serializer("schema.reflection", true).serialize("batches", batch);
    Object read = serdes.deserializer("schema.reflection", true).deserialize("batches", bytes);

    assertThat(read).isEqualTo(batch);
  }

  /** Item 5: a field Avro's reflection names by class ({@code java-class}), in a record and in a plain class. */
  @Test
  void reflection_stringableFieldsOfTheUsersClasses_roundTrip() {
    com.example.Link link = new com.example.Link("home", java.net.URI.create("https://example.com/a"));
    com.example.Page page = new com.example.Page("p", java.net.URI.create("https://example.com/p"),
        java.util.Map.of(java.math.BigInteger.TEN, "ten"));
    KafkaAvroSerializer serializer = serdes.serializer("schema.reflection", true);
    KafkaAvroDeserializer deserializer = serdes.deserializer("schema.reflection", true);

    com.example.Page readPage = (com.example.Page) deserializer.deserialize("pages", serializer.serialize("pages", page));

    Object readLink = deserializer.deserialize("links", serializer.serialize("links", link));
    assertThat(readLink).isEqualTo(link);
    assertThat(readPage.address).isEqualTo(page.address);
    assertThat(readPage.notes).isEqualTo(page.notes);
  }

  private static byte[] avroBytes(GenericRecord record) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    new GenericDatumWriter<>(record.getSchema()).write(record, encoder);
    encoder.flush();
    return out.toByteArray();
  }

  @SuppressWarnings("unused")
  private static String hex(byte[] bytes) {
    return Arrays.toString(bytes);
  }
}
