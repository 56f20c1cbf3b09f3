package io.kavro.serde;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Unions that put null second (issue 33, item 11), which every other test writes first: the value keeps its
 * branch on the compiled encoder and decoder and on Avro's, both ways across them.
 */
class NullSecondUnionTest {
  private static final Schema SCHEMA = new Schema.Parser().parse("""
      {"type":"record","name":"Note","namespace":"io.kavro.test","fields":[
        {"name":"text","type":["string","null"]},
        {"name":"count","type":["long","null"]}]}""");
  private final Serdes serdes = new Serdes();

  @AfterEach
  void close() {
    serdes.close();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void nullSecond_valuesAndNullsKeepTheirBranch(boolean fastWriter) {
    KafkaAvroSerializer serializer = serdes.serializer("avro.fast.codec", fastWriter);
    for (boolean fastReader : new boolean[] {false, true}) {
      KafkaAvroDeserializer deserializer = serdes.deserializer("avro.fast.codec", fastReader);

      GenericRecord hi = (GenericRecord) deserializer.deserialize("notes", serializer.serialize("notes", note("hi", 5L)));
      GenericRecord none = (GenericRecord) deserializer.deserialize("notes", serializer.serialize("notes", note(null, null)));

      assertThat(hi.get("text")).hasToString("hi");
      assertThat(hi.get("count")).isEqualTo(5L);
      assertThat(none.get("text")).isNull();
      assertThat(none.get("count")).isNull();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void nullSecond_bytesAreAvros(boolean fastWriter) {
    byte[] written = serdes.serializer("avro.fast.codec", fastWriter).serialize("notes", note("hi", null));

    // branch 0 ("string"), length 2, 'h' 'i'; branch 1 (null)
    assertThat(java.util.Arrays.copyOfRange(written, 5, written.length)).containsExactly(0, 4, 'h', 'i', 2);
  }

  private static GenericRecord note(String text, Long count) {
    GenericRecord note = new GenericData.Record(SCHEMA);
    note.put("text", text);
    note.put("count", count);
    return note;
  }
}
